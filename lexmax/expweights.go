package lexmax

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// maxEncoding caps the binaries added to encode integer-valued outcomes that are not
// already one-hot.
const maxEncoding = 100_000

// float64Orders is log10 of the ratio between 1 and float64's smallest normal number.
var float64Orders = -math.Log10(0x1p-1022)

// WeightPlan is what ExpWeights would use for a problem: the base k, the number m of
// distinct outcome values (ranks), and the span of the weights. It is returned by
// PlanExpWeights so a caller can decide before solving.
type WeightPlan struct {
	Base   float64
	Values int
	Orders float64 // (m−1)·log10(k)
}

// expValues lists, per outcome, the values it can take, or returns a NotApplicableError.
func (st *state) expValues() ([][]float64, error) {
	vals := make([][]float64, len(st.outs))
	total := 0
	for i, o := range st.outs {
		info := st.info[i]
		switch {
		case info.oneHot != nil:
			if info.oneHot.none {
				vals[i] = append(vals[i], o.c)
			}
			for k, ok := range info.oneHot.possible {
				if ok {
					vals[i] = append(vals[i], o.c+o.val[k])
				}
			}
			if len(vals[i]) == 0 {
				return nil, &NotApplicableError{Outcome: i, Name: st.pName(i), Reason: "none of its binaries can be 1 and it has no value without them"}
			}
		case info.intOK:
			size := info.hi - info.lo + 1
			if size < 1 {
				return nil, &NotApplicableError{Outcome: i, Name: st.pName(i), Reason: "its bounds admit no integer value"}
			}
			if float64(total)+size > maxEncoding {
				return nil, &NotApplicableError{Outcome: i, Name: st.pName(i), Reason: fmt.Sprintf("encoding the integer ranges needs more than %d binaries", maxEncoding)}
			}
			total += int(size)
			for v := info.lo; v <= info.hi; v++ {
				vals[i] = append(vals[i], v)
			}
		default:
			why := info.why
			if why == "" {
				why = "it is neither one-hot over binaries nor integer-valued"
			}
			return nil, &NotApplicableError{Outcome: i, Name: st.pName(i), Reason: why + " (exponential weights need a finite set of values)"}
		}
	}
	return vals, nil
}

func (st *state) pName(i int) string {
	if st.p.Names != nil {
		return st.p.Names[i]
	}
	return ""
}

// rankMap groups the distinct values (sorted) so that values within the comparison
// tolerance of a group's first value share its rank.
type rankMap struct {
	starts []float64 // first value of each group, increasing
}

func (st *state) newRankMap(vals [][]float64) rankMap {
	var all []float64
	for _, v := range vals {
		all = append(all, v...)
	}
	return st.newRankMapOf(all)
}

func (st *state) newRankMapOf(all []float64) rankMap {
	all = slices.Clone(all)
	slices.Sort(all)
	var rm rankMap
	for _, v := range all {
		if n := len(rm.starts); n == 0 || v-rm.starts[n-1] > st.tol(rm.starts[n-1]) {
			rm.starts = append(rm.starts, v)
		}
	}
	return rm
}

func (rm rankMap) rank(v float64) int {
	// The group whose start is the largest one ≤ v.
	i, found := slices.BinarySearch(rm.starts, v)
	if found {
		return i
	}
	return i - 1
}

func (st *state) expPlan(vals [][]float64) (WeightPlan, rankMap, error) {
	n := len(st.outs)
	k := st.opt.ExpBase
	if k == 0 {
		k = float64(n + 1)
	}
	if k <= float64(n) {
		return WeightPlan{}, rankMap{}, fmt.Errorf("lexmax: ExpBase %g must exceed the number of outcomes %d (Lemma 1)", k, n)
	}
	rm := st.newRankMap(vals)
	m := len(rm.starts)
	plan := WeightPlan{Base: k, Values: m, Orders: float64(m-1) * math.Log10(k)}
	if plan.Orders > float64Orders {
		return plan, rm, &WeightRangeError{Base: k, Values: m, N: n, Orders: plan.Orders, Resolvable: float64Orders}
	}
	res := st.opt.ExpResolution
	if res == 0 {
		res = DefaultExpResolution
	}
	resolvable := -math.Log10(math.Max(res, float64(n)*0x1p-52))
	if plan.Orders > resolvable {
		return plan, rm, &WeightRangeError{Base: k, Values: m, N: n, Orders: plan.Orders, Resolvable: resolvable, Representable: true}
	}
	return plan, rm, nil
}

// solveExpWeights is CORA's Lemma 1 (cora.txt §II-B, eq. 6) applied to ranks: with
// r(v) ∈ {0..m−1} the rank of value v among the distinct outcome values and k > n,
//
//	min Σ_i k^{−r(u_i)}
//
// is attained exactly at the lexicographic max-min points, because the first sorted
// position where a better vector v exceeds a worse w costs w at least k^{−r} more, while
// the n − j + 1 larger entries of v save at most (n−j+1)·k^{−r−1} < k^{−r}. Only the order
// of the values matters, so ranks replace CORA's integer utilities (with integer values on
// a contiguous range they are the same weights times a constant).
//
// The objective is linear when every outcome is one-hot, u_i = c + Σ_s a_s·w_s with at
// most one w_s = 1 (the TAS MIP's Σ_s U_i(s)·w_is): k^{−r(u_i)} = k^{−r(c)} + Σ_s
// (k^{−r(c+a_s)} − k^{−r(c)})·w_s, the weight on each w_s. Other integer-valued outcomes
// on a bounded range get a one-hot encoding z_iv, Σ_v z_iv = 1, Σ_v v·z_iv = u_i.
func (st *state) solveExpWeights() ([]float64, *solvers.Solution, error) {
	vals, err := st.expValues()
	if err != nil {
		return nil, nil, err
	}
	plan, rm, err := st.expPlan(vals)
	if err != nil {
		return nil, nil, err
	}
	if st.described && !st.caps.MIP {
		return nil, nil, fmt.Errorf("lexmax: exponential weights need a MIP backend; %s solves no MIPs", st.solver.Name())
	}
	weight := func(v float64) float64 { return math.Pow(plan.Base, -float64(rm.rank(v))) }
	l := newLP(st.base)
	var cols []int
	var coefs []float64
	for i, o := range st.outs {
		info := st.info[i]
		if oh := info.oneHot; oh != nil {
			w0 := 0.0
			if oh.none {
				w0 = weight(o.c)
			}
			for k, ok := range oh.possible {
				if ok {
					cols = append(cols, o.idx[k])
					coefs = append(coefs, weight(o.c+o.val[k])-w0)
				}
			}
			continue
		}
		var zs []int
		var vs []float64
		for _, v := range vals[i] {
			z := l.addCol(0, 1, true, fmt.Sprintf("lexmax_z[%s,%g]", st.name(i), v))
			zs, vs = append(zs, z), append(vs, v)
			cols = append(cols, z)
			coefs = append(coefs, weight(v))
		}
		ones := make([]float64, len(zs))
		for q := range ones {
			ones[q] = 1
		}
		l.addRow(zs, ones, 1, 1, "lexmax_onehot["+st.name(i)+"]")
		idx := append(slices.Clone(zs), o.idx...)
		val := slices.Clone(vs)
		for _, a := range o.val {
			val = append(val, -a)
		}
		l.addRow(idx, val, o.c, o.c, "lexmax_value["+st.name(i)+"]")
	}
	l.setObjective(model.Minimize, cols, coefs)
	// The objective must be resolved to below the smallest weight difference.
	wmin := math.Pow(plan.Base, -float64(plan.Values-1))
	saved := st.sopt.MIPGap
	if g := 0.1 * wmin / float64(len(st.outs)); st.sopt.MIPGap == 0 || st.sopt.MIPGap > g {
		st.sopt.MIPGap = math.Max(g, 1e-12)
	}
	st.res.Tol.MIPGap = st.sopt.MIPGap
	sol, err := st.solve("expweights", 0, l, nil)
	st.sopt.MIPGap = saved
	if err != nil {
		return nil, nil, err
	}
	st.note("exponential weights: k=%g over %d distinct values, spanning %.1f orders of magnitude", plan.Base, plan.Values, plan.Orders)
	return sol.X, sol, nil
}

// PlanExpWeights reports the weights ExpWeights would use for p with opt (ExpBase,
// ExpResolution, tolerances), or the *NotApplicableError / *WeightRangeError it would
// return, without solving.
func PlanExpWeights(p Problem, opt Options) (WeightPlan, error) {
	if p.Model == nil || len(p.Outcomes) == 0 {
		return WeightPlan{}, errors.New("lexmax: no model or no outcomes")
	}
	if err := opt.check(); err != nil {
		return WeightPlan{}, err
	}
	base, err := p.Model.Compile()
	if err != nil {
		return WeightPlan{}, fmt.Errorf("lexmax: compiling the model: %w", err)
	}
	outs, err := compileOutcomes(p, base.NumCols())
	if err != nil {
		return WeightPlan{}, err
	}
	st := &state{p: p, base: base, outs: outs, opt: opt, res: &Result{Tol: opt.tolerance()}}
	st.analyzeOutcomes()
	vals, err := st.expValues()
	if err != nil {
		return WeightPlan{}, err
	}
	plan, _, err := st.expPlan(vals)
	return plan, err
}
