// Package verify proves coraopt's answers right, or reports where they are not: it
// recomputes certificates from the answers alone and cross-checks independent methods,
// and never trusts a backend's reported status (docs/design.md "Data flow").
//
// A Report is a list of named Checks; each passed, failed, was skipped (with the
// reason; a skipped check never counts as a pass) or is informational, and carries its
// largest violation. Reports merge and render as a table or as JSON
// ({"ok": …, "counts": …, "checks": [{"name", "status", "ok", "max_violation",
// "detail", "reason"}]}).
//
// # Certificates
//
//   - Certificate: an LP, MIP or QP solution against its model.Problem — bounds, rows
//     (Ax recomputed), integrality, objective; with duals, reduced costs, dual
//     feasibility, complementary slackness and the duality gap; for a QP the KKT
//     residuals (package solvers/certificate does the arithmetic).
//   - Schedule: a sched.Schedule against its instance — capacity per resource and slot,
//     demand (≥ for TAS, = for CORA), release, max_parallel, and the completion slots,
//     utilities and sorted vector recomputed from the allocation.
//   - LexmaxCertificate: a TAS schedule proven lexicographically max-min optimal by
//     max-flow tests alone (every job saturated at its utility; rush.txt Alg. 3's
//     argument), with refutations when a better schedule exists.
//   - Optimality: a schedule's sorted vector against a certified optimum.
//   - Solved: one answer of package solve — its schedule, and with SolvedOptions.All the
//     certificate of every solver point and, for onion peeling, LexmaxCertificate; for
//     an RDS control step (rds.txt eq. 3) RDSStep's KKT checks and the certificates of
//     its QP and least-shortfall LP. This is what `coraopt solve --verify` lists.
//   - State: an RDS state file's control step on every QP backend, each certified by
//     Solved, and the backends' agreement on eq. 3's optimal objective (rds/backends).
//
// # Cross-checks (Instance)
//
// Instance runs every method that applies to an instance and names each check
// <formulation>/<check>. The methods run through package solve with backends from
// solvers.Backends, and the suites follow solve's registry (Options.Registry): tas,
// cora and rs have the cross-checks below; any other formulation of the registry gets a
// generic suite (every method solved, certified by Solved, and compared):
//
//   - tas (rush.txt §III-B): onion peeling's schedule and certificate, the schedule as a
//     point of the time-indexed MIP (onion-in-mip), the MIP solved by lexmax (ordered
//     outcomes) with its certificate and schedule, onion-vs-mip, lexmax-methods
//     (water-filling with each saturation test, exponential weights), backends (every
//     MIP backend's max-min level), and Alg. 4's mapping with Theorem 3's bound
//     (mapping-bound: a claim where the theorem's conditions hold, a measurement where
//     they do not). An infeasible instance is one check, infeasible, confirmed by an
//     independent max-flow with a Hall witness and by the MIP backends.
//   - cora (cora.txt §II): exact CORA's schedule, FINAL on every LP backend with its
//     certificate (backends), final-integrality, final-vs-exact (a disagreement fails,
//     with cora.LP.Compare's explanation) and Lemma 3 (linearized-vs-final).
//   - rs (rush.txt §III): WCDE's cross-checks per job (rs.CrossCheckDemands), then the
//     tas checks on the worst-case demands.
//
// The MIP checks need a MIP backend (HiGHS or lp_solve, build tags) and a MIP no larger
// than Options.MaxMIPSize; otherwise they are skipped, saying why. By default Instance
// verifies tas, and rs where the instance has runtimes; FINAL only when cora is asked
// for, because it disagrees with exact CORA on many instances (formulations/cora).
//
// # Tolerances
//
// Utility vectors are compared with UtilityTol (10⁻⁹ relative): every method's
// utilities are recomputed from its allocation by the instance's own functions, so equal
// completion slots give identical values. LP/MIP certificates use
// certificate.DefaultTolerances (relative: objective 10⁻⁶, feasibility 10⁻⁷, duals
// 10⁻⁷, integrality 10⁻⁶); objectives of different backends agree within the
// objective tolerance.
package verify
