// Package rs implements RUSH's robust scheduling (RS, rush.txt §II–§III): for every job,
// the worst-case demand η_i over all runtime distributions within KL divergence δ_i of a
// reference (WCDE, §III-A), then time-aware scheduling on the η_i (TAS, §III-B, in
// formulations/tas). It owns the reference distributions (§IV "Distribution Estimator"),
// their quantization, the relative entropy minimization REM in closed form (eq. 9–11,
// Alg. 1, Theorem 1), the WCDE bisection (eq. 8, Alg. 2), cross-checks of both by
// independent methods, the RS pipeline, and the robustness experiment of §V-A (Fig. 3).
//
// # The problem
//
// RS asks, per job (constraint (3) with (4)–(5)), that the job receive at least v_i
// container-slots with probability θ under every distribution ω_i of v_i with
// KL(ω_i‖φ_i) ≤ δ_i. Constraint (3) involves only job i's own allocation, so it
// decouples: Σ_t x_it ≥ η_i = max_ω Ω_i^{-1}(θ), the worst-case θ-quantile (§III-A), and
// what remains is TAS with demands η_i.
//
// # Bins and quantiles (the conventions every function here shares)
//
// v is in container-slots. A reference is quantized into bins of width W (PMF):
// bin 0 holds v ≤ 0 (negative mass folds there) and bin l ≥ 1 holds (l−1)·W < v ≤ l·W.
// With W = 1 and integer v, bin l is exactly v = l: the PMF over container-slot counts of
// eq. (7)–(8). Bin l stands for the demand ⌈l·W⌉ (PMF.Demand): its upper edge, rounded up,
// so η is conservative — every v in bins 0..l is ≤ l·W ≤ η. (Left-closed bins [lW, (l+1)W)
// would add a whole bin to every η, and an impulse at 120 would give η = 121.)
//
// The θ-quantile of a PMF p is the upper quantile min{L : Σ_{l≤L} p_l > θ}. That is the
// quantile REM's constraint (10), Σ_{l≤L} p_l ≤ θ, certifies: the worst-case θ-quantile
// is ≥ L+1 exactly when some p in the ball has Σ_{l≤L} p_l ≤ θ, i.e. REM(L) ≤ δ. It makes
// δ = 0 return the reference's quantile, and differs from the lower quantile
// min{L : Σ_{l≤L} p_l ≥ θ} only when a cumulative sum equals θ exactly, where it is the
// more conservative of the two.
//
// # Reference distributions (§IV) and the range [0, τ_max]
//
//	impulse    RUSH's mean-time estimator: all mass at mean task runtime × pending tasks
//	gaussian   per-task mean μ and std σ, central limit theorem: N(n·μ, n·σ²)
//	empirical  k task-runtime samples → sample mean and unbiased variance → as gaussian;
//	           k is reported (Reference.Samples)
//	pmf        explicit bin probabilities of a given width (normalised)
//
// A Gaussian is cut at τ_max = mean + z·sd: the mass above τ_max (< 1e-12) is folded
// into the last bin and reported (Reference.TailMass), the mass below 0 into bin 0. The
// worst case over a KL ball lives in the reference's tail, at tail probability
// b*(θ, δ) ≈ (1−θ)e^{−δ/(1−θ)} (WorstCaseTail) — 10^-46 for θ = 0.99, δ = 1 — so a fixed
// z would decide η instead of δ. z is max(7.1, z*+1), z* the normal quantile of b* for
// the largest δ the reference will be asked (Quantization), capped at 37.5 where the
// normal tail leaves float64. Estimate.SupportEdge flags an η at the top of the range.
// Bin widths of estimated references are whole container-slots, W = max(1, ⌈τ_max/(B−1)⌉)
// for a budget of B bins (the instance's robust.bins, default 256).
//
// # REM (Alg. 1) and WCDE (Alg. 2)
//
// PMF.REM evaluates REM's closed form in O(1) from prefix sums Φ(L) and tails 1 − Φ(L)
// precomputed once per job (the tails summed from the top, so a 1e-200 tail survives):
// 0 when Φ(L) ≤ θ; θ ln(θ/Φ(L)) + (1−θ) ln((1−θ)/(1−Φ(L))) otherwise (derived from the
// log-sum inequality on PMF.REM); +Inf when no reference mass lies above L, since
// moving mass onto a bin with φ_l = 0 costs p ln(p/0) = +∞. REM is non-decreasing in L
// (proof on PMF.REM), which Alg. 2's bisection relies on. WorstCaseDemand is Alg. 2 with
// two corrections documented there: the paper's initial upper bound max U_i(x) mixes a
// utility with a bin, and its initial lower bound Φ^{-1}(θ) is infeasible in general; the
// loop condition L_i − L_f > 1 and the update are the paper's.
//
// A closed characterization follows from the same formula and serves as a third,
// independent check: REM(L) ≤ δ ⟺ 1 − Φ(L) ≥ b*(θ, δ), where b* solves
// d(θ‖1 − b*) = δ for the binary divergence d. So the worst-case θ-quantile is the
// reference's upper (1 − b*)-quantile.
//
// # Cross-checks
//
// CrossCheck (for verify) compares the bisection with a scan over every bin, with the
// b*-quantile, and REM's closed form with a numerical solution of the same convex problem
// — a lower bound from its Lagrange dual maximized by bisection on the dual's derivative,
// and an upper bound from the KL of Alg. 1's distribution summed bin by bin — and checks
// monotonicity in L, θ and δ, δ = 0, and the worst-case distribution.
//
// # The pipeline
//
// Demands builds each job's reference from its runtime block and runs WCDE; jobs without
// a runtime keep their demand; a job's η is at least 1 so that its completion time
// (constraint (1)) exists. RS is single-resource — RUSH apportions one homogeneous unit,
// the container (§II, condition 2) — and Demands rejects instances with more than one
// resource. RobustInstance substitutes the η (extending a defaulted horizon to fit them).
// Solve runs the whole of RS: Demands, RobustInstance, TAS on the η by onion peeling
// (formulations/tas.OnionPeel, §III-B, Alg. 3; or any Scheduler in its place), and the
// continuous time-slot mapping of the schedule to container queues with the jobs'
// task_slots (tas.MapToQueues, §III-C, Alg. 4, Theorem 3's bound checked per job).
// `coraopt solve --formulation rs` is this pipeline; `coraopt rs-demands` prints the η.
//
// # Numerics
//
// math.Log on amd64 returns about −709.09 for every subnormal input (golang/go#56600,
// open in Go 1.26); tails of quantized Gaussians reach that range, so logarithms of
// probabilities go through logSafe, which rescales subnormals.
//
// # Cost
//
// NewPMF is O(bins) (one pass each for Φ and the tails); each REM evaluation is O(1);
// WorstCaseDemand makes at most ⌈log₂ bins⌉ of them. Quantizing a Gaussian costs one
// erfc per bin edge. See BenchmarkWCDE and BenchmarkQuantize.
package rs
