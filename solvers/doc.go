// Package solvers defines how coraopt talks to optimization backends: the Solver
// interface, the Options a solve takes, the Solution it returns, a MathOptInterface-style
// Status that separates why a solver stopped from what it proved, and a registry of
// backends by name.
//
// Backends live in subpackages and register themselves when imported (the database/sql
// pattern): the pure-Go ones (simplex, qp, gonum) always, the cgo ones (highs, lpsolve)
// only when built with their tags. Import github.com/coraopt/coraopt/solvers/all to get
// every backend this binary was built with.
//
// # Dual sign convention
//
// Row duals and reduced costs are sensitivities of the optimal objective value, in the
// problem's own sense: RowDual[i] = ∂z*/∂b_i for the active bound b_i of row i, and
// ReducedCost = c − Aᵀy. Consequently, for a minimization a row at its lower bound has
// y_i ≥ 0 and a row at its upper bound has y_i ≤ 0, a column at its lower bound has
// d_j ≥ 0 and at its upper bound d_j ≤ 0; for a maximization every sign flips. This is
// the convention HiGHS reports; backends with another convention convert to it.
package solvers
