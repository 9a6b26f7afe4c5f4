package lexmax

import (
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// oneHotSet reports whether every outcome of set is one-hot (finitely many values,
// linear in its binaries), which the ordered-values form needs.
func (st *state) oneHotSet(set []int) bool {
	for _, i := range set {
		if st.info[i].oneHot == nil {
			return false
		}
	}
	return true
}

// orderedValues is Ogryczak & Śliwiński's ordered-values form of the same sequential
// method, for outcomes with finitely many values. Let g = 0..m−1 be the ranks of the
// distinct values the outcomes of set can take and N_g(x) = #{i : rank(u_i(x)) ≤ g}.
// Sorted vectors compare lexicographically as their counts (N_0, N_1, …) compare in
// reverse: a is better than b exactly when, at the smallest value where the counts differ,
// a has fewer outcomes at or below it. So it minimizes, for g = 0..m−2,
//
//	H_g = Σ_{h ≤ g} N_h = Σ_i (g + 1 − rank(u_i))⁺
//
// and freezes H_g ≤ H_g*. For one-hot outcomes u_i = c + Σ_s a_s·w_s every H_g is linear
// in the binaries, with no auxiliary variables, so each step is the model itself with one
// more objective: its LP relaxation is the model's, far tighter than the t/d form of
// ordered outcomes on scheduling MIPs. H_g is an integer, so the freeze H_g ≤ H_g* + ½ is
// exact. Steps: at most m − 1 (distinct values − 1) instead of |set|.
//
// Implied steps: N_h ≥ L_h := #{i : rank(ub_i) ≤ h} for every feasible point (an outcome
// cannot be above its upper bound). When the solution of step g has N_h(x) = L_h for
// h = g+1..g', those steps are implied, and one freeze of H_{g'} replaces the freezes of
// g..g' (H_{g'} ≤ H_{g'}* with N_h ≥ L_h forces H_h ≤ H_h* for every h < g').
//
// lo is a known lower bound on every outcome of set (after a water-filling stall, the
// level held by rows of l), or −Inf: values below it are left out of the ranks.
func (st *state) orderedValues(l *lp, set []int, lo float64, prev *solvers.Solution) ([]float64, *solvers.Solution, error) {
	// Ranks of the values the outcomes of set can take.
	var all []float64
	for _, i := range set {
		all = append(all, st.oneHotValues(i)...)
	}
	all = slices.DeleteFunc(all, func(v float64) bool { return v < lo })
	rm := st.newRankMapOf(all)
	m := len(rm.starts)
	last := prev
	var x []float64
	if prev != nil {
		x = prev.X
	}
	if m <= 1 {
		if x == nil {
			// A single possible value: any feasible point will do.
			l.setObjective(model.Minimize, nil, nil)
			sol, err := st.solve("values", 0, l, nil)
			if err != nil {
				return nil, nil, err
			}
			return sol.X, sol, nil
		}
		return x, last, nil
	}
	// Lower bounds L_h on the counts.
	lower := make([]int, m)
	for _, i := range set {
		if ub := st.info[i].ub; ub >= lo {
			for h := rm.rank(ub); h < m; h++ {
				lower[h]++
			}
		} else {
			for h := range m {
				lower[h]++
			}
		}
	}
	counts := func(x []float64) []int {
		n := make([]int, m)
		for _, i := range set {
			v := st.outs[i].eval(x)
			r := rm.rank(v + st.tol(v)) // a binary at 1 − 1e-6 must not drop v a rank
			for h := max(r, 0); h < m; h++ {
				n[h]++
			}
		}
		return n
	}
	for g := 0; g < m-1; {
		cols, coefs, constant := st.shortfall(set, rm, g)
		l.setObjective(model.Minimize, cols, coefs)
		sol, err := st.solve("values", g, l, l.extendBasis(l.basis, nil, nil))
		if err != nil {
			return nil, nil, fmt.Errorf("lexmax: ordered values, step %d of %d: %w", g+1, m-1, err)
		}
		last, x = sol, sol.X
		n := counts(x)
		h := g
		for h+1 < m-1 && n[h+1] <= lower[h+1] {
			h++
		}
		if h > g {
			st.note("ordered values: steps implied by the outcomes' upper bounds were skipped")
		}
		if h == m-2 {
			break
		}
		if h > g {
			cols, coefs, constant = st.shortfall(set, rm, h)
		}
		hx := 0
		for _, c := range n[:h+1] {
			hx += c
		}
		l.addRow(cols, coefs, -inf, float64(hx)-constant+0.5, fmt.Sprintf("lexmax_values[%d]", h))
		g = h + 1
	}
	return x, last, nil
}

// oneHotValues lists the values one-hot outcome i can take.
func (st *state) oneHotValues(i int) []float64 {
	o, oh := st.outs[i], st.info[i].oneHot
	var vs []float64
	if oh.none {
		vs = append(vs, o.c)
	}
	for k, ok := range oh.possible {
		if ok {
			vs = append(vs, o.c+o.val[k])
		}
	}
	return vs
}

// shortfall returns H_g = Σ_i (g + 1 − rank(u_i))⁺ over set as Σ coefs·x[cols] + constant,
// for one-hot outcomes: binary w_s contributes the shortfall of its value minus that of
// the value c taken when no binary is 1.
func (st *state) shortfall(set []int, rm rankMap, g int) (cols []int, coefs []float64, constant float64) {
	sf := func(v float64) float64 {
		return math.Max(0, float64(g+1-max(rm.rank(v), 0)))
	}
	acc := map[int]float64{}
	for _, i := range set {
		o, oh := st.outs[i], st.info[i].oneHot
		base := 0.0
		if oh.none {
			base = sf(o.c)
			constant += base
		}
		for k, ok := range oh.possible {
			if ok {
				acc[o.idx[k]] += sf(o.c+o.val[k]) - base
			}
		}
	}
	for j, c := range acc {
		if c != 0 {
			cols = append(cols, j)
		}
	}
	slices.Sort(cols)
	for _, j := range cols {
		coefs = append(coefs, acc[j])
	}
	return cols, coefs, constant
}
