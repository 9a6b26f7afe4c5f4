// Package lpsolve is coraopt's binding to lp_solve 5.5 (lp_lib.h): LPs by lp_solve's
// simplex and MIPs by its branch and bound. It registers itself with package solvers as
// "lpsolve". lp_solve has no QP solver: a Problem with a quadratic objective is an error.
//
// The binding is compiled only with the build tag lpsolve (`make build`; the Debian package
// liblpsolve55-dev and libsuitesparse-dev provide the static library and colamd). Without
// the tag the package registers a "not compiled in" entry with that hint and keeps its API:
// New, Version and the Solver's methods exist in every build, and there a Solve returns
// *solvers.ErrNotCompiled naming the tag (the go-sqlite3 pattern).
//
// How a Problem is handed over: make_lp with the rows, then column by column with
// add_columnex (the CSC layout, objective coefficient in row 0); each row gets the type
// that matches its bounds (EQ, LE, GE, or LE with set_rh_range for a two-sided range; a
// free row is LE with an infinite right-hand side); every column's bounds are set
// explicitly, because lp_solve's default lower bound is 0, with ±Inf mapped to lp_solve's
// infinity (1e30) and set_unbounded for free columns; set_int marks integers. The
// objective offset is added to lp_solve's objective value afterwards.
//
// Output: lp_solve prints reports to stdout by default. The binding sets
// set_outputfile(lp, "") and set_verbose(lp, NEUTRAL), so nothing reaches stdout; with
// Options.Verbose set, lp_solve's log (verbosity NORMAL) is routed to that writer through
// put_logfunc.
//
// Duals: after an optimal LP solve the binding solves again with sensitivity analysis
// (set_presolve(PRESOLVE_SENSDUALS)), from the optimal basis the first solve left (no
// iterations), without abort function or timeout, and reads the row duals from
// get_ptr_sensitivity_rhs. The first solve never has sensitivity analysis on because
// lp_solve 5.5.2.5 crashes (construct_sensitivity_duals on an invalid factorization)
// when such a solve is aborted. lp_solve reports a row dual as the derivative of the
// optimal objective value with respect to the row's right-hand side, in the problem's own
// sense — for maximization as well as minimization — which is coraopt's convention, so
// nothing is converted (lp_solve stores a maximization as the minimization of −cᵀx but
// undoes that before reporting; the tests check the signs by finite differences). The
// reduced costs are computed from them by their definition d = c − Aᵀy rather than read
// from lp_solve, whose own are wrong in two cases the conformance suite found: they are 0
// for columns that appear in no row, and wrong in value and sign for columns with an
// infinite lower and a finite upper bound. Duals are returned for LPs only.
//
// Empty columns: lp_solve 5.5.2.5 answers OPTIMAL, with the column at 1e30 and the
// objective at ∓1e30, when a column that appears in no row improves the objective without
// limit. The binding holds such a column at a finite bound, solves the rest, and answers
// Unbounded when the rest is feasible (and Infeasible when it is not).
//
// Branch and bound keeps lp_solve's defaults (NODE_FIRSTSELECT, ceiling first). They are
// weak on coraopt's scheduling MIPs: the max-min TAS MIP of testdata/quickstart.json
// (7 jobs × 12 slots) is not solved in 20 s (1.1 million nodes; HiGHS: well under a
// second), and lexmax on it does not finish. Pseudo-cost selection with reduced-cost
// fixing (NODE_PSEUDOCOSTSELECT | NODE_RCOSTFIXING) proves that max-min in 1.2 s, but
// turns the reference MIP dcmulti from 1.4 s into more than 120 s, so it is not the
// default. Use HiGHS for `solve --method mip`.
//
// Limits and cancellation: lp_solve's own timeout (set_timeout) counts whole seconds, so
// the binding also installs an abort function (put_abortfunc) that lp_solve polls during
// the simplex and branch and bound. It stops the solve when the context is done, when
// Options.TimeLimit has elapsed, or when Options.IterationLimit simplex iterations
// (get_total_iter) have been made — lp_solve has no iteration limit of its own. The abort
// function is a cgo-exported Go function reached through a runtime/cgo.Handle; it
// recovers from any panic and never lets one unwind into C.
//
// Concurrency: lp_solve 5.5.2 is not reentrant. Its LU factorization (LUSOL's LU1MXR, built
// with FastMXR) keeps its loop variables in static storage, so two factorizations running
// at the same time on different threads corrupt each other. The binding therefore runs at
// most one lp_solve model at a time in the process, from make_lp to delete_lp; a Solve
// waiting for its turn still honours its context.
package lpsolve
