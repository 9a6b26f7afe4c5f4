// Package certificate recomputes, from a model.Problem and a solvers.Solution alone, the
// evidence that the Solution is what it claims: a feasible point (every bound, every row
// with Ax recomputed, integrality of integer columns, the objective recomputed) and, for
// a continuous problem with duals, an optimality certificate in the dual sign convention
// of package solvers (docs/design.md "Data flow"; solvers/doc.go):
//
//   - reduced costs: d = c + Qx − Aᵀy recomputed (for a QP, KKT stationarity);
//   - dual feasibility: σ·y_i > 0 only where row i has a finite lower bound, σ·y_i < 0
//     only where it has a finite upper bound, likewise σ·d_j for column bounds (σ = +1
//     for minimization, −1 for maximization);
//   - complementary slackness: a multiplier is nonzero only on the bound it selects
//     (measured as |multiplier| × distance from that bound, the term's share of the
//     duality gap);
//   - strong duality: the objective at x equals the dual objective
//     Offset + Σ_i y_i·b_i + Σ_j d_j·β_j − ½xᵀQx, b and β the bounds the signs select.
//
// Together, for a convex problem, these prove x optimal within the tolerances; a
// backend's Status is never consulted. Each quantity is a Measure with the number of
// violations and the largest one, so that package verify can report every one as a
// named check, and Result.Err lists the violations in words (at most 8, then a count).
//
// CheckKKT is the summary form for a caller that reports one number per condition: the
// largest relative primal violation, sign/stationarity violation and complementarity
// product, from X and RowDual alone (reduced costs recomputed), against one tolerance.
// formulations/rds reports it with every control step.
//
// The package imports only model and solvers, so that the solver conformance suite
// (solvers/solvertest, whose CheckPrimal and CheckLPCertificate wrap Primal and Dual)
// can use it without importing the formulations package verify depends on.
package certificate
