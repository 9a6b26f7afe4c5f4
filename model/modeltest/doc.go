// Package modeltest generates random model.Problems for property tests and compares
// Problems for equality.
//
// Problem draws a Problem from a rapid.T, so a failing property shrinks to a small
// counterexample and is replayed from its seed. Config chooses what the Problems may
// contain: sizes and densities, the kinds of column bounds (free, fixed, boxed, one-sided)
// and rows (<=, >=, =, ranged, free), integer columns, a convex quadratic objective
// (Q = LᵀL when minimizing, −LᵀL when maximizing: convex by construction), the range
// of coefficient magnitudes,
// and whether a feasible point is planted. The zero Config gives small LPs with every
// kind of bound and row and magnitudes from 1e-6 to 1e6 — the shape file-format round
// trips need. Solver property tests usually want Config{Integral: true, Feasible: true,
// Boxed: true}: small integer data, a known feasible point, and a bounded objective.
//
//	rapid.Check(t, func(t *rapid.T) {
//		p := modeltest.Problem(t, modeltest.Config{Feasible: true, Boxed: true})
//		...
//	})
//
// Diff compares two Problems the way a reader/writer round trip should preserve them:
// exactly, number for number and name for name, treating only representation choices as
// equal (nil versus empty slices, an all-false Integrality versus nil, an empty Hessian
// versus none, 0 versus -0).
//
// This package is test support; it is imported only from _test.go files.
package modeltest
