// Package solvertest is the conformance suite every coraopt solver backend runs, after
// MathOptInterface's MOI.Test: one list of small models with hand-derived optima, each a
// function testXxx(t, s, cfg), run as a subtest named after the case.
//
//	func TestConformance(t *testing.T) {
//		solvertest.Run(t, func() solvers.Solver { return mybackend.New() }, solvertest.Config{
//			Duals: true,
//			Exclude: map[string]string{"iteration_limit": "the backend has no iteration limit"},
//		})
//	}
//
// What a case checks. Every solve: the backend returned no error, a Solution whose Backend
// is the solver's Name, and left the Problem exactly as it was. Every case expecting an
// optimum: the Status; the objective against the hand-derived value; x against every
// bound and every row, with Ax recomputed here (RowActivity is only compared with it);
// Objective against p.Objective(x); BestBound (equal to Objective for LP and QP, never
// better than the optimum for a MIP); integrality for MIPs. Where Config.Duals holds, the
// dual certificate of the package solvers convention (see CheckLPCertificate): signs,
// complementary slackness, reduced costs c + Qx − Aᵀy and strong duality. Cases expecting
// infeasibility or unboundedness check the Status, accepting InfeasibleOrUnbounded only
// when Config.AcceptInfeasibleOrUnbounded says the backend cannot tell the two apart.
//
// Beyond certificates: the sensitivity cases (Config.Duals) compare every row dual and
// reduced cost with the central difference of the optimal value when that row's or
// column's bounds move (the package solvers convention y = ∂z*/∂b, independent of any
// certificate arithmetic), for LPs in both senses, a column at its upper bound (reported
// AtUpper where Config.Basis says the backend returns a basis) and a QP. The limit cases
// stop a solve through every route — a context done before the call, a context that turns
// done (cancelled or past its deadline) once the backend has started, Options.TimeLimit,
// IterationLimit — on a model the backend cannot finish before it looks (HardMIP for MIP
// backends, a 120×120 LP otherwise). No case is bounded by a clock: the "during the
// solve" contexts turn done when the backend first asks, not after a delay, so the suite
// gives the same verdicts under -race on a loaded machine. An infeasibility proof must
// carry no point and a MIP optimum no duals.
//
// Tolerances are relative: a bound b is met when the violation is at most tol·max(1, |b|);
// objectives agree when they differ by at most ObjTol·max(1, |expected|).
//
// Capabilities. A case that needs MIP, QP or duals is skipped, with the reason, when the
// Config says the backend lacks it; a case a backend is known to fail is listed in
// Config.Exclude with the reason, and Run rejects names that are not cases. Quadratic
// objectives follow model.Problem: cᵀx + ½xᵀQx with Q's lower triangle stored. The suite
// includes a maximization of a concave quadratic (qp_maximize_concave); a QP backend that
// supports only minimization must Exclude it and say so.
//
// The exported checkers (CheckPrimal, CheckLPCertificate) and models (LP2, HardMIP) are
// for backend tests beyond the suite, for example on Netlib models whose optimum is known
// only as a number.
package solvertest
