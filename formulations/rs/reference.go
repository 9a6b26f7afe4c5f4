package rs

import (
	"errors"
	"fmt"
	"math"

	"github.com/coraopt/coraopt/sched"
)

// Estimator names, as in sched.Runtime.Type.
const (
	EstimatorImpulse   = "impulse"
	EstimatorGaussian  = "gaussian"
	EstimatorEmpirical = "empirical"
	EstimatorPMF       = "pmf"
)

const (
	// DefaultBins is the bin budget when neither the instance nor the caller gives one
	// (sched's default for robust.bins).
	DefaultBins = 256
	// MaxBins bounds the bins of an estimated reference (explicit PMFs bring their own).
	MaxBins = 1 << 24
	// TailZ is the least reach of τ_max above a Gaussian's mean, in standard deviations:
	// the normal tail beyond 7.1 σ is 6.2e-13 < 1e-12.
	TailZ = 7.1
	// LowZ is how far below a Gaussian's mean bins are computed one by one; the mass
	// below mean − 8.3σ (at most 5.2e-17) is folded into the bin holding that point.
	LowZ = 8.3
	// MaxTailZ caps that reach: beyond 37.5 σ the normal tail (< 5e-308) is below the
	// smallest normal float64 and the KL ball cannot be resolved any further.
	MaxTailZ = 37.5
)

// Quantization says how an estimated reference (impulse, Gaussian, empirical) is cut into
// bins. Explicit PMFs keep the bins they come with.
//
// Bins: when Width is 0, the bin width is the integer W = max(1, ⌈τ_max/(Bins−1)⌉), so
// that Bins bins (edges 0, W, …, (Bins−1)·W) cover [0, τ_max] and every edge is a whole
// number of container-slots; a reference that needs fewer bins gets fewer. With
// Width > 0 that width is used as is (Width = 1: one bin per container-slot, the
// integer-valued PMF of rush.txt eq. 7) and the count follows from τ_max.
//
// Theta and MaxDelta are the largest θ and δ the reference will be asked for. A Gaussian
// has unbounded support, and the worst case over a KL ball sits in its tail at
// probability b*(θ, δ) (WorstCaseTail), which for θ = 0.99 and δ = 1 is 10^-46: a fixed
// truncation point would decide η instead of δ. So τ_max = mean + z·σ with
// z = max(TailZ, z*+1), z* the standard normal quantile of b*(θ, MaxDelta), capped at
// MaxTailZ. With Theta = 0, z = TailZ.
type Quantization struct {
	Bins     int
	Width    float64
	Theta    float64
	MaxDelta float64

	// z is reach()'s value once Prepared has computed it (0: compute it per reference).
	z float64
}

// Prepared returns q with the z of its Gaussian ranges computed once, for a caller that
// builds many references with one quantization: RUSH re-estimates the jobs whose pending
// work changed at every decision, and z (a worst-case tail and a normal quantile) is the
// same each time. The references are bit for bit those of q.
func (q Quantization) Prepared() (Quantization, error) {
	z, err := q.reach()
	if err != nil {
		return q, err
	}
	q.z = z
	return q, nil
}

// Reference is an estimated reference distribution φ_i of a job's remaining work v_i
// (rush.txt §IV, "Distribution Estimator"), quantized into a PMF.
type Reference struct {
	*PMF
	// Estimator is impulse, gaussian, empirical or pmf.
	Estimator string
	// Mean and Std of v in container-slots (of the Gaussian before quantization; Std is
	// 0 for an impulse). Not set for an explicit PMF.
	Mean, Std float64
	// Samples is the number of task runtime samples an empirical estimate used.
	Samples int
	// TauMax is the top of the quantized range [0, τ_max] (the last bin's upper edge),
	// and Z how many standard deviations above the mean it was asked to reach.
	TauMax, Z float64
	// TailMass is the reference probability above TauMax, folded into the last bin (so
	// the PMF sums to 1; the fold moves at most this much mass down). Mass below 0 is
	// folded into bin 0 (v ≤ 0).
	TailMass float64
}

// Impulse is RUSH's mean-time estimator: all mass on v = work (mean task runtime ×
// pending tasks). Its KL ball is the impulse itself (moving mass to an empty bin costs
// +Inf), so every θ and δ give η = ⌈work⌉ on unit bins.
func Impulse(work float64, q Quantization) (*Reference, error) {
	if math.IsNaN(work) || math.IsInf(work, 0) {
		return nil, fmt.Errorf("rs: impulse at %v: must be finite", work)
	}
	tau := math.Max(work, 0)
	w, n, err := q.grid(tau)
	if err != nil {
		return nil, err
	}
	probs := make([]float64, n)
	probs[binOf(work, w, n)] = 1
	pmf, err := NewPMF(w, probs)
	if err != nil {
		return nil, err
	}
	return &Reference{PMF: pmf, Estimator: EstimatorImpulse, Mean: work, TauMax: pmf.Edge(n - 1)}, nil
}

// binOf is the right-closed bin holding v: 0 for v ≤ 0, else ⌈v/w⌉, at most n−1.
func binOf(v, w float64, n int) int {
	if v <= 0 {
		return 0
	}
	l := ceilEdge(v / w)
	return int(min(l, int64(n-1)))
}

// Gaussian quantizes N(mean, std²) for v: RUSH's Gaussian estimator after the central
// limit theorem (use GaussianTasks for per-task parameters). Bin l gets
// F(l·W) − F((l−1)·W); bin 0 gets F(0) (negative mass folded in) and the last bin gets
// everything above its lower edge (the tail above τ_max folded in, reported as
// TailMass). The mass below mean − 8.3σ (at most 5.2e-17, LowZ) is folded into the bin
// holding that point: it cannot change REM, which is 0 wherever Φ ≤ θ, for any θ above
// 1e-16, and it spares an erfc per bin over the range [0, mean − 8.3σ]. Tail differences are taken on the side of the mean where they do not
// cancel, so bins 30σ out keep their relative precision. std = 0 gives an impulse.
func Gaussian(mean, std float64, q Quantization) (*Reference, error) {
	if math.IsNaN(mean) || math.IsInf(mean, 0) || !(std >= 0) || math.IsInf(std, 1) {
		return nil, fmt.Errorf("rs: gaussian N(%v, %v²): mean must be finite, std finite and >= 0", mean, std)
	}
	if std == 0 {
		ref, err := Impulse(mean, q)
		if err != nil {
			return nil, err
		}
		ref.Estimator = EstimatorGaussian
		return ref, nil
	}
	z, err := q.reach()
	if err != nil {
		return nil, err
	}
	tau := math.Max(mean+z*std, 0)
	w, n, err := q.grid(tau)
	if err != nil {
		return nil, err
	}
	probs := make([]float64, n)
	// Upper tail Q(x) = P(v > x) above the mean and the CDF F(x) below it, each from erfc
	// on its own side, one erfc per edge.
	inv := 1 / (std * math.Sqrt2)
	upper := func(x float64) float64 { return 0.5 * math.Erfc((x-mean)*inv) }
	side := func(x float64) (float64, bool) {
		if x >= mean {
			return upper(x), true
		}
		return 0.5 * math.Erfc((mean-x)*inv), false
	}
	// The first bin computed holds everything at or below its upper edge: bin 0 (v ≤ 0),
	// or, when mean − LowZ·σ > 0, the bin holding that point, so that the far lower tail
	// (< 5.2e-17) costs no erfc calls.
	first := 0
	if lo := mean - LowZ*std; lo > 0 {
		first = int(lo / w)
	}
	prevV, prevAbove := side(float64(first) * w)
	if prevAbove {
		probs[first] = 1 - prevV
	} else {
		probs[first] = prevV
	}
	for l := first + 1; l < n-1; l++ {
		v, above := side(float64(l) * w)
		switch {
		case prevAbove:
			probs[l] = prevV - v // Q(prev) − Q(x)
		case !above:
			probs[l] = v - prevV // F(x) − F(prev)
		default:
			probs[l] = 1 - prevV - v // straddles the mean
		}
		prevV, prevAbove = v, above
	}
	if n > 1 {
		if prevAbove {
			probs[n-1] = prevV
		} else {
			probs[n-1] = 1 - prevV
		}
	} else {
		probs[0] = 1
	}
	pmf, err := NewPMF(w, probs)
	if err != nil {
		return nil, err
	}
	top := pmf.Edge(n - 1)
	return &Reference{PMF: pmf, Estimator: EstimatorGaussian, Mean: mean, Std: std, TauMax: top, Z: z, TailMass: upper(top)}, nil
}

// GaussianTasks is RUSH's Gaussian estimator from per-task statistics: the remaining
// work of `tasks` tasks each with runtime mean μ and standard deviation σ (in slots, one
// container each) is, by the central limit theorem, N(tasks·μ, tasks·σ²).
func GaussianTasks(mean, std float64, tasks int, q Quantization) (*Reference, error) {
	if tasks < 1 {
		return nil, fmt.Errorf("rs: %d tasks: must be >= 1", tasks)
	}
	n := float64(tasks)
	return Gaussian(n*mean, math.Sqrt(n)*std, q)
}

// Empirical is the Gaussian estimator learned from observed task runtimes (rush.txt §IV
// and §V-A): the sample mean and the unbiased sample variance (divisor k−1) of the k
// samples, then GaussianTasks over the pending tasks. It needs k ≥ 2; identical samples
// give an impulse. Samples must be finite (instance files also require them ≥ 0).
// Reference.Samples reports k.
func Empirical(samples []float64, tasks int, q Quantization) (*Reference, error) {
	k := len(samples)
	if k < 2 {
		return nil, fmt.Errorf("rs: empirical estimate from %d samples: need at least 2", k)
	}
	// Welford's update: stable for samples with a large mean and small spread.
	var mean, m2 float64
	for i, x := range samples {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("rs: sample %d is %v: must be finite", i, x)
		}
		d := x - mean
		mean += d / float64(i+1)
		m2 += d * (x - mean)
	}
	std := math.Sqrt(math.Max(m2, 0) / float64(k-1))
	ref, err := GaussianTasks(mean, std, tasks, q)
	if err != nil {
		return nil, err
	}
	ref.Estimator = EstimatorEmpirical
	ref.Samples = k
	return ref, nil
}

// Explicit wraps an instance's pmf runtime: probabilities over bins of width w (bin l as
// on PMF: v ≤ 0 for l = 0, ((l−1)w, lw] after), normalised. probs is copied.
func Explicit(w float64, probs []float64) (*Reference, error) {
	pmf, err := NewPMF(w, append([]float64(nil), probs...))
	if err != nil {
		return nil, err
	}
	return &Reference{PMF: pmf, Estimator: EstimatorPMF, TauMax: pmf.Edge(pmf.Bins() - 1)}, nil
}

// FromRuntime builds the reference for an instance job's runtime block (sched.Runtime):
//
//	impulse    Impulse(Mean·Tasks)
//	gaussian   GaussianTasks(Mean, Std, Tasks)
//	empirical  Empirical(Samples, Tasks)
//	pmf        Explicit(BinWidth, Probabilities) (BinWidth 0 means 1)
//
// Tasks 0 (a hand-built Runtime) means 1, as in the instance file.
func FromRuntime(rt *sched.Runtime, q Quantization) (*Reference, error) {
	if rt == nil {
		return nil, errors.New("rs: no runtime")
	}
	tasks := rt.Tasks
	if tasks == 0 {
		tasks = 1
	}
	switch rt.Type {
	case EstimatorImpulse:
		if tasks < 1 {
			return nil, fmt.Errorf("rs: %d tasks: must be >= 1", tasks)
		}
		return Impulse(rt.Mean*float64(tasks), q)
	case EstimatorGaussian:
		return GaussianTasks(rt.Mean, rt.Std, tasks, q)
	case EstimatorEmpirical:
		return Empirical(rt.Samples, tasks, q)
	case EstimatorPMF:
		w := rt.BinWidth
		if w == 0 {
			w = 1
		}
		return Explicit(w, rt.Probabilities)
	}
	return nil, fmt.Errorf("rs: unknown runtime type %q (one of impulse, gaussian, empirical, pmf)", rt.Type)
}

// reach is z, how many standard deviations τ_max must reach above the mean.
func (q Quantization) reach() (float64, error) {
	if q.z > 0 {
		return q.z, nil
	}
	if q.Theta == 0 {
		if q.MaxDelta != 0 {
			return 0, errors.New("rs: quantization: MaxDelta needs Theta")
		}
		return TailZ, nil
	}
	b, err := WorstCaseTail(q.Theta, q.MaxDelta)
	if err != nil {
		return 0, fmt.Errorf("quantization: %w", err)
	}
	if b == 0 {
		return MaxTailZ, nil
	}
	return math.Min(math.Max(TailZ, normalUpperQuantile(b)+1), MaxTailZ), nil
}

// grid returns the bin width and count covering [0, tau].
func (q Quantization) grid(tau float64) (float64, int, error) {
	if !(tau >= 0) || tau > MaxEdge {
		return 0, 0, fmt.Errorf("rs: range [0, %v] container-slots: must be within [0, %v]", tau, float64(MaxEdge))
	}
	var w float64
	switch {
	case q.Width < 0 || math.IsNaN(q.Width) || math.IsInf(q.Width, 1):
		return 0, 0, fmt.Errorf("rs: bin width %v: must be > 0 (or 0 to derive it from Bins)", q.Width)
	case q.Width > 0:
		w = q.Width
	default:
		bins := q.Bins
		if bins == 0 {
			bins = DefaultBins
		}
		if bins < 2 || bins > MaxBins {
			return 0, 0, fmt.Errorf("rs: %d bins: must be in [2, %d]", bins, MaxBins)
		}
		w = math.Max(1, math.Ceil(tau/float64(bins-1)))
	}
	n := float64(ceilEdge(tau/w)) + 1
	if n > MaxBins {
		return 0, 0, fmt.Errorf("rs: range [0, %v] in bins of width %v needs %v bins, more than %d", tau, w, n, MaxBins)
	}
	return w, int(n), nil
}

// normalUpperQuantile is z with P(Z > z) = b for a standard normal Z and 0 < b ≤ 1/2, by
// bisection on erfc (math.Erfcinv loses all precision below 1e-16).
func normalUpperQuantile(b float64) float64 {
	lo, hi := 0.0, 40.0
	for range 200 {
		mid := (lo + hi) / 2
		if 0.5*math.Erfc(mid/math.Sqrt2) > b {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
