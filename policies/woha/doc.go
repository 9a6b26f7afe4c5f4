// Package woha owns the algorithms of WOHA, deadline-aware scheduling of Map-Reduce
// workflows (woha.txt): the workflow model and its validation, intra-workflow job
// priorities, scheduling-plan generation, progress-based scheduling with the double skip
// list, the ported Hadoop baselines, and a seeded workload generator. It is
// self-contained: its input types are its own, and a simulator policy is a thin adapter
// over the Picker interface (events: Submit, JobReady, TaskStarted, TaskFinished; and
// Pick, "a slot of pool map|reduce is free at time t: which job?").
//
// # Model (§II)
//
// A Workflow is W_i = {J_i, P_i, S_i, D_i}: jobs with m map and r reduce tasks, an
// estimated time per map task M and per reduce task R (§IV-A), prerequisite jobs named in
// After, a submission time and a relative deadline. A job is ready when all its
// prerequisites have finished; its reduces wait until all its maps have finished.
// Validate reports every problem with a path such as
// workflows[2].jobs[1].after[0]: unknown job "x" (unknown or repeated prerequisites,
// self-edges, cycles, negative counts or times, duplicate IDs, bad deadlines).
//
// # Job priorities (§V-C)
//
// Ranks orders a workflow's jobs; rank 0 runs first, ties go to the job listed first
// (the paper breaks ties "by their job IDs in the workflow"). Our reading of each rule:
//
//   - HLF: a job without dependents is on level 0, any other one level above its highest
//     dependent ("at least one of its dependents is on level i−1", all on lower levels);
//     higher level first.
//   - LPF: the longest chain of dependents starting at the job, the job included, each
//     job weighing MapTime + ReduceTime ("the sum of estimated map task execution time
//     and estimated reduce task execution time", per task, not times the task counts);
//     longer first.
//   - MPF: "the job with maximum dependents": the number of direct dependents |D_i^j|
//     (the paper's D_i^j is the direct dependent set); more first.
//
// # Plans (§IV-A, Algorithm 1)
//
// GenerateReqs simulates one workflow alone on n slots of a single pool, maps and
// reduces alike (Fig. 2's cap 6 is 3 map + 3 reduce slots), always serving the most
// urgent active job, and returns the progress requirement list F: steps (ttd, req),
// req tasks started ttd before the end of the simulated run. The scheduler aligns that
// end with the deadline (Alg. 2 line 11: a step fires at D − ttd). Where the printed
// pseudo code cannot be meant literally we follow the prose, and say so:
//
//   - Slots handed to a wave of tasks come back at the wave's end (a FREE event; the
//     printed loop never returns slots).
//   - Free slots go to the next active job until none is left or A is empty (the printed
//     loop serves one job per event and would idle slots).
//   - All events of one instant are applied before slots are handed out, so a job
//     released at t competes at t.
//   - A job's dependents are released when its last reduce wave ends (lines 29-31 delete
//     the job from P when its last reduces start, which lets a dependent start while a
//     slower prerequisite still runs; the prose says "cannot start before J_i^k
//     finishes"). "J.r < 0" on line 28 is read as r ≤ 0, and |D_i^k| = 0 on line 30 as
//     |P_i^k| = 0, as the text after the algorithm has it.
//   - A job with no maps starts in its reduce phase; a job with no tasks finishes when it
//     becomes ready. Steps at the same instant are merged.
//
// SearchCap is "An improvement" of §IV-A: binary search over caps 1..n for the smallest
// whose plan meets the relative deadline, n when none does. The workspan of list
// scheduling is not monotone in the cap (Graham's anomalies), so what the search
// guarantees, and TestSearchCapBoundary checks, is that its cap meets the deadline and
// one fewer slot does not. Plan.MarshalBinary is the plan as sent to the master; Size
// is its length in bytes (§VI-B, Fig. 13 b).
//
// # Progress-based scheduling (§IV-B, Algorithm 2)
//
// Scheduler gives each free slot to the workflow with the largest lag F(ttd) − ρ (ρ:
// tasks started) among those with a task waiting for that slot's pool, then to that
// workflow's lowest-ranked ready job. Ties in lag go to the earlier-submitted workflow;
// round-robin emerges from ties because every start lowers the winner's lag by one
// ("each of them gets a fair share", Fig. 2 a). The paper keeps one priority list; with
// Hadoop-1's two pools we keep one per pool, each holding the workflows with a task
// waiting for it, so Pick never walks past workflows that cannot use the slot and stays
// O(log n). Four interchangeable orders (SchedulerConfig.Order) pick identically
// (TestOrdersPickIdentically):
//
//   - OrderDSL, Algorithm 2: a ct list ordered by next requirement change and the
//     priority lists, linked through the workflow. Pick pops from the ct list's head every
//     workflow whose requirement changed by t, re-keys it in the priority lists and
//     reinserts it in the ct list (lines 4-19); TaskStarted deletes the picked workflow,
//     lowers its lag by one and reinserts it (lines 20-23). Each list is a deterministic
//     1-2-3 skip list [21] (every gap of 1-3 nodes, a 2-3-4 tree in skip-list form) with
//     a backward link at every level, kept bottom-up instead of by [21]'s top-down
//     passes: the first node always has height 1, so head deletion is O(1) amortized, as
//     is any deletion past handing a tall node's tower to its successor (O(height));
//     insertion is an O(log n) search plus O(1) amortized splits.
//   - OrderRandomDSL: Algorithm 2 on randomized skip lists (Pugh [20], levels from a
//     seeded generator, backward links): O(1) expected deletion anywhere, O(log n)
//     expected insertion.
//   - OrderHeap: the same two orders in indexed binary heaps, O(log n) throughout.
//   - OrderNaive: every Pick recomputes every workflow's lag and scans for the largest,
//     O(n) per call — the paper's naive solution re-sorts, O(n log n), so ours is the
//     stronger baseline.
//
// # Baselines (§V-B)
//
// Baseline ports Hadoop job schedulers under Oozie-style submission (a job reaches the
// scheduler when its prerequisites finish): FIFO in submission order, Fair to the job
// with the fewest running tasks in the pool, EDF by the workflow's absolute deadline.
//
// # In the simulator
//
// Policy drives a Picker from the simulator's events (policies.Policy, Observer,
// Rounder): "woha-hlf", "woha-lpf", "woha-mpf", "oozie-fifo", "oozie-fair" and
// "oozie-edf" in policies/all. It plans from the jobs' declared estimates; Err reports a
// workload it cannot plan.
//
// # Exact reference
//
// BuildExactMIP and SolveExact: the largest set of workflows that can all meet their
// deadlines (a late workflow can run after every deadline, so this is the most
// workflows on time), a time-indexed MIP in integer units solved through package
// solvers; CheckExact verifies its schedule from the problem's definition.
// TestExactGapMIP (build tag highs) scores WOHA and the baselines against it.
//
// # Workloads (§V-A)
//
// The workloads live in workload/hadoop1, which owns the Workflow type the planner
// reads: GenerateWOHA draws seeded random layered DAGs with the Yahoo! task statistics
// of §V-A (Figs. 5-6); Fig2 reconstructs the Fig. 2 example from its text;
// ThreeWorkflows builds the three-workflow experiment of §VI-A on a reconstructed
// 33-job topology.
package woha
