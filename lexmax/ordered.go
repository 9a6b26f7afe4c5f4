package lexmax

import (
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

var inf = math.Inf(1)

// addOutcomeCols adds a free column y_i and the row y_i − Σ a·x = c for every outcome, so
// that every later row refers to an outcome through one column.
func (st *state) addOutcomeCols(l *lp) []int {
	y := make([]int, len(st.outs))
	for i, o := range st.outs {
		y[i] = l.addCol(-inf, inf, false, "lexmax_y["+st.name(i)+"]")
		idx := append([]int{y[i]}, o.idx...)
		val := make([]float64, 1, len(idx))
		val[0] = 1
		for _, a := range o.val {
			val = append(val, -a)
		}
		l.addRow(idx, val, o.c, o.c, "lexmax_def["+st.name(i)+"]")
	}
	return y
}

// value is the outcome's value at x (a point of an lp built by addOutcomeCols) for the
// purpose of freezing: the smaller of u_i(x) and y_i, so that the point itself satisfies
// every freeze built from it whichever of the two the backend rounded down.
func (st *state) value(i int, y []int, x []float64) float64 {
	return math.Min(st.outs[i].eval(x), x[y[i]])
}

func (st *state) solveOrdered() ([]float64, *solvers.Solution, error) {
	l := newLP(st.base)
	set := make([]int, len(st.outs))
	for i := range set {
		set[i] = i
	}
	if !st.opt.OutcomesForm && st.oneHotSet(set) {
		st.res.Form = "values"
		return st.orderedValues(l, set, math.Inf(-1), nil)
	}
	st.res.Form = "outcomes"
	y := st.addOutcomeCols(l)
	return st.ordered(l, y, set, 1, nil)
}

// ordered runs the ordered-outcomes method over the outcomes in set (Ogryczak &
// Śliwiński 2006): for k = k0..|set| it maximizes θ_k, the sum of the k smallest
// outcomes, through its linear form
//
//	θ_k = max  k·t − Σ_i d_i   s.t.  d_i ≥ t − y_i,  d_i ≥ 0,
//
// and then freezes k·t − Σ_i d_i ≥ θ_k* − slack on the same t and d. Comparing sorted
// vectors lexicographically is comparing their prefix sums θ_1, θ_2, …, so this is exact
// on any feasible set, convex or not.
//
// Implied steps. Let b be the sorted vector of a-priori upper bounds on the outcomes
// (outcomeInfo.ub: column bounds, tightened for one-hot outcomes). Every feasible point
// has sorted(u) ≤ b componentwise. If the solution x of step k has s_j(x) ≥ b_j − slack
// for j = k+1..m (s = sorted u(x)), then θ_j* = θ_k* + Σ_{k<i≤j} s_i(x) for those j: no
// point does better and x attains it. One freeze at m replaces those of k..m, because
// θ_m ≥ θ_m* together with s_i ≤ b_i implies θ_j ≥ θ_j* for every j < m. So step k+1..m
// are skipped, and when m = |set| the method stops. No other step is implied: ties in x
// alone (s_k(x) = s_{k+1}(x)) say nothing about how far s_{k+1} can rise.
//
// k0 = 2 is used after a water-filling stall, when rows of l already hold every outcome
// of set at ≥ the max-min level. prev is the solution that built l's basis, or nil.
func (st *state) ordered(l *lp, y []int, set []int, k0 int, prev *solvers.Solution) ([]float64, *solvers.Solution, error) {
	m := len(set)
	ub := make([]float64, m)
	for q, i := range set {
		ub[q] = st.info[i].ub
	}
	slices.Sort(ub)
	integral := true
	for _, i := range set {
		integral = integral && st.info[i].integral
	}
	last := prev
	var x []float64
	if prev != nil {
		x = prev.X
	}
	vals := make([]float64, m)
	// relax loosens every freeze row of this run f-fold (for solveRobust).
	type freeze struct {
		row          int
		theta, slack float64
	}
	var freezes []freeze
	relax := func(f float64) {
		for _, fr := range freezes {
			l.rlo[fr.row] = fr.theta - f*fr.slack
			st.res.Tol.MaxSlack = math.Max(st.res.Tol.MaxSlack, f*fr.slack)
		}
	}
	for k := k0; k <= m; {
		nc, nr := l.ncols(), l.nrows()
		prevBasis := l.basis
		t := l.addCol(-inf, inf, false, fmt.Sprintf("lexmax_t[%d]", k))
		cols := make([]int, m+1)
		coefs := make([]float64, m+1)
		cols[0], coefs[0] = t, float64(k)
		for q := range set {
			cols[q+1] = l.addCol(0, inf, false, fmt.Sprintf("lexmax_d[%d,%d]", k, q))
			coefs[q+1] = -1
		}
		for q, i := range set {
			l.addRow([]int{cols[q+1], t, y[i]}, []float64{1, -1, 1}, 0, inf, fmt.Sprintf("lexmax_sum[%d,%d]", k, q))
		}
		l.setObjective(model.Maximize, cols, coefs)

		var start *solvers.Basis
		if st.warm && prevBasis != nil && x != nil && len(prevBasis.Cols) == nc && len(prevBasis.Rows) <= nr {
			// A primal feasible start: t basic at the smallest y, every d at 0, the row of
			// that smallest outcome at its bound, the other new rows basic (slack y_i − t ≥ 0).
			argmin := 0
			for q, i := range set {
				if x[y[i]] < x[y[set[argmin]]] {
					argmin = q
				}
			}
			cs := make([]solvers.BasisStatus, m+1)
			cs[0] = solvers.Basic
			for q := 1; q <= m; q++ {
				cs[q] = solvers.AtLower
			}
			rs := make([]solvers.BasisStatus, nr-len(prevBasis.Rows), nr-len(prevBasis.Rows)+m)
			for q := range rs {
				rs[q] = solvers.Basic
			}
			for q := range m {
				s := solvers.Basic
				if q == argmin {
					s = solvers.AtLower
				}
				rs = append(rs, s)
			}
			start = l.extendBasis(prevBasis, cs, rs)
		}

		var relaxer func(float64)
		if len(freezes) > 0 {
			relaxer = relax
		}
		sol, err := st.solveRobust("ordered", k, l, start, relaxer)
		if err != nil {
			if k > k0 || prev != nil {
				return nil, nil, fmt.Errorf("lexmax: ordered outcomes, step k=%d of %d: %w", k, m, err)
			}
			return nil, nil, err
		}
		last, x = sol, sol.X
		for q, i := range set {
			vals[q] = st.value(i, y, x)
		}
		s := slices.Clone(vals)
		slices.Sort(s)
		theta := 0.0
		for _, v := range s[:k] {
			theta += v
		}
		if sol.Objective > theta+st.tol(theta)*float64(k) {
			st.note("ordered outcomes step %d: the backend's objective %.10g exceeds the sum of the %d smallest outcomes at its point, %.10g; froze the latter", k, sol.Objective, k, theta)
		}
		j := k
		for j < m && s[j] >= ub[j]-st.tol(ub[j]) {
			theta += s[j]
			j++
		}
		if j > k {
			st.note("ordered outcomes: steps implied by the outcomes' upper bounds were skipped")
		}
		if j == m {
			break
		}
		if j > k {
			// Re-point the freeze at j: j·t − Σ d ≥ θ_j* − slack (the rows d_i ≥ t − y_i
			// do not depend on k).
			coefs[0] = float64(j)
		}
		// θ_j is a sum of j outcomes, each known to the tolerance: the slack of its freeze
		// is max(j·AbsTol, RelTol·|θ_j|). With one AbsTol for the whole sum, the rounding
		// of every earlier step stacks up and a 200-outcome LP turned infeasible at k = 37.
		fv := math.Round(theta) - 0.5
		if !integral {
			sl := st.slack(theta, j)
			fv = theta - sl
			freezes = append(freezes, freeze{row: l.nrows(), theta: theta, slack: sl})
		}
		l.addRow(cols, coefs, fv, inf, fmt.Sprintf("lexmax_freeze[%d]", j))
		k = j + 1
	}
	if x == nil {
		return nil, nil, fmt.Errorf("lexmax: ordered outcomes over %d outcomes from k=%d: nothing to solve", m, k0)
	}
	return x, last, nil
}

// tol is the slack of a comparison at v, without recording it as a freeze.
func (st *state) tol(v float64) float64 {
	return math.Max(st.res.Tol.Abs, st.res.Tol.Rel*math.Abs(v))
}
