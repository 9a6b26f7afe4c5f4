// Package sim is coraopt's deterministic discrete-event cluster simulator (docs/design.md,
// "Data flow"): it replays a workload (package workload) under a scheduling policy
// (package policies), measures the run (Metrics) and scores it against a proven
// offline bound (Bound).
//
// # Time, events, determinism
//
// Time is continuous (float64 seconds). One binary heap holds the events, ordered by
// (time, kind, sequence number) with kinds in the order capacity step, task finish,
// job finish, arrival, tick — never by map iteration order. All events at one time are
// applied, then the policy decides once for that instant (a decision round; see the
// policies package for how slots are offered). Arrivals are queued in (arrival, id)
// order, so equal-time arrivals keep that order. Tasks are never preempted.
//
// True runtimes come from workload.TaskRuntime: one PCG stream per (seed, job id,
// stage, task), so every policy sees the same runtimes and adding a job changes
// nobody else's. A run's result depends only on the workload, the policy and the
// seed; wall-clock decision times are measured only with Options.Timing and reported
// only under `timing` keys.
//
// # Cluster
//
// Slots belong to workers (a pools-only workload is one speed-1 worker holding all
// slots). A task of base runtime r on a worker of speed v holds its slot for r/v
// seconds. The capacity trace caps how many tasks of a pool may run at once: when the
// capacity drops below the running count, the running tasks finish and no new task of
// the pool starts until the count is below the capacity again.
//
// # Jobs
//
// A job's stages run in order: a stage's tasks may start once every task of the
// previous stage has finished (Hadoop's reduce after map), or with a slow start f < 1
// once ⌈f·n⌉ of its n tasks have; a task started early holds its slot until the
// previous stage ends even when its own work is done (a reducer cannot finish before
// the last map output), so its slot time exceeds its runtime by that wait.
// A job waits for the jobs in its `after` list to complete. A policy implementing
// policies.Admitter may reject a job at arrival; it then never runs, nor do the jobs
// waiting for it, and it earns workload.UtilityNever. A job's completion is its last
// task's finish; its utility is its utility function at the response time in time
// units.
//
// # The offline bound
//
// Bound computes, for a workload and seed, a sorted utility vector that no policy's
// sorted utilities exceed lexicographically. The relaxation: cut time into slots of s
// seconds, slot t = [(t−1)s, ts). Give job i the demand η_ip = ⌊W_ip / s⌋ slot-units
// per pool p, where W_ip is its true work on p in slot-seconds at the fastest speed of
// p's workers; let it use slots from its arrival's slot on; give pool p in slot t the
// capacity C_pt = the largest capacity of p during [(t−1)s − R_p, ts), R_p the longest
// a task can hold a slot of p (its runtime at the slowest speed; unbounded when a stage
// on p has slow start, since its tasks may wait); credit job i completing in slot t
// with its utility at the *start* of the slot, (t−1)s − arrival (at least 0); drop the
// stage order, `after` edges and the unit-task structure. Claim: any run maps to a
// feasible integral point of this relaxation in which every job's utility is at least
// its simulated one. Proof: let b_ipt be the slot-seconds job i's tasks occupy in pool
// p during slot t. (1) Σ_t b_ipt ≥ W_ip (a task on a slower worker, or one waiting
// under slow start, occupies longer), so x_ipt = b_ipt / s meets η_ip. (2) At any
// instant τ the running tasks of p were all running at the latest start σ among them,
// when fewer than cap(σ) ran; so at most cap(σ) run at τ, with σ ∈ [τ − R_p, τ]: hence
// Σ_i b_ipt ≤ C_pt·s. (3) Job i occupies nothing before its arrival, nor after its
// completion c, which lies in slot ⌈c/s⌉ (its last busy instant does), and the start of
// that slot is ≤ c, so the credited utility is ≥ U_i(c − a_i) because utilities never
// increase. x is a feasible fractional flow of the bipartite network job → (slot, pool)
// with integral capacities, so an integral x with the same supports exists (flow
// integrality) and the job's completion slot does not move later. A rejected job earns
// UtilityNever, which is ≤ what the relaxation credits it at any slot, and the horizon
// is long enough for its work to fit after every other job. Hence the relaxation's
// lexmax — computed exactly by formulations/tas.OnionPeel with release times — is
// lexicographically at least every run's sorted utility vector. It tightens as s
// shrinks (finer slots, earlier credited times, smaller rounding); how close an
// achievable schedule comes is what a clairvoyant policy shows.
//
// Jobs whose demand rounds to 0 in every pool cannot go into the TAS instance (a job
// must demand something); they get U_i at response 0, the most any schedule can give
// them, and are merged into the sorted vector — merging a fixed multiset into two
// sorted vectors preserves their lexicographic order.
package sim
