// Package cora is the CORA scheduler of cora.txt §III-A run online in the simulator:
// at every decision instant (an arrival, a task finish, a job finish — the paper's three
// triggers) it builds the slotted problem of the active jobs' remaining work, solves it
// through the solve package, and sets each job's target containers to its allocation in
// the first slot; the shared container-assignment unit (policies.ContainerAssignment)
// turns targets into slot grants.
//
// # The slotted problem (Build)
//
// Slots are Config.Slot seconds long, starting now. Job j's demand on pool p is
// η_jp = ⌈W_jp / s⌉ container-slots, W_jp its estimated remaining work on p in
// slot-seconds: each pending task at its stage's mean runtime (policies.MeanTaskRuntime:
// the mean of the stage's finished tasks, else the declared mean), each running task at
// that mean less the time it has run (at least 0) — cora.txt's "exact number of Map and
// Reduce tasks remaining", scaled to time as its technical report does. A job whose
// estimate rounds to nothing keeps one unit on its current stage's pool (it has not
// finished, and a completion slot needs an allocation). The capacity of pool p is its
// capacity now, in every slot. The horizon is the paper's: the fewest slots that hold
// the remaining demand, T = max_p ⌈Σ_j η_jp / C_p⌉ ("if a cluster has C = 40
// containers and the total resource requirement … is 160 tasks, then we choose
// |T| = 4"). When T would exceed Config.MaxSlots the slot is lengthened by the
// smallest integer factor that brings it within (keeping the decision time bounded at
// 1,000 active jobs); Problem.Slot says what was used. Completing in slot t earns
// U_j(now + t·s − arrival): the sigmoid, linear and step utilities are rewritten
// exactly as the same family in slot units (Shift), so the instance validates in
// O(jobs) and onion peeling evaluates them lazily.
//
// # Variants
//
//   - cora: exact CORA, the completion-time lexmax, by onion peeling (solve's "cora").
//   - cora-final: the FINAL LP as cora.txt §II-C prints it (solve's "cora-final") on a
//     chosen LP backend — what the paper ran (with Mosek). Its schedule is the LP's
//     rounded x; a fractional x, a numerics refusal or a solver failure is a fallback.
//
// # Planning on ln U
//
// cora and the oracle plan on ln U_j for sigmoid utilities (PlanUtility, LogSigmoid);
// cora-final keeps U, its LP's objective weights. ln is strictly increasing, so the
// lexmax of the sorted vector is the same on the reals; in float64, U rounds to 0 once
// μ(t−d) > 709.78, and on a 1,000-job decision instant 747 late jobs tied at that 0,
// stalled the sweep and sent the instant to the layered engine (0.5 s, and the keep
// rule's unproven answer); on ln U the same instant is one sweep, proven exact
// (policies/all.TestDecisionStaysOnTheSweep; TestLogPlanIsTheLexmax checks the two
// plans agree wherever U does not underflow).
//
// # Failures and reuse
//
// A plan that cannot be built (a pool with demand and no capacity) or solved keeps the
// previous targets (they persist in the container-assignment unit) and counts one
// fallback (Fallbacks); a run never stops on a solver error. No wall-clock limit is set
// on the solves, so the fallback count, like everything else outside the engine's timing,
// is a function of the workload and the seed. Config.Interval (default 0: every
// instant, as the paper) lets task finishes re-plan at most once per interval; the
// instants it skips keep their targets and are counted ("skipped"). Between re-solves
// the policy reuses one solve.Registry; onion peeling's backward sweep costs
// O(n log n + T) per instant once no spurious ties stall it, which is what keeps the
// decision time small without a warm start.
package cora
