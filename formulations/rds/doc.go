// Package rds is RDS, the resource- and deadline-aware scheduler of rds.txt (Cheng et
// al., TPDS 2019), as a receding-horizon controller: the progress model and its online
// learning (§3.2, eqs. 9–10), the SLO decay (§3.1, eq. 4), capacity prediction (§4.1,
// eq. 16 and Table 2; §4.2), the receding-horizon QP (§3.1, eq. 3, solved per §4.3),
// and dynamic-slot dispatch (§4.3, Algorithm 1). The closed loop — a controller woken
// every interval against a cluster — is the simulator's: policies/rds runs this model
// in package sim.
//
// # Progress model (§3.2)
//
// Job j has W_j units of work and progress y_j ∈ [0, W_j]. Per control interval of
// length L its progress is linear in its allocation,
//
//	y_j(t+1) = y_j(t) + g^m_j·u^m_j(t) + g^r_j·u^r_j(t),
//
// a two-component gain: u^m and u^r are the map and reduce resources held over the
// interval (resource units, e.g. slots or GHz) and g^m, g^r the work they do per unit
// per interval. The paper's Takagi–Sugeno fuzzy model (eqs. 5–8) is out of scope; this
// linear-in-u model is what its online RLS adaptation (eqs. 9–10) updates each interval
// (type RLS: exponentially weighted least squares with forgetting factor λ ∈ (0, 1],
// regression vector φ = (u^m, u^r)).
//
// The phases enter through Job.Phase: during the map phase only u^m makes progress and
// u^r is fixed at 0, during the reduce phase the other way round; PhaseBoth lets both
// progress at once. The phase is the one at the decision time and is kept over the
// horizon (the QP cannot switch phases mid-horizon; the receding horizon re-plans every
// interval). Per-job caps (Job.MaxMap, MaxReduce: pending tasks × slot size) bound
// u^m and u^r in every interval; a cap of 0 removes that kind of resource from the job.
//
// # SLO decay and priorities (§3.1, eq. 4)
//
// δ is sched.RDS's formula (Decay): 1 before t_soft, 1 − (y − t_soft)/t_soft between
// t_soft and t_hard, 0 after, with times measured from the job's arrival and evaluated
// at the interval in which y falls (the paper asks t_hard ≤ 2·t_soft so that δ ≥ 0;
// Validate enforces it). The priority ω_j is the diagonal of W.
//
// # The RHC problem (eq. 3) — modelling decisions
//
// BuildRHC builds, for the jobs that have arrived and have work left, the QP
//
//	min  Σ_{i=1..H_p} Σ_j ω_j δ_j(t+i) (y%_j(t+i) − y%ref_j(t+i))²
//	   + Σ_{k=0..H_c−1} Σ_j (P_k (Δu^m_j(t+k))² + Q_k (Δu^r_j(t+k))²)
//	s.t. Σ_j (u^m_j + u^r_j)(t+k) ≤ r̂_a(t+k),  0 ≤ u ≤ caps,
//
// over u^m_j(t+k), u^r_j(t+k), k < H_c. Our addition for clusters whose map and reduce
// slots are separate pools (Hadoop 1): when State.MapCapacity and ReduceCapacity are
// set, Σ_j u^m_j(t+k) ≤ r̂^m(t+k) and Σ_j u^r_j(t+k) ≤ r̂^r(t+k) join the total row
// (policies/rds sets them; the state file does not). Where the paper is vague:
//
//   - Indices. Tracking runs over the predicted states y(t+1) … y(t+H_p) (y(t) is
//     measured, a constant); the moves are u(t) … u(t+H_c−1), Δu(t) = u(t) − u(t−1)
//     with u(t−1) the allocation of the interval just ended (Job.Prev). Beyond H_c the
//     last move is held, so it must fit the smallest forecast of the intervals it covers:
//     the last capacity row's bound is min_{k ≥ H_c−1} r̂_a(t+k).
//   - Units. Progress is tracked in percent of the job's work (Hadoop's progress score),
//     y% = 100·y/W, so that large jobs do not dominate small ones; P and Q weigh squared
//     resource units per step (P_k and Q_k: one value for all steps or one per step —
//     the paper's P = [0.0107, 0.0096, 0.0132], Q = [0.0173, 0.0168, 0.0194] are the
//     defaults for H_c = 3).
//   - The weight W·δ is per step: ω_j δ_j(t+i), with δ at the time t+i the progress is
//     delivered — work done after t_soft counts less, after t_hard not at all (§3.1:
//     "δ discounts the data throughput from jobs with violated SLOs").
//   - Reference (§3.1, §6.6, uniform per-interval deadlines): from y_j(t) the job
//     advances at the uniform rate that completes it exactly at t_soft, and stays at
//     W_j after that; a job past t_soft is referred to W_j at once (Reference).
//   - Overshoot. y is not clipped at W_j — a QP cannot clip. The tracking term is
//     symmetric and y%ref ≤ 100, so a trajectory above 100% pays at least as much as the
//     one that stops at 100%: overshoot is never rewarded. In addition each u^m, u^r is
//     bounded by the remaining work divided by its gain (more cannot be useful within an
//     interval).
//   - Job completion inside the horizon is not modelled either; Handles.Trajectory is
//     the unclipped linear prediction.
//
// # Deadlines inside the horizon
//
// Eq. 3 alone does not meet deadlines that are exactly feasible: its quadratic tracking
// term splits an unavoidable lag between jobs instead of giving it to the one whose
// deadline is later (the Table 1 case study misses J2 by almost 10 minutes with eq. 3
// alone, see policies/rds.TestTable1Completions). RDS's own goal is eq. 1, the weighted
// deadline-miss penalty; so by default (Params.Deadlines = DeadlinesFirst) SolveRHC
// optimizes lexicographically: first the least weighted shortfall Σ_j ω_j σ_j of the
// deadlines inside the window, σ_j the percent of job j's work still left at t_soft
// (BuildShortfall, an LP), then eq. 3 with progress_j(t_soft) ≥ 100 − σ*_j − 10⁻⁶ as
// hard rows. Progress at t_soft is interpolated linearly within the interval containing
// it (the rate is constant within an interval). An exact-penalty single QP would need a
// penalty of 10⁶–10⁸ on these problems and wreck every solver's tolerances; the two
// stages need no large numbers. SolveRHC adds the rows lazily and skips the LP when a
// plan or an earliest-deadline-first allocation proves that every deadline can be met.
//
// # Conditioning
//
// The tracking curvature of job j is about ω_j(100·g_j/W_j)², the control curvature P:
// with resource units such that a job needs between 1 and 1000 resource-intervals
// (W_j/g_j) and the paper's P, the Hessian's condition number stays below about 10⁸,
// which the built-in QP solver treats as positive definite. Much smaller jobs (a
// fraction of one resource unit for one interval) make it singular in floating point.
//
// # Capacity prediction (§4)
//
// Predictor forecasts r̂_a(t), …, r̂_a(t+h−1). AR fits eq. 16, r_a(t) = Σ_i a_i r_a(t−i)
// without intercept, by least squares (FitAR; minimum-norm via the SVD for
// rank-deficient histories), and iterates the one-step prediction as Table 2 shows.
// ARPredictor refits on the history at every step and clips forecasts at 0. Green
// forecasts from weather forecasts (§4.2): solar B^solar(1 − cloud cover), the cubic
// wind power curve a·v³ + b (FitWindCurve fits a and b), and resources linear in power
// on top of a grid-powered base. Known is a perfect forecast.
//
// # Dispatch (Algorithm 1)
//
// Dispatch hands out slots one at a time to the claim with the largest remaining
// adjustment (a heap; ties to the lower index), work-conserving as the algorithm's
// stopping rule Σu = r_a says; DispatchFluid is its small-slot limit (water-filling).
// In the simulator the same rule is policies.ContainerAssignment, which policies/rds
// uses; these two are the algorithm on a fixed set of claims.
//
// # The state file (coraopt solve --formulation rds)
//
// One control step's input, decoded by Decode with every problem reported with its
// JSON path (a *sched.ValidationError; the CLI exits 2). Times are in any one unit
// (minutes below); capacities and allocations in resource units. Every number is at
// most MaxMagnitude (10¹²) in magnitude and work, the interval and priorities at least
// MinScale (10⁻⁶), so that the QP's coefficients neither overflow nor vanish (see
// Conditioning: within these bounds an extreme mix can still be ill-conditioned, which
// solve --verify's KKT check reports).
//
//	{
//	  "name": "table1-t10",
//	  "time": 10,                  // t, the start of the interval to plan (≥ 0)
//	  "interval": 10,              // L > 0, required
//	  "capacity_history": [3],     // observed r_a per past interval, oldest first
//	  "forecast": [6, 3, 6],       // optional: r̂_a(t) … (≥ prediction_horizon values)
//	  "green": { … },              // optional instead of forecast, see below
//	  "params": {
//	    "prediction_horizon": 3,   // H_p ∈ [1, 64], default 3
//	    "control_horizon": 3,      // H_c ∈ [1, H_p], default min(3, H_p)
//	    "map_penalty": [0.0107, 0.0096, 0.0132],    // P: a number or H_c numbers ≥ 0
//	    "reduce_penalty": [0.0173, 0.0168, 0.0194], // Q: likewise
//	    "ar_order": 3,             // n ∈ [1, 64] of the AR predictor, default 3
//	    "deadlines": "first"       // "first" (default) or "off" (eq. 3 alone)
//	  },
//	  "jobs": [{
//	    "id": "J1",                // required, unique
//	    "work": 120,               // W_j > 0, required
//	    "progress": 30,            // y_j(t) ∈ [0, work], default 0
//	    "phase": "map",            // "both" (default), "map" or "reduce"
//	    "gain": {"map": 10, "reduce": 0}, // ĝ_j ≥ 0 (work per resource unit per interval), required
//	    "arrival": 0,              // default 0; a job arriving after time is not planned
//	    "soft": 40,                // t_soft > arrival, required
//	    "hard": 40,                // t_hard ∈ [soft, arrival + 2·(soft − arrival)], default soft
//	    "priority": 1,             // ω_j > 0, default 1
//	    "allocation": {"map": 3, "reduce": 0}, // u_j(t−1), default 0
//	    "max_map": 6,              // cap on u^m, default none
//	    "max_reduce": 0            // cap on u^r, default none
//	  }]
//	}
//
// The forecast comes from "forecast" (values for intervals t, t+L, …), else "green",
// else AR(ar_order) fitted to capacity_history (which then must not be empty; with
// fewer than 2·ar_order observations a lower order is fitted). "green" holds
// {"brown": grid-powered resources, "per_kw": resources per kW (required),
// "solar_ideal": [kW], "cloud_cover": [fractions], "wind_speed": [m/s], "wind_a": a,
// "wind_b": b}, the series starting at the interval being planned.
package rds
