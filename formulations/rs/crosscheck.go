package rs

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// CheckResult is one cross-check of WCDE on one reference: its name, whether it held,
// the largest violation found (in the check's own unit, 0 when it held exactly) and a
// line saying what was compared. verify reports these as they are.
type CheckResult struct {
	Name         string
	OK           bool
	MaxViolation float64
	Detail       string
}

// Tolerances of CrossCheck.
const (
	// REMTol bounds |closed form − numerical optimum| of REM, relative to max(1, value).
	REMTol = 1e-9
	// MonotoneTol bounds how far a computed REM(L+1) may fall below REM(L), relative to
	// max(1, REM(L)): rounding of the two sums a and b, nothing more.
	MonotoneTol = 1e-12
	// MassTol bounds the rounding of probability sums.
	MassTol = 1e-12
)

// CrossCheck checks WCDE on ref at (θ, δ) by independent methods:
//
//	wcde/bisection-vs-scan      Alg. 2's bisection and a scan of REM over every bin give
//	                            the same worst-case bin
//	wcde/tail-threshold         that bin is also the reference's upper a*-quantile,
//	                            a* = 1 − WorstCaseTail(θ, δ) (REM(L) ≤ δ ⟺ Φ(L) ≤ a*);
//	                            differences are allowed only at ties |REM − δ| ≤ 1e-9
//	rem/closed-form-vs-dual     at the bins that matter (every bin when there are ≤ 64),
//	                            the closed form of Alg. 1 lies between a lower bound
//	                            from the Lagrange dual max_{ν≥0} −ln Σ_l φ_l e^{−ν[l≤L]} − νθ,
//	                            maximized numerically, and an upper bound, the KL of
//	                            Alg. 1's distribution summed bin by bin (checked feasible);
//	                            the gap is ≤ REMTol. Where REM = +Inf the dual is shown to
//	                            exceed δ
//	rem/monotone-in-L           REM(L) is non-decreasing over all bins (what the
//	                            bisection relies on)
//	wcde/delta-zero             δ = 0 gives the reference quantile
//	wcde/monotone-in-delta      η does not decrease as δ grows (7 values around δ)
//	wcde/monotone-in-theta      η does not decrease as θ grows (5 values around θ)
//	wcde/worst-case-distribution  p* sums to 1, KL(p*‖φ) ≤ δ, Σ_{l<Bin} p*_l ≤ θ
//
// It returns an error only for invalid arguments.
func CrossCheck(ref *PMF, theta, delta float64) ([]CheckResult, error) {
	bis, err := WorstCaseDemand(ref, theta, delta)
	if err != nil {
		return nil, err
	}
	scan, err := WorstCaseDemandScan(ref, theta, delta)
	if err != nil {
		return nil, err
	}
	out := []CheckResult{
		checkBisectionScan(bis, scan),
		checkTailThreshold(ref, theta, delta, bis),
		checkREMDual(ref, theta, delta, bis),
		checkMonotoneL(ref, theta),
		checkDeltaZero(ref, theta),
		checkMonotoneDelta(ref, theta, delta),
		checkMonotoneTheta(ref, theta, delta),
		checkWorstCase(ref, theta, delta),
	}
	return out, nil
}

func checkBisectionScan(bis, scan Estimate) CheckResult {
	c := CheckResult{Name: "wcde/bisection-vs-scan", OK: bis.Bin == scan.Bin}
	c.MaxViolation = math.Abs(float64(bis.Bin - scan.Bin))
	c.Detail = fmt.Sprintf("bisection bin %d (eta %d) in %d REM evaluations; scan bin %d (eta %d) over %d bins",
		bis.Bin, bis.Eta, bis.Evaluations, scan.Bin, scan.Eta, scan.Evaluations)
	return c
}

func checkTailThreshold(ref *PMF, theta, delta float64, bis Estimate) CheckResult {
	c := CheckResult{Name: "wcde/tail-threshold"}
	b, err := WorstCaseTail(theta, delta)
	if err != nil {
		c.Detail = err.Error()
		c.MaxViolation = math.Inf(1)
		return c
	}
	bin := ref.last
	if b > 0 {
		bin = min(ref.tailQuantile(b), ref.last)
	}
	c.MaxViolation = math.Abs(float64(bin - bis.Bin))
	c.OK = bin == bis.Bin
	tie := ""
	if !c.OK {
		// A tie: every bin between the two answers has REM within 1e-9 of δ, so which side
		// of δ it falls on is decided by rounding.
		lo, hi := min(bin, bis.Bin)-1, max(bin, bis.Bin)-1
		c.OK = true
		for L := max(lo, 0); L <= hi; L++ {
			if math.Abs(ref.REM(L, theta)-delta) > REMTol*math.Max(1, delta) {
				c.OK = false
			}
		}
		if c.OK {
			tie = " (a tie: REM within 1e-9 of delta)"
		}
	}
	c.Detail = fmt.Sprintf("tail b* = %.6g (a* = 1 - b*): upper a*-quantile bin %d, bisection bin %d%s", b, bin, bis.Bin, tie)
	return c
}

// remBins are the bins at which the closed form is compared with the dual.
func remBins(ref *PMF, theta float64, bis Estimate) []int {
	n := ref.Bins()
	if n <= 64 {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	q := ref.Quantile(theta)
	set := []int{0, 1, q - 1, q, bis.Bin - 1, bis.Bin, bis.Bin + 1, ref.last - 1, ref.last, n - 2, n - 1}
	for k := range 17 {
		set = append(set, k*(n-1)/16)
	}
	out := set[:0]
	for _, L := range set {
		if L >= 0 && L < n {
			out = append(out, L)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func checkREMDual(ref *PMF, theta, delta float64, bis Estimate) CheckResult {
	c := CheckResult{Name: "rem/closed-form-vs-dual", OK: true}
	bins := remBins(ref, theta, bis)
	worst := -1
	for _, L := range bins {
		v, ok := remAgainstDual(ref, L, theta, delta)
		c.OK = c.OK && ok
		if worst < 0 || v > c.MaxViolation {
			c.MaxViolation, worst = v, L
		}
	}
	c.Detail = fmt.Sprintf("closed form within dual lower and primal upper bounds at %d bins", len(bins))
	if worst >= 0 {
		c.Detail += fmt.Sprintf("; largest gap %.3g at bin %d (REM %.6g)", c.MaxViolation, worst, ref.REM(worst, theta))
	}
	return c
}

// remAgainstDual compares the closed form of REM(L) with a numerical solution of the
// same convex problem and returns the largest discrepancy (relative to max(1, REM)) and
// whether it is within REMTol.
//
// Lower bound: for any ν ≥ 0 the Lagrange dual function, with the multiplier of Σp = 1
// eliminated, is D(ν) = −ln Z(ν) − νθ with Z(ν) = Σ_l φ_l e^{−ν[l≤L]} ≤ REM(L) (weak
// duality). D is concave; its maximizer is found by bisection on D′, from sums over the
// raw bins (not the PMF's prefix arrays).
// Upper bound: Alg. 1's distribution, checked feasible, with its KL summed bin by bin.
func remAgainstDual(ref *PMF, L int, theta, delta float64) (float64, bool) {
	closed := ref.REM(L, theta)
	var A, B float64 // reference mass of bins ≤ L and > L, summed directly
	for l := range ref.Bins() {
		p := ref.Prob(l)
		if l <= L {
			A += p
		} else {
			B += p
		}
	}
	dual := func(nu float64) float64 {
		// −ln(A e^{−ν} + B) − νθ, in log space so that A e^{−ν} may underflow.
		la := logSafe(A) - nu
		var lz float64
		switch {
		case B == 0:
			lz = la
		case A == 0:
			lz = logSafe(B)
		default:
			lb := logSafe(B)
			m := math.Max(la, lb)
			lz = m + math.Log(math.Exp(la-m)+math.Exp(lb-m))
		}
		return -lz - nu*theta
	}
	if math.IsInf(closed, 1) {
		// Infeasible: no reference mass above L. Then D(ν) = ν(1−θ) − ln A grows without
		// bound; show it passes δ, which is what WCDE needs.
		nu := (delta + 10 + math.Abs(logSafe(A))) / (1 - theta)
		return 0, B == 0 && dual(nu) > delta
	}
	// D′(ν) = A e^{−ν}/Z(ν) − θ = 1/(1 + (B/A) e^{ν}) − θ, decreasing in ν.
	var nu float64
	if A > 0 && B > 0 && A > theta*(A+B) {
		lr := logSafe(B) - logSafe(A) // (B/A)e^ν in log space: ν* can pass 709
		grad := func(nu float64) float64 { return 1/(1+math.Exp(lr+nu)) - theta }
		lo, hi := 0.0, 1.0
		for grad(hi) > 0 && hi < 1e6 {
			lo, hi = hi, 2*hi
		}
		for range 200 {
			mid := (lo + hi) / 2
			if mid <= lo || mid >= hi {
				break
			}
			if grad(mid) > 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		nu = (lo + hi) / 2
	}
	lower := dual(nu)
	p, _ := ref.REMSolution(L, theta)
	var prefix float64
	for l := 0; l <= L; l++ {
		prefix += p[l]
	}
	upper, err := ref.KL(p)
	if err != nil {
		return math.Inf(1), false
	}
	scale := math.Max(1, math.Abs(closed))
	feasible := prefix <= theta+MassTol || ref.CDF(L) <= theta
	v := math.Max(math.Abs(closed-lower), math.Abs(closed-upper)) / scale
	return v, feasible && v <= REMTol && lower <= upper+REMTol*scale
}

func checkMonotoneL(ref *PMF, theta float64) CheckResult {
	c := CheckResult{Name: "rem/monotone-in-L", OK: true}
	at := -1
	prev := ref.REM(0, theta)
	for L := 1; L < ref.Bins(); L++ {
		cur := ref.REM(L, theta)
		var drop float64
		switch {
		case math.IsInf(prev, 1) && !math.IsInf(cur, 1):
			drop = math.Inf(1)
		case !math.IsInf(prev, 1):
			drop = (prev - cur) / math.Max(1, prev)
		}
		if drop > c.MaxViolation {
			c.MaxViolation, at = drop, L
		}
		prev = cur
	}
	c.OK = c.MaxViolation <= MonotoneTol
	c.Detail = fmt.Sprintf("REM over %d bins", ref.Bins())
	if at >= 0 {
		c.Detail += fmt.Sprintf("; largest relative drop %.3g at bin %d", c.MaxViolation, at)
	}
	return c
}

func checkDeltaZero(ref *PMF, theta float64) CheckResult {
	e, _ := WorstCaseDemand(ref, theta, 0)
	q := ref.Quantile(theta)
	return CheckResult{
		Name:         "wcde/delta-zero",
		OK:           e.Bin == q,
		MaxViolation: math.Abs(float64(e.Bin - q)),
		Detail:       fmt.Sprintf("delta 0: bin %d, reference upper quantile bin %d", e.Bin, q),
	}
}

func checkMonotoneDelta(ref *PMF, theta, delta float64) CheckResult {
	ds := []float64{0, delta / 4, delta / 2, delta, 2 * delta, delta + 0.5, delta + 1}
	slices.Sort(ds)
	return monotoneEta("wcde/monotone-in-delta", "delta", ds, func(d float64) (Estimate, error) {
		return WorstCaseDemand(ref, theta, d)
	})
}

func checkMonotoneTheta(ref *PMF, theta, delta float64) CheckResult {
	ts := []float64{theta / 4, theta / 2, theta, (1 + theta) / 2, (3 + theta) / 4}
	return monotoneEta("wcde/monotone-in-theta", "theta", ts, func(t float64) (Estimate, error) {
		return WorstCaseDemand(ref, t, delta)
	})
}

func monotoneEta(name, param string, xs []float64, f func(float64) (Estimate, error)) CheckResult {
	c := CheckResult{Name: name, OK: true}
	etas := make([]int64, len(xs))
	for i, x := range xs {
		e, err := f(x)
		if err != nil {
			c.OK, c.MaxViolation = false, math.Inf(1)
			c.Detail = err.Error()
			return c
		}
		etas[i] = e.Eta
		if i > 0 && etas[i] < etas[i-1] {
			c.OK = false
			c.MaxViolation = math.Max(c.MaxViolation, float64(etas[i-1]-etas[i]))
		}
	}
	c.Detail = fmt.Sprintf("eta at %s %v: %v", param, fmtFloats(xs), etas)
	return c
}

func checkWorstCase(ref *PMF, theta, delta float64) CheckResult {
	c := CheckResult{Name: "wcde/worst-case-distribution"}
	p, e, err := WorstCaseDistribution(ref, theta, delta)
	if err != nil || p == nil {
		c.MaxViolation = math.Inf(1)
		c.Detail = fmt.Sprintf("no worst-case distribution: %v", err)
		return c
	}
	var sum, below float64
	for l, q := range p {
		sum += q
		if l < e.Bin {
			below += q
		}
	}
	kl, _ := ref.KL(p)
	c.MaxViolation = max(math.Abs(sum-1), kl-delta, below-theta, 0)
	c.OK = math.Abs(sum-1) <= MassTol && kl <= delta+REMTol*math.Max(1, delta) && below <= theta+MassTol
	c.Detail = fmt.Sprintf("p*: mass %.15g, KL %.6g (delta %.6g), mass below bin %d: %.15g (theta %.6g)", sum, kl, delta, e.Bin, below, theta)
	return c
}

func fmtFloats(xs []float64) string {
	s := "["
	for i, x := range xs {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.4g", x)
	}
	return s + "]"
}

// CrossCheckDemands runs CrossCheck on every job of ds that has a runtime, at the
// parameters that produced them, and checks that each job's η is its WCDE answer (at
// least 1). Names are prefixed with the job: "rs/<id>/wcde/bisection-vs-scan". This is
// what verify runs on an RS solution.
func CrossCheckDemands(ds []JobDemand, p Params) ([]CheckResult, error) {
	var out []CheckResult
	for _, d := range ds {
		if !d.HasRuntime() {
			continue
		}
		checks, err := CrossCheck(d.Reference.PMF, p.Theta, p.Delta)
		if err != nil {
			return nil, fmt.Errorf("rs: job %q: %w", d.ID, err)
		}
		e, err := WorstCaseDemand(d.Reference.PMF, p.Theta, p.Delta)
		if err != nil {
			return nil, fmt.Errorf("rs: job %q: %w", d.ID, err)
		}
		want := max(e.Eta, 1)
		checks = append(checks, CheckResult{
			Name:         "rs/eta",
			OK:           d.Eta == want,
			MaxViolation: math.Abs(float64(d.Eta - want)),
			Detail:       fmt.Sprintf("scheduled demand %d, WCDE %d (at least 1)", d.Eta, e.Eta),
		})
		for i := range checks {
			checks[i].Name = "rs/" + d.ID + "/" + strings.TrimPrefix(checks[i].Name, "rs/")
		}
		out = append(out, checks...)
	}
	return out, nil
}
