// Package model is coraopt's algebraic modelling layer: a declarative builder for linear,
// mixed-integer and convex quadratic programs, and the compiled form every solver reads.
//
// A Model holds variables (continuous, integer or binary, with bounds that may be ±Inf),
// linear constraints (<=, >=, ==, and ranged lo <= expr <= hi) and an objective (minimize
// or maximize a linear expression plus a constant, with optional quadratic terms).
// Compile turns it into a Problem in compressed sparse column (CSC) form — the shape of the
// HiGHS C API's Highs_passModel — with duplicate terms merged, exact zeros dropped and a
// deterministic ordering, so the same model always compiles to the same bytes.
//
// Building never panics on bad numbers: NaN or infinite coefficients, lower > upper, or a
// variable that belongs to another model are recorded and reported by Compile, with the
// name of the offending variable or constraint.
//
// The quadratic objective follows HiGHS and the MPS QUADOBJ convention:
//
//	minimize  cᵀx + ½ xᵀQx + offset
//
// where Q is symmetric and stored as its lower triangle in CSC (Problem.QStart/QIndex/QValue).
package model
