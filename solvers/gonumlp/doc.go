// Package gonumlp adapts gonum's dense simplex, gonum.org/v1/gonum/optimize/convex/lp
// Simplex, to the solvers.Solver interface under the registry name "gonum". It is the
// reference point of coraopt's benchmarks (docs/design.md, "Performance targets": the built-in simplex
// must beat it by 50×), not a production backend: it is dense, refactors the basis every
// iteration, returns no duals and no basis, and solves LPs only.
//
// # Conversion to standard form
//
// lp.Simplex solves min cᵀx s.t. Ax = b, x ≥ 0 with A of full row rank, no zero row and
// no zero column. A model.Problem (bounds, ranged rows, either sense) is brought there by
// a small presolve and a standard-form transformation:
//
//   - the sense is folded into c (maximize cᵀx = −minimize −cᵀx);
//   - fixed columns (lower = upper) are substituted into the rows;
//   - free rows are dropped; rows left without entries are checked (0 must lie within their
//     bounds, else the problem is Infeasible) and dropped;
//   - linearly dependent equality rows are found by Gaussian elimination with a relative
//     tolerance of 1e-9 and dropped when consistent, or prove infeasibility when not
//     (gonum returns ErrSingular on a rank-deficient A; rows with a slack are always
//     independent, so only equality rows need this);
//   - columns left without entries are set to the bound their cost points at (any value
//     in the bounds when the cost is 0); when that bound is infinite the problem is
//     Unbounded if and only if the remaining rows are feasible, which is decided by
//     solving them with a zero objective;
//   - a column with a finite lower bound l is shifted, x = l + x′ (with a row x′ + t = u − l
//     when its upper bound u is finite too); one with only an upper bound is mirrored,
//     x = u − x′; a free column is split, x = x⁺ − x⁻;
//   - a row lo ≤ aᵀx gets a surplus, aᵀx − s = lo; aᵀx ≤ up a slack, aᵀx + s = up; a ranged
//     row lo ≤ aᵀx ≤ up both, aᵀx − s = lo and s + t = up − lo;
//   - every row of the result is scaled by its largest absolute entry (this leaves x
//     unchanged and keeps gonum's condition-number tests away from badly scaled rows).
//
// When the standard form is square (as many rows as columns) its single solution decides
// the problem, and the adapter solves it itself with an LU factorization and the
// feasibility tolerance: lp.Simplex does the same but rejects any component below zero
// with no tolerance, so rounding (a slack at −1e-16) made feasible problems infeasible.
//
// The original x is recovered from the standard-form solution; Objective and RowActivity
// are recomputed from it in the problem's own sense, offset included. A point gonum calls
// optimal is checked against the original bounds and rows (relative tolerance 1e-6) and
// reported as NumericalError, with the point, when it fails.
//
// # Statuses
//
// lp.ErrInfeasible → Infeasible; lp.ErrUnbounded → Unbounded; every other gonum error
// (lp.ErrSingular, lp.ErrLinSolve, lp.ErrBland, lp.ErrZeroRow, lp.ErrZeroColumn, a
// mat.Condition from an ill-conditioned basis, a failed phase I) → NumericalError. A
// panic inside gonum is recovered and returned as an error.
//
// # Limits and cancellation
//
// lp.Simplex cannot be interrupted and counts no iterations. Solve checks the context
// before it starts and Options.TimeLimit after the conversion, then runs lp.Simplex in a goroutine and returns as soon as the
// context is done (cancelled → Other; deadline → TimeLimit) or Options.TimeLimit passes
// (TimeLimit); the abandoned goroutine runs to completion in the background and its
// result is discarded. Options.IterationLimit, WarmStart, MIPGap and Threads are ignored;
// DualTol, when set, is the reduced-cost tolerance handed to lp.Simplex (default 1e-9)
// and PrimalTol, when set, the presolve's feasibility tolerance (default 1e-9).
//
// # Known limitations of gonum's Simplex
//
// gonum issue 1914 (open): lp.Simplex reports ErrInfeasible for some feasible LPs; the
// adapter cannot detect this (an infeasibility claim comes without a certificate).
// gonum issue 450: Simplex used to report ErrSingular for A with more rows than columns
// and now panics on it; the conversion never builds such an A (dependent rows are
// removed first, so the row count is at most the rank plus the slack count).
package gonumlp
