package rs

import (
	"fmt"
)

// Estimate is WCDE's answer for one job.
type Estimate struct {
	// Bin is the worst-case θ-quantile bin: the largest θ-quantile (upper, see
	// PMF.Quantile) of any distribution within KL divergence δ of the reference. Alg. 2
	// ends with L_i = L_f + 1 and this is L_i: L_f is the largest bin with REM(L_f) ≤ δ
	// (−1 when there is none).
	Bin int
	// Eta is η_i = ⌈Bin·W⌉, the worst-case demand in container-slots (the bin's upper edge,
	// rounded up).
	Eta int64
	// ReferenceBin and ReferenceQuantile are the same for the reference alone (δ = 0).
	ReferenceBin      int
	ReferenceQuantile int64
	// KL is REM(L_f), the divergence of the worst-case distribution from the reference
	// (≤ δ; 0 when L_f is below the reference quantile).
	KL float64
	// Evaluations counts REM evaluations: O(log bins) for the bisection, bins for the scan.
	Evaluations int
	// SupportEdge is true when Bin is the reference's last bin with mass: the KL ball
	// cannot move mass beyond the reference's support, so the answer is bounded by it
	// rather than by δ. For an impulse this always holds; for a quantized Gaussian it
	// means τ_max, not δ, decided η.
	SupportEdge bool
}

// WorstCaseDemand solves WCDE (rush.txt eq. 8) for one job by Alg. 2's bisection over the
// target bin L, each step deciding feasibility with the closed-form REM (Alg. 1).
//
// Alg. 2 as printed needs two corrections, both kept here:
//
//   - Its upper bound "L_i = max_x U_i(x)" is a utility value, not a bin. We start from
//     L_i = Bins()−1, the largest bin, which is always infeasible (Φ = 1 > θ there with no
//     mass above; REM = +Inf).
//   - Its lower bound "L_f = Φ^{-1}(θ)" is not feasible in general: with the usual lower
//     quantile Φ(L_f) ≥ θ, so REM(L_f) > 0 unless Φ(L_f) = θ exactly, and with δ = 0 it
//     is infeasible. We start from L_f = Quantile(θ) − 1, the largest bin with Φ ≤ θ,
//     where REM = 0 ≤ δ (L_f = −1 when even bin 0 has Φ(0) > θ: an empty prefix).
//
// The loop is the paper's: while L_i − L_f > 1, test L = ⌊(L_i+L_f)/2⌋ and move L_f up
// when REM(L) ≤ δ, L_i down otherwise. Because REM is non-decreasing in L (see PMF.REM),
// the invariant REM(L_f) ≤ δ < REM(L_i) holds throughout and the loop ends with
// L_i = L_f + 1 after ⌈log₂ Bins()⌉ evaluations at most. The worst-case quantile is then
// bin L_i: some distribution in the ball has Σ_{l≤L_f} p_l ≤ θ (so its θ-quantile is at
// least L_f+1), and none has Σ_{l≤L_i} p_l ≤ θ.
//
// θ must be in (0, 1) and δ finite and ≥ 0.
func WorstCaseDemand(ref *PMF, theta, delta float64) (Estimate, error) {
	if err := checkArgs(ref, theta, delta); err != nil {
		return Estimate{}, err
	}
	q := ref.Quantile(theta)
	lf, li := q-1, ref.Bins()-1
	evals := 0
	t := newThetaLogs(theta)
	for li-lf > 1 {
		L := lf + (li-lf)/2
		evals++
		if ref.rem(L, t) <= delta {
			lf = L
		} else {
			li = L
		}
	}
	return ref.estimate(li, q, theta, evals), nil
}

// WorstCaseDemandScan solves WCDE by evaluating REM at every bin and taking the largest
// feasible one: O(bins), no reliance on monotonicity. It is the oracle the bisection is
// tested against.
func WorstCaseDemandScan(ref *PMF, theta, delta float64) (Estimate, error) {
	if err := checkArgs(ref, theta, delta); err != nil {
		return Estimate{}, err
	}
	lf := -1
	t := newThetaLogs(theta)
	for L := range ref.Bins() {
		if ref.rem(L, t) <= delta {
			lf = L
		}
	}
	return ref.estimate(lf+1, ref.Quantile(theta), theta, ref.Bins()), nil
}

// WorstCaseDistribution returns WCDE's answer together with the worst-case distribution
// p*: Alg. 1's solution at L_f = Bin−1, which lies within KL divergence δ of the
// reference and has Σ_{l<Bin} p*_l ≤ θ, so its θ-quantile is Bin.
func WorstCaseDistribution(ref *PMF, theta, delta float64) ([]float64, Estimate, error) {
	e, err := WorstCaseDemand(ref, theta, delta)
	if err != nil {
		return nil, e, err
	}
	p, _ := ref.REMSolution(e.Bin-1, theta)
	return p, e, nil
}

// WorstCaseDemands solves WCDE for many jobs: refs[i] with θ and deltas[i] (δ_i of
// rush.txt eq. 5), or with deltas[0] for every job when len(deltas) == 1. Each job costs
// O(log bins) given its PMF; the PMFs' O(bins) prefix sums are built once, by NewPMF.
func WorstCaseDemands(refs []*PMF, theta float64, deltas []float64) ([]Estimate, error) {
	if len(deltas) != 1 && len(deltas) != len(refs) {
		return nil, fmt.Errorf("rs: %d deltas for %d jobs (want 1 or one per job)", len(deltas), len(refs))
	}
	out := make([]Estimate, len(refs))
	for i, ref := range refs {
		d := deltas[0]
		if len(deltas) > 1 {
			d = deltas[i]
		}
		e, err := WorstCaseDemand(ref, theta, d)
		if err != nil {
			return nil, fmt.Errorf("job %d: %w", i, err)
		}
		out[i] = e
	}
	return out, nil
}

// estimate fills an Estimate for worst-case bin `bin` and reference bin q.
func (r *PMF) estimate(bin, q int, theta float64, evals int) Estimate {
	e := Estimate{
		Bin:               bin,
		Eta:               r.Demand(bin),
		ReferenceBin:      q,
		ReferenceQuantile: r.Demand(q),
		Evaluations:       evals,
		SupportEdge:       bin == r.last,
	}
	if bin > 0 {
		e.KL = r.REM(bin-1, theta)
	}
	return e
}

func checkArgs(ref *PMF, theta, delta float64) error {
	if ref == nil {
		return fmt.Errorf("rs: nil reference PMF")
	}
	return checkThetaDelta(theta, delta)
}
