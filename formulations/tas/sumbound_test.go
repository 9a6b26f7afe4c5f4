package tas

import (
	"context"
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/simplex"
)

// transportLP is SumBound's relaxation written as an LP for an independent solver:
// per job and every slot from its release on, the units x_js, each earning the best
// credit of an option covering s (its own slot inside the window; past it the latest
// chain entry at or before s), at most max_parallel (within the window), η_j units in
// all, within each slot's capacity. Jobs credited elsewhere earn nothing on r.
func transportLP(t *rapid.T, p *problem, r int, credit []int, caps [][]int, window int) float64 {
	m := model.New("transport")
	var obj model.Expr
	load := make([]model.Expr, p.T+1)
	for j := range p.n {
		eta := p.eta[j][r]
		if eta == 0 {
			continue
		}
		gain := make([]float64, p.T+1) // credit per slot; NaN: not covered
		for s := range gain {
			gain[s] = math.NaN()
		}
		direct := make([]bool, p.T+1)
		for s := p.relOf(j, r); s <= p.T; s++ {
			gain[s] = 0
		}
		if credit[j] == r {
			for _, o := range sumOptions(p, newDyadic(p.T), j, r, window) {
				for s := o.lo; s <= o.hi; s++ {
					gain[s] = p.values.at(j, o.lo) / float64(eta)
					direct[s] = o.direct && o.lo-p.relOf(j, r) < window
				}
			}
		}
		var sum model.Expr
		for s := p.relOf(j, r); s <= p.T; s++ {
			ub := float64(eta)
			if direct[s] {
				ub = float64(perSlot(p, caps, j, r))
			}
			x := m.Continuous(0, ub, "")
			obj.AddTerm(x, gain[s])
			sum.AddTerm(x, 1)
			load[s].AddTerm(x, 1)
		}
		m.AddConstr(sum, float64(eta), float64(eta), "")
	}
	if m.NumVars() == 0 {
		return 0
	}
	for s := 1; s <= p.T; s++ {
		if len(load[s].Terms) > 0 {
			m.AddLe(load[s], float64(p.cap[r][s-1]), "")
		}
	}
	m.Maximize(obj)
	prob, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	sv, err := solvers.Get("simplex")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sv.Solve(context.Background(), prob, solvers.Options{})
	if err != nil || sol.Status != solvers.Optimal {
		t.Fatalf("simplex: %v %v", err, sol)
	}
	return sol.Objective
}

// randomResourceReleases draws a first slot per job and resource, or nil.
func randomResourceReleases(t *rapid.T, in *sched.Instance) [][]int {
	if !rapid.Bool().Draw(t, "per-resource releases") {
		return nil
	}
	rr := make([][]int, len(in.Jobs))
	for j := range rr {
		rr[j] = make([]int, len(in.Resources))
		for r := range rr[j] {
			rr[j][r] = rapid.IntRange(1, in.Horizon).Draw(t, "rr")
		}
	}
	return rr
}

// bruteForceSum is the largest Σ U_j(d_j) over every vector of feasible completion
// slots (enumerated, feasibility checked by Ford–Fulkerson with the per-resource
// releases rr, which may be nil).
func bruteForceSum(in *sched.Instance, rr [][]int) float64 {
	best := math.Inf(-1)
	enumerateFeasible(in, rr, func(d []int) {
		sum := 0.0
		for j := range d {
			sum += in.Jobs[j].Utility.At(d[j])
		}
		best = max(best, sum)
	})
	return best
}

// TestSumBound: on random instances (release times, per-resource releases, caps per
// job and per job and resource, several resources, every utility kind) the bound is at
// least the best sum of any feasible schedule (enumeration, small instances) and the
// lexmax's sum; it is the optimum of its transportation relaxation, solved
// independently as an LP by the simplex backend (the flow's value and the Lagrangian
// bound at its prices both equal it); and a narrow window only loosens it.
func TestSumBound(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		o := genOpts{maxJobs: 6, maxSlots: 8, maxCap: 4, maxDemand: 6, utility: "mixed", resources: 2,
			release: rapid.Bool().Draw(rt, "release"), maxPar: rapid.Bool().Draw(rt, "maxpar"), varyCap: true, feasible: true}
		in := genSpec(rt, o).instance()
		rr := randomResourceReleases(rt, in)
		lex, err := OnionPeel(context.Background(), in, Options{NoSchedule: true, ResourceRelease: rr})
		if err != nil {
			return // infeasible
		}
		var caps [][]int
		if rapid.Bool().Draw(rt, "caps per resource") {
			caps = make([][]int, len(in.Jobs))
			for j := range caps {
				caps[j] = make([]int, len(in.Resources))
				for r := range caps[j] {
					caps[j][r] = rapid.IntRange(0, 3).Draw(rt, "cap")
				}
			}
		}
		window := rapid.IntRange(1, 10).Draw(rt, "window")
		res, err := SumBound(context.Background(), in, SumOptions{Window: window, ResourceRelease: rr, MaxParallel: caps})
		if errors.Is(err, ErrInfeasible) && caps != nil {
			return // the per-resource caps leave no room
		}
		if err != nil {
			rt.Fatalf("%v\n%s rr %v caps %v window %d", err, describe(in), rr, caps, window)
		}
		if res.Method != "transportation" {
			rt.Fatalf("method %q", res.Method)
		}
		lexSum := 0.0
		for _, v := range lex.Levels {
			lexSum += v
		}
		if caps == nil && res.Bound < lexSum {
			rt.Fatalf("sum bound %v below the lexmax's sum %v", res.Bound, lexSum)
		}
		if len(in.Jobs) <= 4 && in.Horizon <= 6 && caps == nil {
			if best := bruteForceSum(in, rr); res.Bound < best {
				rt.Fatalf("sum bound %v below the best feasible sum %v\n%s", res.Bound, best, describe(in))
			}
		}
		p, _ := newProblem(in)
		if err := p.setResourceReleases(rr); err != nil {
			rt.Fatal(err)
		}
		credit := make([]int, p.n)
		lp := 0.0
		for j := range credit {
			credit[j] = 0
			for r := range p.R {
				if p.eta[j][r] > p.eta[j][credit[j]] {
					credit[j] = r
				}
			}
		}
		for r := range p.R {
			lp += transportLP(rt, p, r, credit, caps, window)
		}
		tol := 1e-7 * (1 + math.Abs(lp))
		if res.Bound < lp-tol || res.Primal > lp+tol || res.Bound-res.Primal > 2*tol {
			rt.Fatalf("LP optimum %v; flow %v, Lagrangian bound %v\n%s", lp, res.Primal, res.Bound, describe(in))
		}
		wide, err := SumBound(context.Background(), in, SumOptions{Window: 1000, ResourceRelease: rr, MaxParallel: caps})
		if errors.Is(err, ErrInfeasible) && caps != nil {
			return // the caps, now on every slot, leave no room
		}
		if err != nil {
			rt.Fatal(err)
		}
		if wide.Bound > res.Bound+tol {
			rt.Fatalf("window 1000: %v above window %d: %v", wide.Bound, window, res.Bound)
		}
	})
}
