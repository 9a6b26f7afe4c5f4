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
// With release times and no caps (the edf oracle) the questions that come many at a time
// about one deadline vector — a layer's saturation tests, a stall's keepAlone tests, the
// keep rule's offers — are not answered by one EDF simulation each but in one pass over
// Horn's windows: moving one job's deadline earlier adds its demand to a rectangle of
// windows (releases up to its own, ends between its old and new deadline), so each
// question is a rectangle minimum of the window slacks, and sweeping the window's start
// with a segment tree that keeps each end's historic minimum answers them all in
// O((n + T) log T) per resource (raiseall.go has the proofs; the keep rule, whose offers
// depend on the earlier ones, is decided in rounds of such passes). A stall branch's
// entry test (the cut's, below) is the keepAlone trial of the job the branch keeps, so
// it takes that answer. The answers are the EDF runs', so the engine's result and Stats
// are unchanged.
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
// # Ties at 0 from underflow
//
// float64 rounds a sigmoid p/(1+e^{μ(t−d)}) to exactly 0 once μ(t−d) > 709.78, so on long
// horizons with steep decays many late jobs tie at 0 although their real utilities
// differ; such ties stall the sweep and send the instance to the layered engine (issue
// 29: 20,000 jobs on 2,000 slots took 33 s and peeled 9,191 layers). OnionPeel therefore
// orders the utilities by a key that is U itself wherever U > 0 and, where a sigmoid
// (any sched.LogUtility) has rounded to 0, its logarithm ln p − softplus(μ(t−d)) — finite,
// below −707, strictly decreasing however late the slot; a utility that is exactly 0 for
// real (a step or RDS job past its deadline) gets one key below every such logarithm.
// The key is a non-decreasing function of the real utility that equals U above 0, so
// the lexmax of the keys is the lexmax of U in which jobs that float64 ties at 0 are
// ordered by their real values, and nothing changes where nothing underflows. It
// applies when some job offers a logarithm and no utility is negative (Stats.Domain
// "log"); Options.AsGiven peels on U as given. Levels are U at the deadlines, so jobs of
// different layers may share the level 0.
//
// # Genuine ties
//
// Ties that are real — RDS utilities and hard lines at 0 past their hard deadlines,
// steps of equal values — cannot be ordered away, and where they stall the sweep the
// layered engine decides them. Three things keep that from costing the layered
// engine's search for the rest of the instance, each leaving the answer what the
// layered engine alone (Options.Layered, the reference) computes:
//
//   - Once a stalled layer is decided (one job's keeping lets the rest rise, a branch
//     fixes its choice, or the keep rule), the sweep takes the rest with the fixed jobs
//     pinned: each gets its level on slots 1..d_j and a value below every other after.
//     The pinned instance's lexmax completes every pinned job by d_j (the layered state
//     is feasible with none below the others) at its best value, so it is the fixed
//     levels merged with the free jobs' lexmax given the fixed deadlines — what the
//     layered engine computes from that state, since merging a common multiset into
//     two sorted vectors keeps their order. Where the sweep hands over again, at the
//     next stall, the layered engine goes on from the same state (Stats.Resumed).
//   - Stall branches are seeded and cut. Every outcome under a stall at level L shares
//     the jobs fixed below L and leaves all others at L or above, so one leaving more
//     jobs at L is lexicographically smaller. The outermost stall at L first completes
//     its state by the keep rule without branching (the seed, feasible); a branch in
//     which c jobs are fixed at L while the free jobs cannot all rise above L (one
//     feasibility test) leaves c+1 or more there, and is dropped when that exceeds the
//     fewest of any outcome found (Stats.Pruned). A dropped branch is worse than an
//     outcome in hand, so the best over the branches is unchanged; a branch's best is
//     memoized only when no cut could have removed a better one. With the budget spent,
//     the answer is never below the seed's, that is the keep rule's.
//
// What is not cheap: which of the jobs tied at a floor must stay there. Fewest at the
// floor comes first, and that is the largest set of jobs that can all meet their hard
// deadlines — with release times and several resources a combinatorial choice, not a
// greedy one — and among the fewest, which ones sets the rest of the vector. The rds
// family's relaxation ties every job at 0 where the sweep stops; within the budget
// the choices are not all covered and the vector comes back with Exact false, now in
// seconds rather than minutes (docs/simulate.md has the times and the command).
//
// All jobs get their full demand, whatever their utility: a job whose utility is 0, or
// constant, keeps the lowest level and finishes by the horizon. The final allocation
// comes from EDF (or max-flow with caps) on the peeled deadlines and is integral.
//
// # A bound on the sum
//
// The lexmax is not the schedule of largest Σ_j U_j(T_j), and the sum over TAS's
// schedules is a knapsack-like problem. SumBound bounds it from above by a
// transportation relaxation. Give every job j one resource r_j it demands (its credit
// resource) and credit each unit of r_j it holds in slot s with U_j(s)/η_j. For any
// feasible schedule with completion T_j, every unit lies in a slot s ≤ T_j, and U_j is
// non-increasing, so the credits of job j sum to at least U_j(T_j) (take exactly η_j of
// its units if it holds more). Hence the sum of utilities is at most the largest total
// credit over every way to place the units — each job's η_jr units of each resource in
// slots from its release on, at most max_parallel per slot, within the capacities —
// which per resource is a transportation problem (jobs → slots), the units of jobs
// credited elsewhere placed at no credit. To keep the network small, a job's first
// Window slots from its release get an arc each; later slots are reached through the
// nodes of a dyadic tree over the slots, each crediting the start of its range (more
// than any slot in it earns, so the relaxation only loosens), O(log T) arcs per job.
//
// The network is solved by min-cost flow (successive shortest paths with potentials),
// and the bound reported is not the flow's value but the Lagrangian dual at the slot
// prices its potentials give: Σ_s C_s λ_s plus each job's best placement when units pay
// λ_s instead of using capacity. By weak duality that is an upper bound for any prices
// λ ≥ 0, so the bound's validity does not rest on the flow code; at optimal prices it
// equals the flow's value (Result.Primal), and the tests check both against an
// independent simplex solve of the same LP. The reported Bound is raised by 1e-9
// relative so float error never puts it below a schedule's sum. Successive shortest
// paths cost a search of the arcs for about every job, more under load (BenchmarkSumBound
// on workload.Arrivals at 90% load: 100 jobs 0.06 s of CPU, 500 jobs 1.3 s, 1,000 jobs
// 7.2 s); past MaxWork (jobs × arcs) the bound falls back to every job at its best value
// from its release on ("alone").
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
