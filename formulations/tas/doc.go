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
// The model is RUSH's, generalized as docs/design.md asks: several resources, capacities that
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
// With release times and no caps the exact condition is Horn's: for every resource and
// every window [a, b], Σ_{k: a ≤ r_k, d_k ≤ b} η_kr ≤ Σ_{s=a..b} C_rs (W. A. Horn, "Some
// simple scheduling algorithms", Naval Research Logistics Quarterly 21, 1974, 177–185,
// who reduces preemptive scheduling with release times and deadlines to a network flow;
// here it is Gale's supply–demand condition for the transportation problem jobs → slots,
// and because a job's slots form an interval, the sets of slots that matter are single
// windows).
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
// tests of O(n log T + T), and there can be n layers: with release times it took 14 s for
// 2,000 jobs (issue 23; the profile: 71% in the per-probe EDF simulation, 22% in setting
// the n deadlines of each probe). OnionPeel runs it only as the reference
// (Options.Layered) and where the faster engines hand over; Stats says which ran.
//
// # The backward sweep (no caps; with or without release times)
//
// The sweep (sweep.go) computes the same peeling in one pass over the slot boundaries
// from T−1 down to 1 — at each boundary the arriving jobs cross in increasing order of
// U(t+1) while they fit, the others stop — and proves its result with a blocking
// certificate; it hands the instance to the layered engine when tied values or flat
// stretches of the utilities need the layered engine's care (Stats says why). The
// boundaries are independent because the condition at boundary t involves only the jobs
// with deadline ≤ t: that is eq. (12) at t without release times, and Horn's windows
// [a, t] with them (a job moving from t+1 to t enters exactly the windows that end at t).
// So "fits" at boundary t is a prefix sum without release times (O(R)), and with them a
// prefix minimum over a of Σ_{s=a..t} C_s − Σ_{k crossing t, r_k ≥ a} η_k, kept in one
// segment tree per resource (room.go): a job joining or leaving the crossing set adds
// ∓η_k to a ≤ r_k, O(log T) either way. A job released in slot t+1 cannot cross t: it
// stops there, inside a flat stretch treated like any other stop.
//
// Cost: O(R) per boundary where everything fits, O(R log T) with release times, and where
// something must stop O((k + m) log n + k R log T) for the k jobs ordered at the top and m
// evaluated below them, plus the lazily refreshed utility bounds (about 40 evaluations per
// job in all on sigmoid instances). On 10⁵ sigmoid jobs over 10³ slots it takes about half
// a second; on issue 23's release-time family (workload.Arrivals: 10⁵ jobs, 10⁴ slots,
// releases over the first half) about as long, growing as n^1.1 from 10³ to 10⁵ jobs
// (BenchmarkOnionPeelArrivals).
//
// # The events engine (caps)
//
// With max_parallel a job's cap limits what it can do in the slots it keeps, so moving its
// deadline changes feasibility at later boundaries too and the sweep does not apply. The
// events engine (events.go) runs the layered engine's peeling in order of level instead:
// the lowest value among the free jobs is the current level, the jobs at it try to move to
// their next values together (the level rises) or, failing that, alone (those that cannot
// are saturated and fixed: the layered engine's test, at the same vector). A stalled layer
// is handed to the layered engine in the very state it would have reached itself, so
// branching, the keep rule and Result.Exact are unchanged. Feasibility is kept, not
// recomputed: one flow per resource (flowinc.go) starts from a front-to-back fill and each
// move reroutes only the flow on the slots the job loses, by augmenting paths from that
// job (Ford and Fulkerson's method; each search breadth-first over jobs, as Edmonds and
// Karp's, with a union–find over slots so a search visits each slot once). Failed moves
// are undone from a log. Cost: a heap operation and about one utility evaluation per move
// of one job past one value, plus the searches of the moves that take flow away from a
// job; a failing search (one per saturated job) visits everything reachable, so the total
// grows about as n² on the capped release-time family (7 s of CPU for 10⁴ jobs).
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
