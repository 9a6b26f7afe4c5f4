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
//     entries that fill) when the vectors are sparse; product-form updates, refactorization
//     every 100 updates or when the etas grow, and whenever the pivot computed from the
//     row and from the column disagree (the stability check of Koberstein §6.2.1).
//   - Scaling by geometric-mean passes and column equilibration, powers of two.
//   - A light presolve: empty rows and columns, fixed columns, singleton rows turned into
//     column bounds; postsolve recovers primal values, row duals (an active singleton row
//     takes over its column's reduced cost) and a basis of the original problem.
//
// # Results
//
// A Solution carries x, the row activities, row duals and reduced costs in the sign
// convention of package solvers (∂z*/∂b in the problem's own sense; d = c − Aᵀy), the basis
// in the original rows and columns and the iteration count. Infeasibility is proven by a
// dual ray, unboundedness by a primal ray; the status InfeasibleOrUnbounded is never
// returned. Options.IterationLimit, Options.TimeLimit and the context (checked every 16
// iterations) stop a solve with IterationLimit, TimeLimit or Other. Options.PrimalTol
// and Options.DualTol replace the default tolerances of 1e-7 (they apply to the scaled
// problem).
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
