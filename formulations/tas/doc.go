// Package tas solves RUSH's time-aware scheduling problem (rush.txt §III-B, problem TAS):
// integral allocations x_irt ≥ 0 of resources to jobs per slot, within capacity
// (Σ_i x_irt ≤ C_rt) and meeting demand (Σ_t x_irt ≥ η_ir), whose vector of utilities
// U_i(T_i) of the completion slots T_i (the last slot holding anything, constraint (1)) is
// lexicographically max-min: the lowest utility as high as possible, then the second
// lowest, and so on. It owns:
//
//   - EDF and FlowSchedule: a schedule meeting given completion slots, or why none does.
//   - OnionPeel: the exact lexmax (Alg. 3, made exact), the fast path.
//   - BuildMIP: the time-indexed MIP, the exact reference for cross-checks (lexmax solves it).
//   - MapToQueues: whole tasks on containers (§III-C, Alg. 4 and Theorem 3).
//
// The model is RUSH's, generalized as DESIGN.md asks: several resources, capacities that
// vary by slot, release times and per-slot parallelism caps. Resources are independent:
// a job's units of one resource are not tied to its units of another, only its completion
// slot couples them; so deadlines are feasible iff they are feasible for each resource.
//
// # Feasibility of deadlines (Theorem 2, eq. 12)
//
// Jobs with deadlines d_k can all finish iff, for every resource r and slot t,
// Σ_{k: d_k ≤ t} η_kr ≤ Σ_{s ≤ t} C_rs — eq. (12) with the constant C·t replaced by the
// prefix of the capacities. EDF then builds the schedule. With release times or caps the
// prefix condition is only necessary; EDF with release times stays exact on each resource,
// and with caps feasibility is a max-flow (FlowSchedule).
//
// # Onion peeling, exactly
//
// Alg. 3 bisects the level L on a real interval to a tolerance Δ, then peels "the"
// bottleneck job. Three things change here:
//
//   - The levels of the optimum are utility values U_i(t), so the search runs over those
//     values and is exact: at level L job i must finish by d_i(L) = max{t : U_i(t) ≥ L},
//     and L is feasible iff those deadlines are (eq. 12 with peeled jobs at their fixed
//     deadlines — Alg. 3's G_t).
//   - After the best level L*, every saturated job is peeled: one at L* that cannot reach
//     its own next value, max{t : U_i(t) > L*}, while every other job keeps L*. With the
//     prefix test this is a range minimum over the prefix slack (O(1) after an O(T log T)
//     table); with release times or caps it is one feasibility test per job at the level.
//   - A layer can stall: with tied values every job at L* may be able to rise alone but not
//     all together, so no job is saturated and Alg. 3's "locate the bottleneck job" has no
//     answer. Some of them stays at L* in every optimum, and which one matters for the
//     rest of the vector, so each choice is explored, memoized on the set of fixed jobs,
//     within Options.MaxBranches. Past the budget the jobs at L* are offered their next
//     value one at a time, smallest demand first; those that no longer fit stay at L*, and
//     Result.Exact is false.
//     Lawler's backward rule (put last the job that loses least) would not do: capacity 4
//     per slot, demands 8, 4, 2, utilities (9,8,6,6), (4,4,3,1), (8,6,3,0) — it gives
//     (4,6,6), the optimum is (4,6,8).
//
// That is the layered engine; each layer costs a bisection of O(log(nT)) feasibility
// tests of O(n log T + T), and there can be n layers. Without release times and caps
// OnionPeel first runs the backward sweep (sweep.go), which computes the same peeling in
// one pass over the slot boundaries from T−1 down to 1 — at each boundary the arriving
// jobs cross in increasing order of U(t+1) while they fit, the others stop — and proves
// its result with a blocking certificate; it hands the instance to the layered engine when
// tied values or flat stretches of the utilities need the layered engine's care (Stats
// says why). On 10⁵ sigmoid jobs over 10³ slots it evaluates each utility about 40 times
// in all and takes about half a second; n layered bisections would need some n²·log T
// evaluations.
//
// All jobs get their full demand, whatever their utility: a job whose utility is 0, or
// constant, keeps the lowest level and finishes by the horizon. The final allocation
// comes from EDF (or max-flow with caps) on the peeled deadlines and is integral.
//
// # Continuous time-slot mapping (§III-C, Alg. 4, Theorem 3)
//
// MapToQueues places each job's work, as tasks that hold one container for R_i
// consecutive slots, on C queues. Alg. 4 as printed mixes units (A counts tasks while
// η_i and O_k count container-slots); here tasks, demands and occupations are kept apart,
// with the rounding of η_i into tasks chosen by MappingOptions.Rounding. Theorem 3's bound
// T_i + R_i holds for constant capacity and tasks that carry exactly η_i; the tests show
// it failing with tasks rounded up and with capacity that varies over time.
package tas
