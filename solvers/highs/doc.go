// Package highs is coraopt's binding to the HiGHS 1.10 optimization library through its C
// API (highs_c_api.h): LPs by dual simplex, MIPs by branch and cut, convex QPs by HiGHS's
// active-set QP solver. It registers itself with package solvers as "highs".
//
// The binding is compiled only with the build tag highs (`make build`, or
// `go build -tags highs` with PKG_CONFIG_PATH pointing at the HiGHS that
// scripts/install-deps.sh installs). Without the tag the package registers a "not compiled
// in" entry whose error says how to get it, so a pure-Go binary asked for --solver highs
// explains itself, and keeps its API: New, Version and the Solver's methods exist in
// every build, and there a Solve returns *solvers.ErrNotCompiled naming the tag (the
// go-sqlite3 pattern), so a library caller's code compiles with and without the tag.
//
// What the binding does, in the order of a Solve:
//
//   - passes the Problem unchanged (CSC matrix, lower-triangular Hessian — HiGHS's
//     kHighsHessianFormatTriangular — integrality, sense, offset) with ±Inf mapped to
//     HiGHS's infinity;
//   - routes HiGHS's log through its logging callback (never to stdout): to
//     Options.Verbose when set, and its warnings and errors into the error a failed solve
//     returns (a non-convex QP, say);
//   - sets options by name: threads 1 unless Options.Threads says otherwise, time_limit
//     (the smaller of Options.TimeLimit and the context deadline), simplex, IPM and QP
//     iteration limits, primal/dual feasibility tolerances, mip_rel_gap;
//   - installs a Highs_setBasis warm start when Options.WarmStart matches the columns;
//   - runs with HiGHS's user-interrupt callbacks (simplex, IPM, MIP) armed: a cancelled
//     context makes the next callback ask HiGHS to stop;
//   - maps every HiGHS model status to a solvers.Status and reads the primal and dual
//     solution, the basis, iteration and node counts and the MIP dual bound.
//
// Dual signs: HiGHS reports row duals and reduced costs as sensitivities of the optimal
// value in the problem's own sense, which is coraopt's convention (see package solvers),
// for minimization and maximization alike; nothing is converted. The conformance suite
// checks this by finite differences.
//
// QPs: HiGHS 1.10's QP solver always adds 1e-7 to the diagonal of Q. Its optima are
// therefore accurate to about 1e-7 (absolute), and where the objective decreases without
// limit along a direction in Q's null space it reports Optimal at a point about |c_j|/1e-7
// away. The binding recomputes QP reduced costs as c + Qx − Aᵀy at HiGHS's point and turns
// Optimal into Unbounded when a single column proves unboundedness (no entry in Q, cost
// improving in a direction left open by its bounds and by the rows it appears in). Rays
// that need several columns at once are not detected: verify checks every QP answer.
//
// Threads: HiGHS 1.10 keeps its task scheduler in thread-local storage of the OS thread
// that calls Highs_run, and refuses to run (status error) when the threads option differs
// from the size of the scheduler already on that thread. A Solve therefore locks its
// goroutine to one OS thread; with Options.Threads > 1 it resets that thread's scheduler
// (Highs_resetGlobalScheduler) before and after the run, so every idle thread keeps the
// invariant "no scheduler, or a one-thread scheduler" that single-threaded solves need.
// Concurrent Solves on different goroutines are safe: they run on different OS threads
// and share no HiGHS state.
//
// Cancellation: simplex, IPM and MIP poll the interrupt callback often. HiGHS's QP solver
// has no interrupt callback; a QP stops on its time limit (from the context deadline) but
// a cancelled context without a deadline is noticed only when the QP solve returns.
package highs
