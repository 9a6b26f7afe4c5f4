// Package rush is the RUSH scheduler of rush.txt §IV run online in the simulator: a
// distribution-estimator (DE) unit per job, worst-case demand estimation (WCDE, §III-A,
// Alg. 1–2) with θ and δ, time-aware scheduling (TAS, §III-B) on the worst-case demands,
// the continuous time-slot mapping (Alg. 4) and, of that mapping, only the next slot:
// each job's target is the number of containers its tasks occupy in slot 1, and the
// shared container-assignment unit (policies.ContainerAssignment, work-conserving: "the
// CA unit selects a job that has the largest difference between the new and old
// assignments") gives each free container to the largest target − held gap. The plan is
// recomputed at every decision instant (the paper's feedback cycle).
//
// # The distribution estimator (per job and pool)
//
// The remaining work v of a job on a pool, in container-slots of Config.Slot seconds, is
// the work of its unstarted tasks plus that of its running ones. For each stage still to
// run, the per-task runtime (μ, σ) is
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
// changes when a task of the job starts or finishes, so η is cached per job and pool on
// (stage, pending tasks, finished tasks, slot length), a few slot lengths deep (an
// instant whose horizon exceeds Config.MaxSlots tries the default slot, then a longer
// one) — the reuse that keeps the decision time flat in the number of jobs whose state
// did not change.
//
// # TAS and the mapping, per pool
//
// RS is single-resource (RUSH apportions one kind of container), so each pool is planned
// on its own: TAS over the jobs with work on it, capacity the pool's capacity now in
// every slot, the horizon the fewest slots that hold Σ η (as policies/cora; longer slots
// past Config.MaxSlots), utilities U_j(now + t·s − arrival) (cora.PlanUtility: `rush`
// plans on ln U for sigmoids, as policies/cora explains; `rush-alg3` on U, whose values
// Alg. 3's Δ-bisection works in), and R_j (task
// slots) the job's current mean task runtime in slots, rounded, at least 1. TAS is
// solved through the solve package (formulation tas): method "onion" (exact) for `rush`,
// method "alg3" (RUSH's Alg. 3 exactly as printed) for `rush-alg3`. Alg. 4
// (tas.MapToQueues, exact-volume rounding) maps the schedule to containers.
//
// # Alg. 3's infeasible answers
//
// Alg. 3 can return target completion times that no schedule meets (README Findings).
// `rush-alg3` then uses them anyway, because they are what RUSH as printed would act on:
// the next slot is filled earliest-target-first (each job in order of its Alg. 3
// deadline, ties by index, takes what is left of the slot up to its η) — exactly EDF's
// first slot — and the mapping is skipped. Such instants are counted
// (Counts()["alg3_infeasible"]); they are not fallbacks. Any other failure keeps the
// previous targets and counts a fallback (Fallbacks), as in policies/cora; so does
// Config.Interval.
package rush
