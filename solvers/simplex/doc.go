// Package simplex is coraopt's built-in LP solver, the backend `go run ./cmd/coraopt`
// uses with no setup: a sparse bounded dual simplex method in pure Go, registered as
// "simplex". It solves linear programs only; a problem with integer columns or a
// quadratic objective is rejected with an error wrapping ErrNotLP.
//
// # Method
//
// The solver works on the model.Problem form directly, as a bounded-variable revised
// simplex method on [A I]z = 0: every row gets a logical variable (its negated activity,
// bounded by the negated row bounds), so ranged rows, free, fixed, boxed and one-sided
// columns need no conversion to standard form. The implementation follows Koberstein's
// thesis "The dual simplex method, techniques for a fast and stable implementation"
// (2005) and the HiGHS papers of Huangfu and Hall:
//
//   - Dual simplex as the main engine (Koberstein ch. 3): dual steepest-edge pricing
//     (Forrest & Goldfarb's update with exact reinitialization of the leaving row's
//     weight) and the bound-flipping ("long-step") ratio test with Harris tolerances, in
//     which boxed variables pass their breakpoints by flipping bounds while the dual
//     objective's slope stays positive.
//   - Dual phase 1 by the auxiliary-problem ("subproblem") approach of Koberstein §4:
//     minimize the total dual infeasibility with the dual simplex on a boxed copy of the
//     LP. A problem left dual infeasible is decided by a dual simplex on zero costs
//     (infeasible, or a feasible point) and then a primal simplex on the true costs
//     (unbounded, with its ray verified on a fresh factorization).
//   - Primal simplex (Devex pricing, Harris two-pass ratio test, bound flips of the
//     entering variable) for the cleanup after perturbation, for warm starts that are
//     primal but not dual feasible, and to find unbounded rays.
//   - Anti-degeneracy: random cost perturbation scaled like HiGHS's, cost shifting where
//     the Harris test would step backwards; both are removed at the end and the remaining
//     dual infeasibilities cleaned up by the primal simplex, so no model cycles.
//   - Sparse LU factorization of the basis: Markowitz pivoting with threshold partial
//     pivoting (u = 0.1, Suhl & Suhl's search of columns and rows by count), singularity
//     repaired by swapping in logicals; FTRAN and BTRAN in scatter form over row- and
//     column-wise copies of L and U, hyper-sparse (heap-ordered traversal of only the
//     entries that fill) when the vectors are sparse; Forrest–Tomlin updates (Koberstein
//     §5.3: the spike replaces a column of U, its row moves last and is eliminated into a
//     row eta), refactorization every 100 updates or when the updates outgrow the factors,
//     and whenever the pivot computed from the row and from the column disagree or the
//     new diagonal of U disagrees with the pivot (the stability checks of Koberstein
//     §6.2.1).
//   - The hyper-sparse solves and the update visit their pivots in order through a bit
//     set with a moving cursor (bitQueue) rather than a heap, and the inner loops of the
//     solves, PRICE, CHUZR and the ratio test index without Go's bounds checks (elem; the
//     build tag simplexcheck puts the checks back, and `make test` runs the tests so);
//     neither changes a single operation, so every result bit is the same either way.
//   - Scaling by equilibration, rows then columns, powers of two (fixed columns are left
//     out); it beat geometric-mean passes by 23% in iterations on the Netlib set.
//   - A light presolve: free, empty and singleton rows (a singleton row becomes a bound
//     on its column when it tightens it beyond rounding), fixed and empty columns; then
//     doubleton equations a·x_j + b·x_k = r (Andersen and Andersen 1995, as HiGHS's
//     presolve): x_k, the column with the larger coefficient, is substituted out of the
//     other rows and the objective and its bounds become x_j's; postsolve recovers
//     primal values, row duals (an active singleton row takes over its column's reduced
//     cost; a doubleton row's dual makes x_k's reduced cost zero, or x_j's when x_j sits
//     at a bound x_k set) and a basis of the original problem. A third stage
//     (Andersen and Andersen §3–4, as HiGHS's) removes redundant rows, forcing rows
//     (met only with every column at one bound: the columns are fixed; postsolve gives
//     the row the least dual that keeps their reduced costs of the right sign),
//     implied-free column singletons (the row's bounds and its other columns' keep the
//     column within its own: column and row go, an inequality row taken as the
//     equality the dual's sign c_k/b picks, its cost moves onto the row's other
//     columns, postsolve sets it basic with the row's dual c_k/b) and dominated
//     columns (a reduced cost that keeps its sign over the dual bounds the remaining
//     column singletons and the row senses imply: fixed at that bound; the singletons
//     it relied on stay). An infeasibility
//     found on the presolved problem is confirmed on the original one, and an optimum
//     whose certificate postsolve spoiled (duals carried through tiny coefficients) is
//     checked against a solve without presolve.
//
// Feasibility is relative: a bound b is met within PrimalTol·max(1, |b|), with b the
// bound of the original problem (a row bound that presolve shifted keeps its original
// tolerance), the measure of package solvertest's certificate checkers. Because the
// simplex works on the scaled problem, an optimum is measured again in the problem's
// own units; where a violation (or a wrong-signed reduced cost whose variable has a wide
// range) exceeds the tolerance there, the solve continues from the same basis with the
// scaled tolerances that expose it, and falls back to the last optimal basis if that
// fails. The final x and y get one step of iterative refinement. A solve that stalls
// (the same basis change again with no progress) gets a stronger perturbation, and one
// that runs past 50·(n+m)+100000 iterations stops with NumericalError.
//
// # Results
//
// A Solution carries x, the row activities, row duals and reduced costs in the sign
// convention of package solvers (∂z*/∂b in the problem's own sense; d = c − Aᵀy), the basis
// in the original rows and columns and the iteration count. Infeasibility is proven by a
// dual ray, unboundedness by a primal ray; the status InfeasibleOrUnbounded is never
// returned. Options.IterationLimit, Options.TimeLimit and the context (checked every 16
// iterations) stop a solve with IterationLimit, TimeLimit or Other. Options.PrimalTol
// and Options.DualTol replace the default tolerances of 1e-7 (the simplex works with
// them on the scaled problem and checks its answer against them in the problem's own
// units). Reduced costs are recomputed as c − Aᵀy from the reported duals; basic columns
// and values within the rounding of that computation are reported as 0.
//
// # Warm starts
//
// Options.WarmStart takes a basis from an earlier solve (Solution.Basis) of a problem
// with the same columns: lexmax re-solves a model after adding rows and changing bounds
// and objectives, and starts each solve where the last one ended. Rows beyond the basis's
// length start basic. A basis with the wrong number of basic variables is completed with
// logicals or trimmed, a singular one is repaired by the factorization, and a basis for a
// different number of columns is ignored (the solve starts from the slack basis), so any
// basis gives a correct answer. Presolve is skipped for warm starts, since the basis
// refers to the original rows and columns. A warm start that is primal feasible but not
// dual feasible (a changed objective) continues with the primal simplex, one that is
// dual feasible (added rows, moved bounds) with the dual simplex.
package simplex
