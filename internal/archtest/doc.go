// Package archtest pins coraopt's import rules (docs/design.md, "Import rules") with a
// test that reads the module's package graph from `go list` and its sources with
// go/parser. It has no code of its own.
//
// The rules:
//
//  1. No policies/* package links a concrete solver backend (solvers/simplex, qp, mip,
//     highs, lpsolve, gonumlp) or solvers/all, directly or through another package:
//     a policy reaches a backend through package solve and solvers.Select, and the
//     backends are linked in by programs (cmd/coraopt, through internal/cli) and tests.
//  2. No workload/* package depends on a policies/* package: generators write
//     workload files; schedulers read them.
//  3. Only package solve runs a formulation: outside solve (and the formulations and
//     lexmax themselves), no package calls an exported function of formulations/* or
//     lexmax that builds a solver model or hands one to a backend (one whose signature
//     mentions model.Model, model.Problem or solvers.Solver). The one exception is
//     package verify's use of tas.BuildMIP for its independent checks of onion
//     peeling's answer (the schedule as a point of the MIP, the max-min level and
//     infeasibility on every MIP backend); verify reaches every registry method
//     through solve. Pure-Go algorithms that need no backend (onion peeling, Alg. 3,
//     WCDE, Alg. 4's mapping) are not formulation dispatch and are not restricted.
package archtest
