// Package lexmax computes lexicographic max-min (leximin) solutions over any model:
// among the feasible points of a model.Model, one whose vector of outcomes u_1..u_n,
// sorted increasingly, is lexicographically largest — the smallest outcome as large as
// possible, then the second smallest, and so on. CORA (cora.txt §II, problem (1)) and
// RUSH's TAS (rush.txt §III-B) both ask for it per job; modeling layers only offer
// hierarchical objectives, which freeze whole objectives, not the order statistics of a
// vector of entities.
//
// Three methods, all behind Solve:
//
//   - Ordered (Ogryczak & Śliwiński, "On direct methods for lexicographic min-max
//     optimization", ICCSA 2006, the ordered-outcomes approach): for k = 1..n maximize
//     θ_k, the sum of the k smallest outcomes, through its linear form
//     k·t_k − Σ_i d_ik with d_ik ≥ t_k − u_i, d_ik ≥ 0, then freeze θ_k. Comparing sorted
//     vectors lexicographically is comparing their prefix sums, so it is exact on any
//     feasible set, MIPs included. Steps whose value is implied are skipped (see below).
//     When every outcome is one-hot (finitely many values, linear in binaries, like the
//     TAS MIP's u_i = Σ_s U_i(s)·w_is) it uses the paper's ordered-values form instead:
//     minimize, value by value from the smallest, the cumulative count of outcomes at or
//     below it. Same answer, at most (distinct values − 1) steps, and no auxiliary
//     variables — on a tight 20-job TAS MIP (BenchmarkLexmax/tas20) the t/d form did not
//     finish step 4 within a 60 s limit with HiGHS, while the values form solved all 9
//     steps in 13–17 s (Options.OutcomesForm forces the t/d form; Result.Form says which
//     ran).
//   - WaterFill: maximize t with u_i ≥ t for the free outcomes, freeze the saturated ones
//     at t, repeat. Saturation tests (Options.Saturation): Probe (maximize each undecided
//     outcome alone with the others held at t), Duals (the max-t LP's duals, with probes
//     where degeneracy makes them inconclusive), MILP (Gavel's water_filling, Narayanan
//     et al., OSDI 2020: one MILP marking the outcomes that rise together, the rest then
//     probed). Exact on LPs, where some free outcome is always saturated. On MIPs it can
//     stall — every free outcome can rise alone, none together — and then hands the free
//     outcomes to Ordered (Result.HandedOver), which is exact.
//   - ExpWeights (CORA's Lemma 1, eq. (6)): one solve of min Σ_i k^{−rank(u_i)}.
//
// # When a step of Ordered is implied
//
// Let b be the sorted vector of upper bounds on the outcomes known before solving (from
// column bounds; for one-hot outcomes the largest value a permitted binary can select).
// Every feasible point has sorted(u) ≤ b componentwise. If the point x found at step k
// has s_j(x) = b_j (within tolerance) for j = k+1..m, where s = sorted u(x), then
// θ_j* = θ_k* + Σ_{k<i≤j} s_i(x) for every such j: nothing does better and x attains it.
// Those steps are skipped, and one freeze at m replaces the freezes at k..m, because
// θ_m ≥ θ_m* together with s_i ≤ b_i forces θ_j ≥ θ_j* for every j < m. When m = n the
// method stops. In TAS instances this is the common case of jobs that all get their best
// utility. Nothing else implies a step: a tie s_k(x) = s_{k+1}(x) at the optimum of step k
// says nothing about how far the (k+1)-th smallest can still rise.
//
// # What duals prove (Saturation = Duals)
//
// In the max-t LP (max t s.t. u_i(x) ≥ t over the free outcomes), with λ_i the dual of
// row i:
//
//   - λ_i > 0 in any optimal dual ⇒ u_i = t* in every optimal solution, because
//     complementary slackness holds between every optimal primal and every optimal dual.
//     So "freeze every nonzero dual" never freezes too much, not even under dual
//     degeneracy (several optimal primals): a positive dual on a row rules out every
//     primal optimum with slack in that row. It can only seem to, in floating point: a
//     dual at the level of rounding noise, or from a solve that is not optimal, proves
//     nothing, hence dualThreshold and the check that the duals sum to 1.
//   - λ_i = 0 proves nothing under primal degeneracy: the dual is then not unique, and a
//     saturated outcome can get λ_i = 0 in the dual the backend picked. "Freeze exactly
//     the nonzero duals" then freezes too little. Water-filling stays correct (the outcome
//     stays free and the next max-t returns the same level) but the duals' claim "λ_i = 0,
//     so i can rise" is false: testdata/degenerate_duals.md has a model where every basic
//     optimal dual misses a saturated outcome.
//   - Goldman–Tucker: i is saturated ⇔ some optimal dual has λ_i > 0. With a primal
//     nondegenerate optimal basis the dual is unique, so there λ_i = 0 ⇔ i can rise.
//
// So Duals freezes the positive duals, trusts the zeros only at a nondegenerate vertex
// (checked from the basis, or by counting variables strictly inside their bounds), and
// otherwise decides the zero-dual outcomes with one LP that raises them together — on a
// convex set the average of the points raising each alone raises all, so it finds every
// raisable one when its margin is small enough — and probes what that leaves. Duals needs
// an LP; on a MIP it runs Probe.
//
// # Exponential weights (cora.txt §II-B, Lemma 1)
//
// For k > n, min Σ_i k^{−r(u_i)} is attained exactly at the lexmax points, where r(v) is
// the rank of v among the distinct values outcomes can take: if v beats w first at sorted
// position j, w pays at least k^{−r} more there while v's n−j+1 larger entries save at
// most (n−j+1)·k^{−r−1} < k^{−r}. Lemma 1 needs integer outcomes; only their order matters,
// so ranks serve for any finite set of values (for integer values on a contiguous range
// they are CORA's weights up to a constant factor). It applies when every outcome takes
// finitely many values: one-hot outcomes u_i = c + Σ_s a_s·w_s over binaries with a row
// allowing at most one w_s = 1 — the TAS MIP's Σ_s U_i(s)·w_is — get the weight on each
// w_s, and integer-valued outcomes on a bounded range get a one-hot encoding. With m
// distinct values the weights span (m−1)·log10(k) orders of magnitude; the method refuses
// with a *WeightRangeError beyond float64 (307.7 orders) or beyond what the solver
// resolves (−log10 of Options.ExpResolution, default 6), saying by how many orders.
//
// Lemma 1 as printed (Y ⪰ W ⇔ h(Y) ≥ h(W) with h(Y) = Σ_j k^{y_j} and ⪰ comparing
// vectors sorted in nondecreasing order) is false: Y = (0, 2), W = (1, 1), k = 2 gives
// W ≻ Y but h(Y) = 5 > h(W) = 4. h compares from the largest entry (the sorted
// nonincreasing order); applied to −F, as eq. (6) does, that is exactly the max-min order
// CORA wants, so eq. (6) is right although the lemma's statement is reversed.
//
// # Tolerances
//
// A value v found optimal is frozen as ≥ v − max(AbsTol, RelTol·|v|) — for θ_k, a sum
// of k outcomes, max(k·AbsTol, RelTol·|v|) — and Result.Tol says what was used. A step
// that fails numerically after earlier freezes (seen with HiGHS on 200-outcome ordered
// outcomes) is retried from another start and then with the freezes relaxed 10- and
// 100-fold; a note says so and Tol.MaxSlack shows the slack that was needed. Integer-valued quantities (outcomes over integer columns with integer
// coefficients, and sums of them) are frozen at ≥ round(v) − ½ instead: exact, and far
// from every solver tolerance (slacks near the MIP feasibility tolerance make HiGHS 1.10
// declare feasible MIPs infeasible). A freeze's slack can let later outcomes rise by the
// slack times their coupling to the frozen ones, so on continuous models the returned
// vector is the lexmax of the slightly relaxed problem. When the model has integer
// variables the Result reports max |x − round(x)| over them.
//
// # Solves and warm starts
//
// Each solve reuses one growing working model (the caller's Model is compiled once and
// never changed). With a backend whose Capabilities report Basis, every LP solve starts
// from the previous basis, extended to the new columns and rows; Ordered builds a primal
// feasible start (t_k basic at the smallest outcome, d_ik at zero).
package lexmax
