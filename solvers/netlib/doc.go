// Package netlib is a reusable test set of published LP, MIP and QP models — Netlib LPs,
// feasible, infeasible and unbounded, small MIPLIB MIPs and Maros–Mészáros-style QPs — with
// reference answers, for the tests of every coraopt solver backend.
//
// The models are the ones HiGHS ships in check/instances; scripts/install-deps.sh unpacks
// them into the cache and package internal/testmodels finds them (coraopt does not commit
// them). A backend's test calls
//
//	netlib.Run(t, func() solvers.Solver { return mybackend.New() }, netlib.Config{MIP: true})
//
// RunFull does the same over the whole Netlib LP collection (models.FullCollection: 91
// LPs, each file checked against its SHA-256 first), which is not committed either and
// which make deps does not fetch: it is read from $CORAOPT_NETLIB_DIR or the cache's
// netlib directory, and RunFull skips, saying so, when neither holds it.
//
// Run reads each model with coraopt's own readers (model/mps, model/lpformat), solves
// it, and checks: the status (Optimal, Infeasible or Unbounded, accepting
// InfeasibleOrUnbounded where Config says the backend cannot tell them apart); for an
// optimum, the objective against the reference to 1e-6 relative, the point against every
// bound, row and integrality (solvertest.CheckPrimal recomputes Ax), and for LPs the dual
// certificate when Config.Duals (solvertest.CheckLPCertificate). Each case logs its time.
//
// # Reference objectives
//
// Case.Objective is the optimum in coraopt's convention: the objective cᵀx + ½xᵀQx +
// Offset of the Problem the MPS reader returns, with the objective row's RHS entry as
// −Offset (as HiGHS reads it). Case.Published is the value published with the model in
// its source's convention (the Netlib lp/data readme, from MINOS 5.3; MIPLIB 3; the
// Maros–Mészáros list), NaN when there is none. Where the published value exists and agrees
// with HiGHS 1.10 and lp_solve 5.5.2.5 to 1e-6, it is the reference; where it does not
// (the readme's values for 80bau3b, greenbea and scrs8 are from a run that stopped short;
// e226's excludes the objective constant 7.113) or where none is published, the reference
// is the value HiGHS and lp_solve agree on to 1e-9, and Case.Source says so.
package netlib
