// Package qp is coraopt's pure-Go convex quadratic programming backend, registered as
// "qp". It solves
//
//	minimize (or maximize) ½xᵀQx + cᵀx + offset
//	subject to RowLower ≤ Ax ≤ RowUpper,  ColLower ≤ x ≤ ColUpper
//
// with Q positive semidefinite (negative semidefinite for a maximization, which is
// negated internally). It exists for the RDS receding-horizon control problem (rds.txt
// eq. 3; docs/design.md "The methods in brief"): per control interval, a strictly convex QP in the map and
// reduce allocations of every job over the horizon, with the capacity rows
// Σ_j (u^m_j + u^r_j)(t+i) ≤ r̂_a(t+i) and u ≥ 0.
//
// # Method: Goldfarb–Idnani dual active set
//
// For positive definite Q the solver is the dual method of Goldfarb and Idnani (1983),
// the algorithm of R's quadprog: start from the unconstrained minimizer (no phase 1),
// repeatedly pick the most violated constraint (violation divided by the row norm) and
// add it to the working set, dropping constraints whose multipliers would turn negative
// on the way (partial steps). The dual objective increases monotonically, so the method is
// finite; every iterate is dual feasible and the first primal-feasible one is optimal.
// Every bound and both sides of every ranged row are inequality constraints; equal
// bounds are equalities, never dropped, with multipliers of either sign.
//
// The linear algebra is arranged for many bounds and few general rows, the shape of the
// RDS problem:
//
//   - Q is split into the connected components of its sparsity graph ("blocks"). Each
//     block keeps a dense Cholesky factor of Q restricted to its free variables.
//   - An active bound fixes its variable: the variable leaves the free set F and its
//     block's factor (an O(b²) row/column deletion with a rank-one update, b the block
//     size); a dropped bound re-enters it (an O(b²) append). Bound multipliers are read
//     off the gradient, so bounds cost no Schur-complement space.
//   - Active general rows enter a Schur complement S = N_Fᵀ Q_FF⁻¹ N_F, kept as a dense
//     Cholesky factor, and T = Q_FF⁻¹ N_F, one column per active row. A bound change is a
//     rank-one up- or downdate of S and T; a row change appends or deletes a row of S.
//
// So an active-set change costs O(b² + k·n + nnz) instead of the O(n²) of the classical
// J = L⁻ᵀQ formulation, k being the number of active rows. For RDS (blocks of 2H
// variables per job, H capacity rows) that is O(n).
//
// Two deviations from the textbook method, both keeping its guarantees:
//
//   - Crash start. After the unconstrained (equality-constrained) minimizer is computed,
//     up to 8 batch rounds run: every constraint the current point violates joins the
//     working set at once, then every inequality whose multiplier is negative is released
//     (repeatedly, until none is; the working set shrinks each round). Each round ends at
//     a point that is optimal for its working set with nonnegative multipliers — a valid
//     start for the dual method, whose objective value there is a lower bound on the
//     optimum. A round must raise that bound; one that does not (the rounds are a
//     primal-dual active-set heuristic and can cycle) is undone and the dual method takes
//     over, finishing exactly. A round refactors every Hessian block, so it runs only when
//     every block has at most 32 variables: then it costs about as much as a few single
//     changes. On the RDS problem (blocks of 2H variables) the rounds do almost all the
//     work — thousands of one-at-a-time additions, each O(n) because the capacity
//     multipliers move every allocation, become a few batch solves; on a dense 400-variable
//     problem they were measured to cost 7× more changes than the dual method alone,
//     hence the gate. A batch that would exceed Options.IterationLimit is not taken.
//   - Refinement. Before optimality is declared (and every 200 low-rank updates) the
//     factors are rebuilt and the point is recomputed from the working set by an
//     equality-constrained solve with iterative refinement; if that reveals a violated
//     constraint or a negative multiplier, the method continues from there. Before
//     infeasibility is declared on a violation of at most 10·infeasTol (see Statuses)
//     the same rebuild is tried, at most three times per run, since such a violation may
//     be drift of the low-rank updates.
//
// # Warm start
//
// Options.WarmStart is a solvers.Basis from an earlier solve with the same columns
// (RDS re-solves a shifted QP every control interval). Columns AtLower/AtUpper and rows
// AtLower/AtUpper (and Fixed, for equalities) are installed as the initial working set at
// once; rows beyond len(Rows) start inactive; statuses at an infinite bound are ignored.
// Constraints that are linearly dependent on those already installed are skipped, and
// negative multipliers are released as in the crash start. The dual method then adds what
// is still violated. A good warm start therefore needs only the changes. Solutions report
// their final working set in Solution.Basis with the same meaning (Basic = inactive).
//
// # Singular Q: proximal-point fallback
//
// If Q is singular — a Cholesky pivot, or the estimate of its smallest eigenvalue, is below
// 1e-8·max(1, max|Q_jj|); this includes Q = 0 on some variables (LP directions) and a
// pure LP — the solver runs proximal-point iterations
//
//	x_{k+1} = argmin ½xᵀQx + cᵀx + ½ρ_k‖x − x_k‖²  over the feasible set,
//
// each a strictly convex QP solved by the dual method, warm-started from the previous
// working set. ρ starts at 0.1·max(1, max|Q_jj|) and shrinks tenfold per outer iteration
// down to 1e-7 of that scale (a smaller ρ moves faster along flat directions but
// conditions the factors worse). Each subproblem's multipliers are exact for it, so for
// the original problem x_{k+1} is primal feasible, complementary and dual-sign feasible,
// and its stationarity residual is exactly ρ_k(x_{k+1} − x_k).
//
//   - Stopping rule: stop when ρ_k‖x_{k+1} − x_k‖∞ ≤ DualTol·max(1, ‖c‖∞, ‖Qx‖∞): a KKT
//     point to that tolerance. The reported reduced costs include the residual.
//   - Extrapolation: after each step d = x_{k+1} − x_k the next centre moves along d to the
//     line minimizer of the objective or the first constraint in the way; otherwise a
//     flat variable with a small cost moves only cost/ρ per iteration.
//   - Unboundedness: Status Unbounded is returned when the step d is, within 1e-9
//     relative, a recession direction with Qd = 0, cᵀd < 0 and every finite bound and
//     row side respected along d. With the feasible iterate this certifies that the
//     objective decreases without bound. Proximal steps of an unbounded problem tend to
//     such a direction, so this detects unboundedness along rays that the iterates find;
//     it cannot detect unboundedness that the iterates approach only asymptotically
//     within the 300-outer-iteration budget (NumericalError is returned then), and
//     a feasible set that is bounded only by a row or bound whose slope along d is below
//     the tolerance is reported as unbounded.
//   - Infeasibility is detected by the first subproblem exactly as in the strictly convex
//     case (feasibility does not depend on Q).
//
// # Statuses
//
//   - Optimal: the KKT conditions hold (primal within PrimalTol relative to max(1,|bound|),
//     default 1e-9; dual signs within DualTol, default 1e-9).
//   - Infeasible: a violated constraint could be added neither with a primal step (it is a
//     combination of the working set) nor by releasing a constraint — the multipliers
//     then form a Farkas certificate. A constraint in that position violated by at most
//     100·PrimalTol relative is instead accepted as satisfied (rounding at a degenerate
//     vertex) and re-examined at the end.
//   - Unbounded: see above (singular Q only).
//   - TimeLimit, IterationLimit (Options.IterationLimit counts active-set changes), Other
//     (context cancelled): X is nil.
//   - NumericalError: a factorization broke down or the safety cap of 20(n+m)+1000
//     active-set changes per dual-method run was hit.
//
// The context and Options.TimeLimit are polled every 16 steps of the method and every 64
// columns of the factorization of a large Hessian block.
//
// A Solve returns an error (no Solution) for an invalid problem, integer variables, a Q
// that is not positive semidefinite (a clearly negative pivot), a mismatched warm start,
// or a problem above the size limits: MaxDenseBlock variables coupled through Q (dense
// factor per block) or MaxWorkingEntries dense working-set entries (n·k + k² with k the
// number of constrained rows, at most n).
//
// # Duals
//
// Following the solvers package convention (HiGHS's): RowDual[i] = ∂z*/∂b_i in the
// problem's own sense, and ReducedCost = c + Qx − Aᵀy, the gradient form for a QP. For a
// minimization an active lower side has a nonnegative multiplier; for a maximization the
// signs flip. Iterations counts active-set changes (additions and releases, including
// those of the crash start and of the warm start).
//
// # Validation
//
// Tests check hand-derived optima (HiGHS's QP test models transcribed among them), random
// strictly convex and singular QPs and random LPs against an independent KKT certificate,
// random LPs against gonum's simplex, the shared conformance suite (solvers/solvertest,
// every LP and QP case), the shared model set (solvers/netlib: HiGHS's QP models and the
// Netlib LPs with their duals) and, with -tags highs, random QPs against HiGHS.
//
// LPs are supported (Capabilities.LP) but through the proximal path, a QP method: small
// and medium Netlib models solve (afiro in milliseconds, 25fv47 in seconds), greenbea did
// not finish in 20 minutes, and 80bau3b is above MaxWorkingEntries. Use a simplex backend for LPs of
// any size.
//
// # Limits of the method
//
// The solver does not scale the problem. Rows whose coefficients span many orders of
// magnitude (say 1e-10 next to 1) make feasibility a question of rounding; such
// problems can be misjudged. Dense storage is per Q block, so a fully dense Q of n
// variables costs O(n²) memory and O(n²) per active-set change.
//
// Reference: D. Goldfarb and A. Idnani, "A numerically stable dual method for solving
// strictly convex quadratic programs", Mathematical Programming 27 (1983) 1–33.
package qp
