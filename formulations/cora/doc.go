// Package cora builds the linear programs of CORA (cora.txt §II) — Linearized-CORA and
// FINAL — exactly as the paper writes them, decodes their solutions into schedules, and
// computes exact CORA, the completion-time lexmax, through the TAS machinery, so that the
// two can be compared on every instance.
//
// # The paper's chain (cora.txt §II)
//
// CORA (1)–(5): allocate x^r_it ∈ Z⁺ units of resource r to job i in slot t, within the
// capacity Σ_i x^r_it ≤ C^r (3), with exactly the demand Σ_t x^r_it = R^r_i (4), so that
// the vector of utilities U_i(T_i) of the completion slots T_i (2) is lexicographically
// max-min. The paper then transforms it in three steps:
//
//   - R-CORA (§II-A) replaces the completion time by indicators: lexmax of the vector
//     F_X of all |N||T||R| terms u_it·I(x^r_it), where u_it is the integer utility and
//     I(x) = 1 when x > 0.
//   - Eq. (6) (Lemma 1) replaces the lexmax by min Σ_{i,t,r} k^{−u_it·I(x^r_it)}, k =
//     |N||T||R|, a separable convex objective over the totally unimodular constraints
//     (3), (4) (Lemma 2).
//   - Linearized-CORA (§II-B3) is the λ-representation (7)–(10) of each cell's cost at
//     the points D = {0, …, C^r}: columns x and λ^{r,j}, rows Σ_j j·λ^{r,j} = x (8) and
//     Σ_j λ^{r,j} = 1 (9), cost λ^{r,0} + Σ_{j>0} k^{−u_it}·λ^{r,j}. BuildLinearized.
//   - FINAL (§II-C, Lemma 3) keeps the points {0, 1, C^r}: 4|N||T||R| columns, rows
//     λ^{r,1} + C^r·λ^{r,c} = x and λ^{r,0} + λ^{r,1} + λ^{r,c} = 1. BuildFinal.
//     Theorem 1 claims FINAL's optimum solves CORA.
//
// # Integer utilities, k and the numerics guard
//
// Quantize computes u_it = round(scale·U_i(t)) ("multiply it by a constant coefficient
// to convert it into an integer with negligible quantization error", §II-A). The default
// scale is the smallest 10^d, d = 0…3, that makes every utility an integer (so integer
// tables are taken as they are), else 1000. Utilities reports the largest quantization
// error max|scale·U − u|/scale and how many pairs of distinct values the rounding merged
// into ties (rounding is monotone: it never reverses two values, but a merge can change
// the lexmax). k defaults to |N||T||R| (Options.K overrides it).
//
// The weights k^{−u} span u·log10(k) orders of magnitude: sigmoid utilities of priority
// up to 5 at scale 1000 with k = 4,000 (100 jobs, 40 slots) reach 10^−18,000, far below
// float64's 10^−308, and an LP solver does not take a pivot that gains less than its
// optimality tolerance (10^−7) anyway. Every build runs the guard (Numerics): it counts
// the weights that underflow or are subnormal, compares the smallest gap between
// distinct weights with the tolerance, and states what it found, in numbers, in
// LP.Warnings (an error wrapping ErrStrict with Options.Strict). On the paper's size it
// always fires (see "Measured" below); FINAL is then solved anyway, as the paper would,
// and what the LP optimizes is essentially "use as many cells as possible", the
// utilities being below what the solver resolves.
//
// # What is added to the paper, and why
//
//   - Capacities per slot (C^r_t, as in RDS): capacity row (3) uses C^r_t, and the point
//     sets are per slot: {0, 1, C^r_t} and {0, …, C^r_t}. Where C^r_t = 0, FINAL's
//     λ^1 and λ^c are fixed at 0 (with C = 0 the row λ^1 + 0·λ^c = x would let λ^c
//     take cost k^{−u} < 1 at x = 0: D is {0} there).
//   - A job's demand may be 0 for a resource: x is fixed at 0 there (the λ columns stay,
//     so the model keeps its 4|N||T||R| columns).
//   - Release slots and max_parallel are not in CORA. They are column bounds here: x is
//     fixed at 0 before the release and bounded by max_parallel. Bounds keep the
//     constraint matrix totally unimodular (Lemma 2), so Theorem 1's integrality argument
//     is unchanged; exact CORA honours them too (through tas.OnionPeel).
//   - Negative utilities are refused: the paper models utilities as nonnegative, and for
//     u < 0 the cell cost k^{−u·I(x)} is not convex, so (7)–(10) do not apply.
//   - Linearized-CORA is refused above Options.MaxColumns columns
//     (DefaultMaxLinearizedColumns), since it has one λ per unit of capacity per cell.
//
// # Decoding
//
// LP.Decode reads x only: an entry within IntegralityTol (10⁻⁹) of an integer is that
// integer; any other is reported in Decoded.Fractional and Decoded.Schedule is nil
// (Decoded.Rounded is kept for display), because integrality is what Lemma 2 and
// Theorem 1 claim, to be checked rather than assumed. The
// completion slot is the last slot holding any resource (sched.Schedule.Finalize).
// Vertices of FINAL are integral in x (a cell with two basic λs leaves x to the totally
// unimodular rows (3), (4)), and every simplex backend (HiGHS, lp_solve, gonum) returned
// integral x on every test instance; the active-set QP backend (solvers/qp) stops inside
// optimal faces and returns fractional x whenever the LP has tied optima, which is legal:
// the claim holds for vertices, not for every optimal point.
//
// # Reading the paper critically
//
// Theorem 1 holds for R-CORA and fails for CORA. R-CORA's vector F_X has one entry per
// cell (i, t, r), not one per job, and eq. (6) charges 1 for an empty cell and
// k^{−u_it} < 1 for a used one. Two things follow.
//
//   - The zeros of empty cells: FINAL first maximizes the number of cells in use —
//     spreading each job over as many slots as its demand and the capacity allow — and
//     only then the utilities. Finishing early leaves cells empty, which eq. (6)
//     punishes. Smallest case: one job, demand 2, capacity 2, two slots, U = (9, 1),
//     k = 2: CORA finishes in slot 1 (utility 9); FINAL puts one unit in each slot
//     (cost k^{−9} + k^{−1} against k^{−9} + 1 for leaving slot 2 empty) and finishes in
//     slot 2 (utility 1). With the paper's horizon (the smallest with room for all
//     demand) the smallest case has two jobs: testdata/cora/spread.json.
//   - The other cells of a job: the paper's argument ("by selecting the minimum term of
//     u_it·I(x) … we obtain the utility value of job i at its completion time") is
//     right for each job's minimum over its used cells, but R-CORA maximizes the whole
//     vector, in which a job's earlier cells count as if it had finished there. With
//     capacity 1 every schedule uses the same cells and FINAL still errs:
//     testdata/cora/intermediate-cells.json.
//
// The LP itself is solved right: on every random test instance FINAL's optimum equals
// the minimum of eq. (6) over all integral allocations (enumerated), and its F_X is
// R-CORA's lexmax. What differs is R-CORA from CORA. LP.Compare reports it per instance
// and `coraopt solve --formulation cora-final` prints it (details.exact_cora). And where
// u_it = 0 a used cell costs 1, like an empty one, so FINAL is indifferent to finishing
// late once a utility has reached 0 (the "LP ties" below).
//
// Two smaller points: Lemma 1 as printed is reversed — with ⪰ comparing vectors sorted
// in nondecreasing order, Y = (0, 2), W = (1, 1), k = 2 give W ≻ Y but h(Y) = 5 > 4 =
// h(W); h orders vectors from their largest entry, which applied to −F_X, as eq. (6)
// does, is the max-min order intended (package lexmax makes the same remark). And
// Lemma 3's condition reads "f linear in [a, b]" where "[a, c]" is meant; the reduction to
// {0, 1, C^r} is right (the cell cost is constant on [1, C^r]), and TestLemma3 shows that
// dropping the point 1 changes the optimum.
//
// # Exact CORA
//
// Exact computes CORA's own optimum — the lexmax of the completion-time utilities with
// several resources, capacities per slot, release and max_parallel — with tas.OnionPeel
// (rush.txt Alg. 3 made exact; feasibility per resource by EDF, or max-flow with caps).
// TAS asks Σ_t x ≥ η where CORA asks Σ_t x = R; the optima are the same: removing units
// from a schedule never moves a job's last used slot later, so trimming any TAS schedule
// to exactly R^r_i units per resource (from its latest slots) keeps it feasible and gives
// every job a utility at least as high; and every CORA schedule is a TAS schedule. Exact
// trims OnionPeel's schedule that way (EDF fills exactly η already; the trim is a
// guarantee, not a repair). The tests cross-check it against enumeration and, with a
// cgo backend, against tas.BuildMIP solved by package lexmax.
//
// # Measured
//
// TestFinalVersusExact (300 seeded instances of 1–3 jobs, 1–2 resources, 2–5 slots,
// integer utilities 0–5, each enumerated and solved by onion peeling): with the horizon
// as drawn FINAL's schedule has exact CORA's sorted utilities on 160 of 276 enumerable
// instances (58%); of the 116 others, 104 spread jobs over more cells, 11 use as many
// cells but have a better cell vector, 1 is an LP tie. With the paper's horizon: 201 of
// 289 (70%); 75 spread, 11 cell vector, 2 ties. At the paper's size (100 jobs × 40
// slots, sigmoid utilities as in §III-C, BenchmarkSolveFinal's instance) FINAL's
// minimum utility is 7·10⁻⁸⁸ against exact CORA's 0.53 and its sum 80 against 232: it
// uses 1,441 cells, exact CORA 128; and the numerics guard fires (scale 1000, k =
// 4,000: 2,901 of 4,000 weights underflow; the smallest gap is 10^−17,913).
//
// Building FINAL for that size takes about 10 ms, compiling it another 5 ms
// (BenchmarkBuildFinal); HiGHS 1.10 solves it in about 0.36 s of CPU time (8,824 dual
// simplex iterations; BenchmarkSolveFinal). The paper reports 347 ms on average with
// Mosek over its scheduling events.
package cora
