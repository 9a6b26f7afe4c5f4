// Package rush is the RUSH scheduler of rush.txt §IV run online in the simulator: a
// distribution-estimator (DE) unit per job, worst-case demand estimation (WCDE, §III-A,
// Alg. 1–2) with θ and δ, and time-aware scheduling (TAS, §III-B) on the worst-case
// demands, re-planned at every decision instant (the paper's feedback cycle) on the
// planning model of policies/plan.
//
// # Variants
//
//   - rush: WCDE per remaining stage, TAS by exact onion peeling on the staged model,
//     carried out by promises (plan.DispatchPlan).
//   - rush-alg3: the same with TAS by Alg. 3 exactly as printed (solve's method
//     "alg3"), which has neither release times nor caps: its parts all start in slot 1
//     and stage order lives in their tails.
//   - rush-paper: RUSH as the paper runs it — WCDE per pool (plan.Pooled), TAS per
//     pool, the continuous time-slot mapping (Alg. 4) and, of it, only the next slot:
//     each job's target is the number of containers its tasks occupy in slot 1, and
//     the shared container-assignment unit (policies.ContainerAssignment,
//     work-conserving: "the CA unit selects a job that has the largest difference
//     between the new and old assignments") gives each free container to the largest
//     target − held gap (plan.DispatchTargets). It is byte for byte the `rush` of the
//     releases before issue 28.
//
// # The distribution estimator (per job and stage, or pool)
//
// The remaining work v of a job's stage (rush-paper: of a pool), in container-slots of
// Config.Slot seconds, is the work of its unstarted tasks plus that of its running
// ones. For each stage still to run, the per-task runtime (μ, σ) is
//
//   - learned: the sample mean and unbiased standard deviation of the stage's finished
//     tasks (View.Finished), once there are at least Config.MinSamples of them;
//   - the prior before that: the stage's declared runtime distribution when the workload
//     gives one (its mean, and its std — mean/3 for a family without one, the ratio of
//     rush.txt §V-A's 60 ± 20 s); else the mean and std of every task of the pool that
//     finished so far in the run (what an operator's history would give); else 60 ± 20 s.
//
// The pending tasks' work then follows the paper's two estimator classes (§IV):
// "gaussian" (Config.Estimator default) is N(Σ n_s μ_s, Σ n_s σ_s²) by the central limit
// theorem (rs.Gaussian); "impulse" (the mean-time estimator) puts all mass on Σ n_s μ_s
// (rs.Impulse). WCDE (rs.WorstCaseDemand: Alg. 2's bisection on Alg. 1's closed form)
// turns the reference into η, the worst-case θ-quantile within KL divergence δ
// (Config.Theta, Config.Delta; defaults 0.9 and 0.7, the values of rush.txt Fig. 3's
// discussion). A running task adds its stage's μ less the time it has run (at least 0),
// deterministically: it is one task already under way, not a draw. A job whose η rounds to
// nothing keeps one unit (it has not finished). The reference of the pending tasks only
// changes when a task of the job starts or finishes, so η is cached per job on
// (stage, pending tasks, finished tasks, slot length, model), a few slot lengths deep (an
// instant whose horizon exceeds Config.MaxSlots tries the default slot, then a longer
// one) — the reuse that keeps the decision time flat in the number of jobs whose state
// did not change.
//
// # TAS
//
// The parts of every active job (policies/plan: one per stage, or per pool for
// rush-paper) form one instance: a part's demand is on its own pool, so pools are
// planned independently (RS is single-resource; RUSH apportions one kind of container
// per pool), the horizon the longest over pools. Utilities are U_j at each slot's end
// (plan.PlanUtility: `rush` plans on ln U for sigmoids, as policies/cora explains;
// `rush-alg3` on U, whose values Alg. 3's Δ-bisection works in), and R_j (task slots)
// the stage's mean task runtime in slots, rounded, at least 1. TAS is solved through
// the solve package (formulation tas): method "onion" (exact) for `rush` and
// `rush-paper`, method "alg3" (RUSH's Alg. 3 exactly as printed) for `rush-alg3`.
// rush-paper maps each pool's schedule to containers with Alg. 4 (tas.MapToQueues,
// exact-volume rounding).
//
// # Alg. 3's infeasible answers
//
// Alg. 3 can return target completion times that no schedule meets (docs/findings.md).
// `rush-alg3` then uses them anyway, because they are what RUSH as printed would act
// on: they are its promises (with targets, the next slot is filled
// earliest-target-first — each part in order of its Alg. 3 deadline, ties by index,
// takes what is left of the slot up to its η, exactly EDF's first slot — and the
// mapping is skipped). Such instants are counted (Counts()["alg3_infeasible"]); they
// are not fallbacks. Any other failure keeps the previous plan and counts a fallback
// (Fallbacks), as in policies/cora; so does Config.Interval.
package rush
