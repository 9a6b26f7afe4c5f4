// Package cora is the CORA scheduler of cora.txt §III-A run online in the simulator:
// at every decision instant (an arrival, a task finish, a job finish — the paper's
// three triggers) it builds the slotted problem of the active jobs' remaining work
// (policies/plan), solves it through the solve package, and carries the plan out.
//
// # Variants
//
//   - cora: exact CORA, the completion-time lexmax, by onion peeling (solve's "cora"),
//     on the staged model, carried out by promises (plan.DispatchPlan).
//   - cora-final: the FINAL LP as cora.txt §II-C prints it (solve's "cora-final") on a
//     chosen LP backend — what the paper ran (with Mosek) — on the same model; a
//     fractional x, a numerics refusal or a solver failure is a fallback. FINAL has no
//     levels, so its rounded x's completion slots are its promises.
//   - cora-paper: exact CORA planned and carried out as the paper does: each job's
//     remaining work one divisible pool per resource (plan.Pooled), the plan's first
//     slot as target containers for the container-assignment unit
//     (plan.DispatchTargets). It is byte for byte the `cora` of the releases before
//     issue 28, and the plans it makes are mostly not what happens (policies/plan's
//     doc says why and which test decides it).
//
// Config (plan.Config) sets the slot, the slot limit, the re-planning interval, the
// model and the dispatch of each.
//
// # What it estimates (plan.Estimated)
//
// A stage's remaining work is each pending task at the stage's mean runtime
// (policies.MeanTaskRuntime: the mean of the stage's finished tasks, else the declared
// mean) and each running task at that mean less the time it has run (at least 0) —
// cora.txt's "exact number of Map and Reduce tasks remaining", scaled to time as its
// technical report does. Completing in slot t earns U_j at the slot's end: sigmoid,
// linear and step utilities are rewritten exactly as the same family in slot units
// (plan.Shift), so the instance validates in O(jobs) and onion peeling evaluates them
// lazily.
//
// # Planning on ln U
//
// cora and the oracle plan on ln U_j for sigmoid utilities (plan.PlanUtility,
// plan.LogSigmoid); cora-final keeps U, its LP's objective weights. ln is strictly
// increasing, so the lexmax of the sorted vector is the same on the reals; in float64,
// U rounds to 0 once μ(t−d) > 709.78, and on a 1,000-job decision instant 747 late
// jobs tied at that 0, stalled the sweep and sent the instant to the layered engine
// (0.5 s, and the keep rule's unproven answer); on ln U the same instant is one sweep,
// proven exact (policies/all.TestDecisionStaysOnTheSweep; plan.TestLogPlanIsTheLexmax
// checks the two plans agree wherever U does not underflow).
//
// # Failures and reuse
//
// A plan that cannot be built (a pool with demand and no capacity) or solved keeps the
// previous plan (its promises or targets persist) and counts one fallback (Fallbacks);
// a run never stops on a solver error. No wall-clock limit is set on the solves, so
// the fallback count, like everything else outside the engine's timing, is a function
// of the workload and the seed. Config.Interval (default 0: every instant, as the
// paper) lets task finishes re-plan at most once per interval; the instants it skips
// keep the plan and are counted ("skipped"). Between re-solves the policy reuses one
// solve.Registry; onion peeling's backward sweep costs O(n log n + T) per instant once
// no spurious ties stall it, which is what keeps the decision time small without a
// warm start.
package cora
