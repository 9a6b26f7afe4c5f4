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
	return benchTASLevels(n, T, C, maxEta, 5, 2, seed)
}

// benchTASLevels is benchTAS with utilities starting at top..top+4 and dropping by
// 0..maxDrop per slot (never below 0).
func benchTASLevels(n, T, C, maxEta, top, maxDrop int, seed uint64) tasInstance {
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
		v := top + r.IntN(5)
		for s := range row {
			v = max(v-r.IntN(maxDrop+1), 0)
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
// 93% of the capacity of 12 slots is demanded; light: 40%; coarse: light with utilities
// 0..4, where exponential weights apply) and on 200- and 50-outcome LPs, on
// the named backends compiled in (lp_solve and gonum are left out: they take minutes on
// these sizes). Every solve has a 60 s time limit as a safety net; a configuration that
// hits it, or that refuses the instance (exponential weights out of range), is skipped
// with the reason. solves/op counts backend calls.
func BenchmarkLexmax(b *testing.B) {
	type family struct {
		name     string
		backends []string
		build    func() (*model.Model, []model.Expr)
		skip     map[string]string // configuration → why it is not timed here
	}
	// Ordered outcomes on the LP grows by 201 columns and rows per step (40,000 of each by
	// k = 200); with HiGHS the first 152 steps took 828 s of solver time, so it is timed
	// on lp50 instead.
	slowOrdered := map[string]string{
		"ordered":          "O(n²) rows; see lp50",
		"ordered-outcomes": "O(n²) rows; see lp50",
		"ordered-cold":     "O(n²) rows; see lp50",
	}
	families := []family{
		{"tas20", []string{"highs"}, func() (*model.Model, []model.Expr) { return buildTAS(benchTAS(20, 12, 10, 10, 1)) }, nil},
		{"tas20light", []string{"highs"}, func() (*model.Model, []model.Expr) { return buildTAS(benchTAS(20, 12, 10, 4, 1)) }, nil},
		// Utilities 0..4 (5 values): exponential weights fit (4·log10 21 = 5.3 orders).
		{"tas20coarse", []string{"highs"}, func() (*model.Model, []model.Expr) {
			return buildTAS(benchTASLevels(20, 12, 10, 4, 0, 1, 1))
		}, nil},
		{"lp200", []string{"highs", "simplex"}, func() (*model.Model, []model.Expr) { return benchLP(200, 1) }, slowOrdered},
		{"lp50", []string{"highs", "simplex"}, func() (*model.Model, []model.Expr) { return benchLP(50, 1) }, nil},
	}
	for _, f := range families {
		for _, name := range f.backends {
			s, err := solvers.Get(name)
			if err != nil {
				continue // not compiled into this build
			}
			configs := allConfigs()
			if f.skip != nil || f.name == "lp50" {
				// Cold-start twins on the LPs: how much the warm starts give.
				configs = append(configs,
					lexmax.Options{Method: lexmax.Ordered, NoWarmStart: true},
					lexmax.Options{Method: lexmax.WaterFill, Saturation: lexmax.Duals, NoWarmStart: true},
					lexmax.Options{Method: lexmax.WaterFill, Saturation: lexmax.Probe, NoWarmStart: true})
			}
			for _, opt := range configs {
				opt.Solver.TimeLimit = 60 * time.Second
				b.Run(f.name+"/"+s.Name()+"/"+configName(opt), func(b *testing.B) {
					if why, ok := f.skip[configName(opt)]; ok {
						b.Skip(why)
					}
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
