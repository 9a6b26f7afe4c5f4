// Package workload owns the simulator's input — the workload file — and the seeded
// generators of the papers' workloads (DESIGN.md, "Simulator" and "Layout"): the same
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
// §V-B and rds.txt §5.3; CORAWorkloadMix fixes the class counts (cora.txt Fig. 5's
// varying critical/sensitive mixes), and CTClass reads a job's class back from its decay.
package workload
