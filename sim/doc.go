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
// p's workers; let it use slots from the slot of its start S_i on (its arrival, or
// later when it waits for `after` jobs: see Tightenings); give pool p in slot t the
// capacity C_pt = the largest capacity of p during [(t−1)s − R_p, ts), R_p the longest
// a task can hold a slot of p (its runtime at the slowest speed; unbounded when a stage
// on p has slow start, since its tasks may wait); credit job i completing in slot t
// with its utility at max((t−1)s, ρ_i) − a_i (at least 0), ρ_i the earliest it can
// complete (see Tightenings; ρ_i = a_i without them: the slot's start); drop the
// stage order, `after` edges and the unit-task structure. Claim: any run maps to a
// feasible integral point of this relaxation in which every job's utility is at least
// its simulated one. Proof: let b_ipt be the slot-seconds job i's tasks occupy in pool
// p during slot t. (1) Σ_t b_ipt ≥ W_ip (a task on a slower worker, or one waiting
// under slow start, occupies longer), so x_ipt = b_ipt / s meets η_ip. (2) At any
// instant τ the running tasks of p were all running at the latest start σ among them,
// when fewer than cap(σ) ran; so at most cap(σ) run at τ, with σ ∈ [τ − R_p, τ]: hence
// Σ_i b_ipt ≤ C_pt·s. (3) Job i occupies nothing before its start S_i, so nothing in a
// slot ending at or before S_i, nor anything after its completion c, which lies in slot
// ⌈c/s⌉ (its last busy instant does); c ≥ (t−1)s for that slot and c ≥ ρ_i, so the
// credited utility is ≥ U_i(c − a_i) because utilities never increase. x is a feasible
// fractional flow of the bipartite network job → (slot, pool) with integral capacities,
// so an integral x with the same supports exists (flow integrality) and the job's
// completion slot does not move later. A rejected job earns UtilityNever, which is ≤
// what the relaxation credits it at any slot, and the horizon is long enough for its
// work to fit after every other job (a release past the last run's end is moved back
// to it, which only loosens). Hence the relaxation's lexmax — computed exactly by
// formulations/tas.OnionPeel with release times — is lexicographically at least every
// run's sorted utility vector. It tightens as s shrinks (finer slots, earlier credited
// times, smaller rounding); how close an achievable schedule comes is what a
// clairvoyant policy shows.
//
// Jobs whose demand rounds to 0 in every pool cannot go into the TAS instance (a job
// must demand something); they get U_i at response ρ_i − a_i, the most any schedule can
// give them, and are merged into the sorted vector — merging a fixed multiset into two
// sorted vectors preserves their lexicographic order.
//
// # The bound on the sum
//
// The lexmax vector's sum is not an upper bound on a run's sum of utilities (a policy
// can trade the worst-off job for a larger total). BoundResult.SumBound is one: the
// relaxation above, with each job's utility spread over its slot-units of one pool —
// that of its last stage with demand, whose units come last — each unit in slot t
// credited U(credited response at t)/η (formulations/tas.SumBound, "A bound on the
// sum"). A run maps into the relaxation with every job's credited utility at its
// completion slot at least its simulated one, and a job's units credit at least that
// (they all lie in slots up to its completion slot); so no run's sum exceeds the
// transportation optimum, and sum_gap = SumBound − the run's sum is never negative. A
// job also holds at most as many slot-units of a pool in one slot as it has tasks that
// can run there at once (its running stage's, plus the next stage's under slow start),
// which the sum bound uses as a per-slot cap. The transportation problem is solved
// exactly up to tas.DefaultSumMaxWork (the 100-job families at 60 s slots; about 500
// jobs under heavy load); beyond it SumBoundMethod is "alone": every job at its best
// credited utility from its release on.
//
// SumBound is the certificate's float64 value raised by 10⁻⁹·(|value| + 1), so it stays
// above the exact bound and so above every run's sum. A run that reaches the optimum
// would show that margin as its gap; CompareToBound reports a gap in [0,
// SumGapTolerance] as 0 instead. Only the gap is rounded, downwards by less than the
// tolerance: SumBound itself is unchanged, and a negative gap is never rounded away.
//
// # Tightenings (issue 29)
//
// All are on by default; BoundOptions turns each off, to measure what it buys.
//
//   - Earliest completion. A job's stages run in order, so it cannot complete before
//     ρ_i, the end of its critical path at the fastest speed: stage k takes at least
//     D_k = max(its longest task / v_p, its work / V_p) (v_p the fastest speed on its
//     pool, V_p the sum of the speeds of the pool's slots) and starts after the previous
//     stage ends, or under slow start after ⌈f·n⌉ of the previous stage's tasks could
//     have finished (criticalPaths gives the recurrence and its proof). Credit at
//     max((t−1)s, ρ_i) instead of (t−1)s keeps step (3).
//   - Release after `after` jobs. A job's tasks start only once every job in its
//     `after` list has completed, each no earlier than its own ρ; so S_i is the latest
//     of those and its arrival, and step (3) holds from S_i.
//   - Release per pool. A stage's tasks start no earlier than its S_k, so job i
//     occupies nothing of pool p before σ_ip, the least S_k of its stages on p (a
//     reduce pool after its maps could have finished): its units of p go in slots from
//     ⌊σ_ip/s⌋ + 1 on (tas.Options.ResourceRelease; Horn's windows per resource start
//     at each resource's own releases), and step (3) holds per pool.
//   - Stage caps (sum bound only). At any instant a job runs at most its running
//     stage's tasks on a pool, plus the next stage's under slow start; each occupies at
//     most s of a slot, so x_ipt ≤ that count. The lexmax relaxation leaves them out:
//     per-slot caps send onion peeling to its events engine, whose cost grows as n².
//
// Every time computed here is lowered by 1e-9 relative (and at least 1e-9 s): the
// simulator adds and divides the same runtimes in another order, and its float times
// must never land below a bound computed from them.
//
// On the generated 100-job families at 60 s slots the earliest completion moves the
// bound most (cora: lexmax min 0.660 → 0.103, sum of the vector 225.4 → 201.3, sum
// bound 232.3 → 203.9; rush: sum of the vector 216.7 → 185.8, sum bound 218.7 → 185.8);
// the README lists every family with the command.
//
// # At trace scale
//
// The relaxation is built in compact form: demands, releases and per-slot capacities,
// and each job's utility as a function of its completion slot evaluated when the
// solver asks for it (the same family at a shifted, scaled argument), never tabulated,
// so its memory is O(jobs + slots) and its only limit is sched.MaxHorizon slots. Where
// a sigmoid underflows to 0 in float64 the solver orders the tied jobs by ln U
// (formulations/tas, "Ties at 0 from underflow"): the bound is then the lexmax in the
// order of U in which float zeros are ordered by their real values, and every run's
// vector is below it in that order — the order of U wherever no utility underflows.
package sim
