package mip_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/mip"
	"github.com/coraopt/coraopt/solvers/simplex"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// smallIP is a pure integer program small enough to enumerate: every column boxed in a
// few integers, except for an optional ray column (see randomIP).
type smallIP struct {
	sense  model.Sense
	offset float64
	c      []float64
	lo, up []float64
	a      [][]float64 // dense rows
	rl, ru []float64
	// cont[j]: column j is continuous (boxed in [0, up]).
	cont []bool
	// ray ≥ 0: column ray has lower bound 0, no upper bound, a cost that improves as it
	// grows, and row coefficients that only help as it grows; −1: none.
	ray int
}

func (ip smallIP) String() string {
	return fmt.Sprintf("sense %v offset %g c %v lo %v up %v A %v rows [%v, %v] cont %v ray %d", ip.sense, ip.offset, ip.c, ip.lo, ip.up, ip.a, ip.rl, ip.ru, ip.cont, ip.ray)
}

func (ip smallIP) problem() *model.Problem {
	n, m := len(ip.c), len(ip.a)
	p := &model.Problem{Name: "random_ip", Sense: ip.sense, Offset: ip.offset,
		ColCost: append([]float64(nil), ip.c...), ColLower: append([]float64(nil), ip.lo...), ColUpper: append([]float64(nil), ip.up...),
		RowLower: append([]float64(nil), ip.rl...), RowUpper: append([]float64(nil), ip.ru...),
		Integrality: make([]bool, n), AStart: make([]int, n+1)}
	for j := range n {
		p.Integrality[j] = j >= len(ip.cont) || !ip.cont[j]
		for i := range m {
			if v := ip.a[i][j]; v != 0 {
				p.AIndex = append(p.AIndex, i)
				p.AValue = append(p.AValue, v)
			}
		}
		p.AStart[j+1] = len(p.AIndex)
	}
	return p
}

// randomIP draws a small pure integer program: bounded ones (every column boxed), with
// rows tight enough that many are infeasible; with probability 1/4 it adds a ray column,
// which makes the program unbounded exactly when it is feasible.
func randomIP(t *rapid.T, mixed bool) smallIP {
	// Mixed programs solve an LP per integer point in the oracle: fewer, narrower columns.
	maxN, maxW := 5, 4
	if mixed {
		maxN, maxW = 3, 2
	}
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	m := rapid.IntRange(0, 4).Draw(t, "m")
	ip := smallIP{sense: model.Minimize, ray: -1}
	if rapid.Bool().Draw(t, "max") {
		ip.sense = model.Maximize
	}
	ip.offset = float64(rapid.IntRange(-2, 2).Draw(t, "offset"))
	for range n {
		lo := rapid.IntRange(-3, 2).Draw(t, "lo")
		ip.lo = append(ip.lo, float64(lo))
		ip.up = append(ip.up, float64(lo+rapid.IntRange(0, maxW).Draw(t, "width")))
		ip.c = append(ip.c, float64(rapid.IntRange(-9, 9).Draw(t, "c"))/float64(rapid.IntRange(1, 3).Draw(t, "cden")))
	}
	ip.a = make([][]float64, m)
	for i := range m {
		ip.a[i] = make([]float64, n)
		for j := range n {
			if rapid.IntRange(0, 2).Draw(t, "nz") > 0 {
				ip.a[i][j] = float64(rapid.IntRange(-7, 7).Draw(t, "a"))
			}
		}
		// Half-integral right-hand sides make parity matter, so LP-feasible, IP-infeasible
		// programs occur.
		b := float64(rapid.IntRange(-12, 12).Draw(t, "b")) / float64(rapid.IntRange(1, 2).Draw(t, "bden"))
		switch rapid.IntRange(0, 3).Draw(t, "rowtype") {
		case 0:
			ip.rl, ip.ru = append(ip.rl, math.Inf(-1)), append(ip.ru, b)
		case 1:
			ip.rl, ip.ru = append(ip.rl, b), append(ip.ru, math.Inf(1))
		case 2:
			ip.rl, ip.ru = append(ip.rl, b), append(ip.ru, b)
		default:
			ip.rl, ip.ru = append(ip.rl, b), append(ip.ru, b+float64(rapid.IntRange(0, 6).Draw(t, "range")))
		}
	}
	if mixed {
		// Continuous columns in [0, u], each tied to a binary column by a variable upper
		// bound row x ≤ u·y (the structure of fixed-charge models).
		for range rapid.IntRange(1, 2).Draw(t, "ncont") {
			u := float64(rapid.IntRange(1, 6).Draw(t, "cu"))
			y := len(ip.c)
			ip.lo, ip.up = append(ip.lo, 0, 0), append(ip.up, 1, u)
			ip.c = append(ip.c, float64(rapid.IntRange(-4, 6).Draw(t, "fixcost")), float64(rapid.IntRange(-5, 5).Draw(t, "ccost"))/2)
			ip.cont = append(ip.cont, false, true)
			for i := range ip.a {
				ip.a[i] = append(ip.a[i], 0, float64(rapid.IntRange(-3, 3).Draw(t, "ca")))
			}
			row := make([]float64, len(ip.c))
			row[y], row[y+1] = -u, 1
			ip.a = append(ip.a, row)
			ip.rl, ip.ru = append(ip.rl, math.Inf(-1)), append(ip.ru, 0)
		}
		for len(ip.cont) < len(ip.c) {
			ip.cont = append(ip.cont, false)
		}
	}
	if rapid.IntRange(0, 3).Draw(t, "hasray") == 0 {
		k := len(ip.c)
		ip.ray = k
		ip.lo, ip.up = append(ip.lo, 0), append(ip.up, math.Inf(1))
		cost := -float64(rapid.IntRange(1, 3).Draw(t, "raycost"))
		if ip.sense == model.Maximize {
			cost = -cost
		}
		ip.c = append(ip.c, cost)
		for i := range ip.a {
			var v float64
			switch {
			case math.IsInf(ip.rl[i], -1): // a ≤ row: a negative coefficient helps
				v = -float64(rapid.IntRange(0, 3).Draw(t, "raycoef"))
			case math.IsInf(ip.ru[i], 1): // a ≥ row
				v = float64(rapid.IntRange(0, 3).Draw(t, "raycoef"))
			}
			ip.a[i] = append(ip.a[i], v)
		}
		if ip.cont != nil {
			ip.cont = append(ip.cont, false)
		}
	}
	return ip
}

// enumerate is the oracle: it visits every integer point of the box. Without a ray column
// it returns the status and optimum; with one, the program is unbounded if some point of
// the other columns meets the rows in which the ray column does not appear (the others
// are met for a large enough ray value, which also improves the objective without end),
// and infeasible otherwise.
func enumerate(ip smallIP) (solvers.Status, float64) {
	n := len(ip.c)
	x := make([]float64, n)
	best, found := math.Inf(1), false
	sense := float64(ip.sense)
	var visit func(j int)
	visit = func(j int) {
		if j == ip.ray {
			x[j] = 0
			visit(j + 1)
			return
		}
		if j < len(ip.cont) && ip.cont[j] {
			visit(j + 1)
			return
		}
		if j == n && len(ip.cont) > 0 && slices.Contains(ip.cont, true) {
			if obj, ok := continuousPart(ip, x); ok {
				found = true
				best = math.Min(best, sense*obj)
			}
			return
		}
		if j == n {
			for i, row := range ip.a {
				if ip.ray >= 0 && row[ip.ray] != 0 {
					continue
				}
				act := 0.0
				for k, v := range row {
					act += v * x[k]
				}
				if act < ip.rl[i] || act > ip.ru[i] {
					return
				}
			}
			found = true
			obj := ip.offset
			for k, c := range ip.c {
				obj += c * x[k]
			}
			best = math.Min(best, sense*obj)
			return
		}
		for v := ip.lo[j]; v <= ip.up[j]; v++ {
			x[j] = v
			visit(j + 1)
		}
	}
	visit(0)
	switch {
	case !found:
		return solvers.Infeasible, 0
	case ip.ray >= 0:
		return solvers.Unbounded, 0
	}
	return solvers.Optimal, sense * best
}

var configs = []struct {
	name string
	new  func() *mip.Solver
}{
	{"default", mip.New},
	{"bare", func() *mip.Solver {
		return &mip.Solver{NoPresolve: true, NoCuts: true, NoHeuristics: true, Branching: mip.MostFractional}
	}},
	{"most_fractional", func() *mip.Solver { return &mip.Solver{Branching: mip.MostFractional} }},
}

// TestAgreesWithEnumeration: on random small integer programs (bounded, infeasible and
// unbounded ones) every configuration returns the status enumeration finds and, for an
// optimum, its value with a feasible integral point and a bound that does not cut it off.
func TestAgreesWithEnumeration(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ip := randomIP(rt, rapid.Bool().Draw(rt, "mixed"))
		wantStatus, want := enumerate(ip)
		for _, cfg := range configs {
			p := ip.problem()
			sol, err := cfg.new().Solve(context.Background(), p, solvers.Options{})
			if err != nil {
				rt.Fatalf("%s: %v on %v", cfg.name, err, ip)
			}
			if sol.Status != wantStatus {
				rt.Fatalf("%s: status %v, enumeration %v (objective %g) on %v", cfg.name, sol.Status, wantStatus, want, ip)
			}
			if wantStatus != solvers.Optimal {
				if sol.X != nil {
					rt.Fatalf("%s: %v with a point", cfg.name, sol.Status)
				}
				continue
			}
			if math.Abs(sol.Objective-want) > 1e-6*math.Max(1, math.Abs(want)) {
				rt.Fatalf("%s: objective %.10g, enumeration %.10g on %v", cfg.name, sol.Objective, want, ip)
			}
			if err := solvertest.CheckPrimal(p, sol, solvertest.DefaultTolerances()); err != nil {
				rt.Fatalf("%s: %v on %v", cfg.name, err, ip)
			}
			for j, v := range sol.X {
				if p.Integrality[j] && v != math.Round(v) {
					rt.Fatalf("%s: x[%d] = %v is not an exact integer", cfg.name, j, v)
				}
			}
			if float64(p.Sense)*(sol.BestBound-want) > 1e-6*math.Max(1, math.Abs(want)) {
				rt.Fatalf("%s: bound %g cuts off the optimum %g", cfg.name, sol.BestBound, want)
			}
		}
	})
}

// TestNodeLimitKeepsAnswersHonest: with a node limit of one or two, or an iteration limit
// of a few simplex iterations, any answer is either
// the optimum or a limit whose point (if any) is feasible and no better than the optimum
// and whose bound is no worse than it.
func TestNodeLimitKeepsAnswersHonest(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ip := randomIP(rt, rapid.Bool().Draw(rt, "mixed"))
		wantStatus, want := enumerate(ip)
		// Either a node limit of one or two, or a limit of a few simplex iterations.
		var sv mip.Solver
		var opt solvers.Options
		if rapid.Bool().Draw(rt, "iterations") {
			opt.IterationLimit = rapid.IntRange(1, 6).Draw(rt, "iters")
		} else {
			sv.NodeLimit = rapid.IntRange(1, 2).Draw(rt, "nodes")
		}
		p := ip.problem()
		sol, err := sv.Solve(context.Background(), p, opt)
		if err != nil {
			rt.Fatal(err)
		}
		if sol.Status != solvers.IterationLimit {
			if sol.Status != wantStatus {
				rt.Fatalf("status %v, enumeration %v on %v", sol.Status, wantStatus, ip)
			}
			return
		}
		if wantStatus == solvers.Unbounded {
			return
		}
		sense := float64(p.Sense)
		if sol.X != nil {
			if wantStatus != solvers.Optimal {
				rt.Fatalf("a point for an infeasible program: %v", ip)
			}
			if err := solvertest.CheckPrimal(p, sol, solvertest.DefaultTolerances()); err != nil {
				rt.Fatal(err)
			}
			if sense*(sol.Objective-want) < -1e-9 {
				rt.Fatalf("incumbent %g better than the optimum %g", sol.Objective, want)
			}
		}
		if wantStatus == solvers.Optimal && sense*(sol.BestBound-want) > 1e-6*math.Max(1, math.Abs(want)) {
			rt.Fatalf("bound %g cuts off the optimum %g", sol.BestBound, want)
		}
	})
}

// continuousPart solves the LP over the continuous columns of ip with the integer ones
// fixed at x (a tiny LP, solved by the plain simplex), skipping the rows the ray column
// appears in; it returns the objective (offset included) and whether the LP is feasible.
func continuousPart(ip smallIP, x []float64) (float64, bool) {
	q := ip
	q.lo, q.up = slices.Clone(ip.lo), slices.Clone(ip.up)
	q.a, q.rl, q.ru = nil, nil, nil
	for i, row := range ip.a {
		if ip.ray >= 0 && row[ip.ray] != 0 {
			continue
		}
		q.a, q.rl, q.ru = append(q.a, row), append(q.rl, ip.rl[i]), append(q.ru, ip.ru[i])
	}
	for j := range x {
		if !ip.cont[j] {
			q.lo[j], q.up[j] = x[j], x[j]
		}
	}
	p := q.problem()
	p.Integrality = nil
	sol, err := simplex.New().Solve(context.Background(), p, solvers.Options{})
	if err != nil || sol.Status != solvers.Optimal {
		return 0, false
	}
	return sol.Objective, true
}
