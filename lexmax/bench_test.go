package lexmax_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// benchTAS draws an n-job TAS instance on T slots of capacity C (seeded): demands
// 1..maxEta, integer utility tables starting at 5..9 and dropping by 0..2 per slot — ties
// included, as in the paper's step and linear utilities.
func benchTAS(n, T, C, maxEta int, seed uint64) tasInstance {
	r := rand.New(rand.NewPCG(seed, 0x7a5))
	in := tasInstance{C: C, T: T}
	room := C * T
	for i := range n {
		eta := 1 + r.IntN(maxEta)
		eta = min(eta, room-(n-1-i))
		in.Eta = append(in.Eta, eta)
		room -= eta
	}
	for range n {
		row := make([]int, T)
		v := 5 + r.IntN(5)
		for s := range row {
			v = max(v-r.IntN(3), 0)
			row[s] = v
		}
		in.U = append(in.U, row)
	}
	return in
}

// benchLP is a max-min fair allocation LP with n outcomes (seeded): n/4 shared links of
// random capacity, each flow x_j on two random links with random usage, its own cap, and
// outcome u_j = w_j·x_j. Many distinct levels, as in max-min fair bandwidth sharing.
func benchLP(n int, seed uint64) (*model.Model, []model.Expr) {
	r := rand.New(rand.NewPCG(seed, 0x1f))
	m := model.New("fair")
	links := max(2, n/4)
	x := make([]model.Var, n)
	use := make([]model.Expr, links)
	outs := make([]model.Expr, n)
	for j := range n {
		x[j] = m.Continuous(0, 5+10*r.Float64(), fmt.Sprintf("x%d", j))
		a, b := r.IntN(links), r.IntN(links)
		use[a].AddTerm(x[j], 0.5+r.Float64())
		if b != a {
			use[b].AddTerm(x[j], 0.5+r.Float64())
		}
		outs[j] = x[j].Mul(0.5 + r.Float64())
	}
	for l := range links {
		m.AddLe(use[l], 5+20*r.Float64(), fmt.Sprintf("link%d", l))
	}
	return m, outs
}

// BenchmarkLexmax times each method and saturation test on 20-job TAS-like MIPs (tight:
// 93% of the capacity of 12 slots is demanded; light: 38%) and on a 200-outcome LP, on
// the named backends compiled in (lp_solve and gonum are left out: they take minutes on
// these sizes). Every solve has a 60 s time limit as a safety net; a configuration that
// hits it, or that refuses the instance (exponential weights out of range), is skipped
// with the reason. solves/op counts backend calls.
func BenchmarkLexmax(b *testing.B) {
	type family struct {
		name     string
		backends []string
		build    func() (*model.Model, []model.Expr)
	}
	families := []family{
		{"tas20", []string{"highs"}, func() (*model.Model, []model.Expr) { return buildTAS(benchTAS(20, 12, 10, 10, 1)) }},
		{"tas20light", []string{"highs"}, func() (*model.Model, []model.Expr) { return buildTAS(benchTAS(20, 12, 10, 4, 1)) }},
		{"lp200", []string{"highs", "simplex"}, func() (*model.Model, []model.Expr) { return benchLP(200, 1) }},
	}
	for _, f := range families {
		for _, name := range f.backends {
			s, err := solvers.Get(name)
			if err != nil {
				continue // not compiled into this build
			}
			for _, opt := range allConfigs() {
				opt.Solver.TimeLimit = 60 * time.Second
				b.Run(f.name+"/"+s.Name()+"/"+configName(opt), func(b *testing.B) {
					var res *lexmax.Result
					for b.Loop() {
						m, outs := f.build()
						var err error
						res, err = lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
						if err != nil {
							b.Skipf("%v", err)
						}
					}
					b.ReportMetric(float64(res.Solves), "solves/op")
					if res.HandedOver {
						b.ReportMetric(float64(res.FrozenAtHandover), "frozen-at-handover")
					}
				})
			}
		}
	}
}
