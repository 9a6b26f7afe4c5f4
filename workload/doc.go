// Package workload owns the simulator's input — the workload file — and the seeded
// generators of the papers' workloads (docs/design.md, "Data flow" and "Package map"): the same
// seed always gives the same workload or instance, so a figure measured in one place is
// about the same jobs as in another.
//
// # The workload file
//
// A JSON document validated against workload.schema.json (Schema) and by Validate for
// what a schema cannot say; a bad file gets a *sched.ValidationError with one
// `path: message` per problem, as the instance file does. Fields (the README's Simulate
// section has the full reference):
//
//	name          free text
//	time_unit     seconds per utility time unit (default 1)
//	cluster       pools [{name, slots}] or workers [{count, slots: {pool: n}, speed}],
//	              and an optional capacity trace [[time, {pool: slots}], …]
//	jobs          [{id, arrival, priority, deadline, utility, stages, after, workflow,
//	              estimates}]
//	  stages      [{pool, tasks, runtime | task_runtimes, data}] run one after another
//	  estimates   {map_time, reduce_time, eta, cm_max, cr_max}: declared in advance (WOHA's
//	              plans, RTMR's admission test); true runtimes may differ
//	workflows     [{id, arrival, deadline}]: declared workflows (WOHA); a member job
//	              without a deadline gets its workflow's
//
// workload/hadoop1 converts the WOHA and RTMR generators' output into this file.
//
// A job's utility is any of the instance file's utility types (sched), read as a
// function of the response time (completion − arrival) in time units and evaluated at
// real values by UtilityOfResponse. Deadlines are relative to arrival, in seconds.
//
// # True runtimes
//
// TaskRuntime draws each task's true base runtime from a PCG stream seeded by (run seed,
// job id, stage, task) — common random numbers: every policy sees the same runtimes, and
// adding a job changes nobody else's. Explicit task_runtimes bypass the draw.
//
// # Generators
//
// CORAPaper follows the evaluation of cora.txt §III-C as a slotted instance: sigmoid
// utilities (eq. 11) with the paper's three completion-time classes. CORAWorkload,
// RUSHWorkload and RDSWorkload write workload files shaped like cora.txt §III-C, rush.txt
// §V-B and rds.txt §5.3; GenOptions vary the cora and rush families (class mix, as
// cora.txt Fig. 5 does; how the standalone runtime is found), and CTClass reads a job's
// class back from its decay. Choices the papers leave open, and ours:
//
//   - Benchmarked running time ("for each job template, we benchmark the total running
//     time", cora.txt; "the runtime of each job is benchmarked with all the resources
//     available in the cluster", rush.txt): StandaloneRuntime, the job alone on the
//     empty cluster under the simulator's rules, with the true runtimes of the
//     generator's seed. So `simulate --seed S` on a file of `gen --seed S` sees exactly
//     the benchmarked runtimes (a ratio-1 rush budget is met alone to the bit); under
//     another runtime seed a job's tasks take other times, as a rerun of a benchmark
//     would, and alone it may finish before or after that budget. StandaloneWaves
//     (waves × mean task time, which ignores stragglers) is how files were built before
//     issue 28.
//   - Class mix: "20% are CT-critical, 60% are CT-sensitive and 20% are CT-insensitive"
//     (cora.txt §III-D1; rush.txt §V-B the same) in exact counts (CORAMix.Counts,
//     largest remainder), placed in a seeded order by a stream of their own; before
//     issue 28 each job drew its class with those probabilities.
//   - Active jobs: "at the job's submission time, d_i is multiplied by the number of
//     active jobs in the cluster" (cora.txt §III-C). That number depends on the
//     scheduler running; counting it under each policy would give each policy other
//     deadlines. We fix one policy-free reading (activeAtSubmission): the jobs in the
//     system at the arrival, itself included, of a fluid FIFO queue serving the jobs'
//     true work (container-seconds under the seed) at the cluster's 40 containers.
//   - Time unit of eq. 11, U = p/(1+e^{μ(t−d)}): the paper gives none for t, d and μ
//     (d is "in terms of absolute time"; the conversion to FINAL's slots is left to its
//     technical report). We take minutes (time_unit 60 s): the utility falls from 98% to
//     2% of p within 7.8/μ minutes, 1.3–2 min for critical jobs (μ ∈ [4, 6]) and 8 min to
//     13 h for sensitive ones (μ ∈ [0.01, 1]), against jobs that run for minutes alone.
//     Read in seconds, even sensitive jobs would drop within 8 s–13 min — step-like, not
//     "decreases smoothly over a period of time"; the slot reading has no stated length.
package workload
