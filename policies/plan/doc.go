// Package plan is the planning model the online planners share (cora, cora-final,
// oracle, rush, rush-alg3 and the papers' variants cora-paper, rush-paper): what the
// slotted problem of a decision instant is, how its answer becomes decisions the
// simulator carries out, and when it is redone. The planners differ in what they
// estimate (policies/cora: mean task runtimes; policies/rush: WCDE, rush.txt §III-A;
// policies/oracle: the truth) and in how they solve (exact CORA by onion peeling,
// cora.txt's FINAL LP, RUSH's TAS or its Alg. 3 as printed), not in this.
//
// # Why (issue 28)
//
// The papers' model treats a job's remaining work as one divisible pool of
// container-slots per resource (cora.txt §III-A: "the exact number of Map and Reduce
// tasks remaining"; rush.txt §IV, per pool), and hands a plan to the cluster as the
// containers each job holds in its first slot, re-planned at every event with the
// slots starting "now". With every job present at t = 0 and the true runtimes known
// (the oracle), that plan is not what happens: on the 100-job cora workload seed 1
// with no arrivals the first plan's lowest utility is 0.66 and the run's 0.0003
// (EDF's is 0.66). An experiment separates the causes
// (policies/all.TestPaperMechanismsBreakFidelity, 20 fixed 12-job workloads): the
// first-slot hand-over breaks 14 of 20 plans on the pooled model and 4 on the staged
// one; carried out by promises, 1 breaks on the pooled model and none on the staged
// one. So the hand-over is what broke most plans, and the staged model removes the
// rest: a pooled plan promises a job's reduce stage in the slot its maps end.
//
// # The model (Build, Config.Model = Staged)
//
// Slots are Config.Slot seconds long, aligned to multiples of the slot length (the
// first slot is what is left of the current one, with its capacity scaled down), so a
// re-plan sees the same slot ends as the plan before it: a job completing in slot t
// completes by Start + t·Slot, the same time at every re-plan. Every remaining stage
// of every active job is a part — a job of the instance solve takes — in order:
//
//   - its demand is the stage's remaining work in container-slots on its own pool
//     (pools are separate resources), as the planner estimates it (Estimator);
//   - its release is the slot in which it can start at the earliest: after the job's
//     earlier stages ran at full speed — each stage takes d = max(units/parallel·s,
//     longest task), parallel its runnable tasks (pending + running) capped by the
//     pool's capacity — and, for a job that waits for others (workflows), after they
//     could finish at full speed;
//   - its utility is its job's at its completion plus the tail: the time the job's
//     later stages need at full speed. So a job's last stage carries the job's utility
//     and its earlier stages the utility the job can still reach after them.
//
// The instance is solved as the planner solves (lexmax by onion peeling for cora,
// oracle, rush; FINAL; Alg. 3, which takes no releases, so rush-alg3's parts all start
// in slot 1 and stage order lives in the tails alone). The horizon holds the work at
// full capacity plus the longest chain; past Config.MaxSlots the slot is lengthened by
// the smallest integer factor that fits.
//
// What the model keeps: stage order (a later stage is planned no sooner than the
// earlier ones can end), the least time a stage takes (its longest task; its work over
// its runnable tasks), pools as separate resources, the waits of workflows.
// What it relaxes: work within a stage is divisible among slots and containers (a
// part may hold more containers in a slot than it has tasks, unless Config.Caps); a
// stage may be planned to overlap the end of the one before it (the release is the
// earliest that stage could end, not when the plan has it end); a job's stages are
// separate outcomes of the lexmax, so an earlier stage may be placed earlier than its
// job's level needs (the lowest level, the max-min, is the job-level one exactly: a
// job's utility is its last stage's, and every earlier stage's utility is at least
// that once the job meets it). Where a stage and the next tie in utility, the earlier
// ranks above by 1e-9 per later stage: such ties are systematic (a stage's completion
// plus its tail meets the next one's) and would stall onion peeling for nothing.
//
// Why the relaxation is safe: the plan is not carried out slot by slot but by its
// promises (below), each a completion time, and the simulator enforces what the model
// relaxes — a task only runs on a container of its pool, a stage only after the one
// before it. So the relaxation can only make a promise optimistic, never make the
// cluster do something it cannot; how optimistic is bounded by the tolerance below and
// tested. Config.Caps (max_parallel per part: the stage's runnable tasks) removes the
// first relaxation at a price: onion peeling then runs its events engine, several
// times slower per decision, and on the fidelity tests it bought nothing measurable
// (docs/findings.md, "Plan fidelity"), so it is off by default.
//
// Config.Model = Pooled is the papers' model, kept for cora-paper and rush-paper: per
// job one part per pool with all its remaining work from slot 1, no tails, and the
// horizon the fewest slots that hold the demand (cora.txt: "if a cluster has C = 40
// containers and the total resource requirement … is 160 tasks, then we choose
// |T| = 4"). Those two reproduce the previous cora and rush byte for byte.
//
// # Carrying a plan out (Promise, Dispatcher; Config.Dispatch)
//
// A plan commits each part to complete by the end of the latest slot at the level the
// lexmax gave it (LevelDeadline): the deadline the lexmax proved feasible for all parts
// at once, the promise. With DispatchPlan (the default) every free slot of a pool goes
// to the runnable job whose stage on that pool has the earliest promise — earliest
// deadline first on the plan's deadlines, work-conserving (no container idles while a
// planned job can run), ties to the earlier job by (arrival, id). EDF meets any
// feasible set of deadlines of divisible work, so the dispatcher realizes the plan up
// to what the model relaxed. A schedule without levels (FINAL's rounded x) promises
// its own completion slots.
//
// DispatchTargets is the papers' hand-over, kept for their variants: each job's
// allocation in slot 1 (cora) or the containers its tasks hold in slot 1 of the
// continuous time-slot mapping (rush, Alg. 4) becomes its target, and the shared
// container-assignment unit (policies.ContainerAssignment, rush.txt §IV) fills the
// largest target − held gaps; its slots start at the decision instant, as the papers'.
//
// # Fidelity
//
// The tested property (policies/all.TestPlanFidelity, rapid, every generated family —
// cora, rush, rds, woha, rtmr — with no arrivals after t = 0 and the oracle's true
// runtimes): the executed sorted utilities are at least the sorted utilities of the
// first plan's promises, each job's delayed by its tolerance
//
//	τ_j = s + Σ_stages (longest task of the stage / slowest speed of its pool) + τ of the jobs j waits for,
//
// one slot for the discretization, and per stage one task for Graham's bound (a stage
// of tasks that cannot be split ends at most one task after its divisible work). It is
// a test on random workloads, not a theorem: tasks are not preempted, so a promise
// can also slip by the wait for a container, which the tests have not seen exceed
// τ. Re-planning at every event keeps to it because the slots stay aligned: with
// slots reset to "now" at each event, re-plans of an unchanged problem drift (on the
// cora 100-job workload seed 2, one job ends 1,677 s after its first promise).
//
// # Re-planning
//
// Plans are redone at the papers' triggers — every arrival, task finish and job finish
// (cora.txt §III-A) — unless Config.Interval gates task finishes (ReplanGate).
// Utilities are planned on ln U where Config.Log is set (PlanUtility).
//
// # Cost per decision
//
// A decision instant is estimated, built, solved and turned into promises anew, but
// nothing is computed that the plan does not use or that an earlier instant already
// computed the same way: Build sizes the horizon before it builds any part (a slot too
// short for MaxSlots is retried longer); promises read only the lexmax levels, so the
// planners ask the solve for them alone (solve.Request.LevelsOnly, no n·R·T schedule);
// Means keeps each job's finished-task sums and UtilityCache its parts' ln U values
// across instants, both bit for bit what they replace. docs/performance.md has the
// measurements.
package plan
