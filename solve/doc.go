// Package solve is coraopt's one pipeline from an instance to a verified-ready answer:
// "solve this instance with this formulation and method" (docs/design.md "Data flow").
//
// A Registry maps formulation names (tas, rs, cora, cora-final, cora-linearized, rds)
// to their methods, the problem classes each method needs a backend for (LP, MIP, QP),
// help text, and the code that runs them. Solve takes a Request — formulation, method,
// backend names, lexmax method, time limit, the formulation's options, and the input
// (a sched.Instance, or an RDS state file) — picks the backends with solvers.Select
// and returns a Result: the sched.Schedule, status, whether it is proven exact, the
// method and backend used, the solver points where an LP/MIP/QP was solved
// (model.Problem and solvers.Solution, which package verify certifies), and the
// formulation's details (onion layers, CORA's objective, k and warnings, RS's
// worst-case demands and mapping, RDS's step).
//
// Formulations and their papers: tas (rush.txt §III-B: onion peeling, Alg. 3 made
// exact; the time-indexed MIP by lexmax), rs (rush.txt §III: WCDE, Alg. 1–2, then tas,
// then Alg. 4's mapping), cora (cora.txt §II, exact via onion peeling), cora-final and
// cora-linearized (cora.txt §II-C and §II-B3 as printed, LPs), rds (rds.txt eq. 3, one
// receding-horizon control step, a QP).
//
// The command line, package verify and the benchmark harness all call Solve; adding a
// formulation means adding a registry entry (Registry.Add) and its package, nothing in
// the command line. There is no global registry: Default builds a fresh one.
package solve
