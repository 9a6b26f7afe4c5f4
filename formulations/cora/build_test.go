package cora

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
)

// twoJobs is small enough to write the whole FINAL model down: 2 jobs, 2 slots, one
// resource of capacity 3, table utilities.
const twoJobs = `{
  "name": "two jobs",
  "horizon": 2,
  "resources": [{"name": "containers", "capacity": 3}],
  "jobs": [
    {"id": "a", "demand": {"containers": 3}, "utility": {"type": "table", "values": [2, 1]}},
    {"id": "b", "demand": {"containers": 2}, "utility": {"type": "table", "values": [3, 3]}}
  ]
}`

func TestBuildFinalModel(t *testing.T) {
	in := parse(t, twoJobs)
	lp, err := BuildFinal(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := lp.Model.Compile()
	if err != nil {
		t.Fatal(err)
	}
	N, T, R := 2, 2, 1
	if got, want := p.NumCols(), 4*N*T*R; got != want {
		t.Errorf("columns: got %d, want 4|N||T||R| = %d", got, want)
	}
	if got, want := p.NumRows(), 2*N*T*R+T*R+N*R; got != want {
		t.Errorf("rows: got %d, want %d (link and convex per cell, capacity per slot, demand per job)", got, want)
	}
	if lp.K != 4 {
		t.Errorf("k = %v, want |N||T||R| = 4", lp.K)
	}
	if lp.Utilities.Scale != 1 {
		t.Errorf("scale = %v, want 1 for integer utilities", lp.Utilities.Scale)
	}
	col := map[string]int{}
	for j, n := range p.ColNames {
		col[n] = j
	}
	row := map[string]int{}
	for i, n := range p.RowNames {
		row[n] = i
	}
	for _, n := range []string{"x[a,t1,containers]", "lam0[a,t1,containers]", "lam1[a,t1,containers]", "lamC[b,t2,containers]"} {
		if _, ok := col[n]; !ok {
			t.Errorf("no column %q in %v", n, p.ColNames)
		}
	}
	for _, n := range []string{"link[a,t2,containers]", "convex[b,t1,containers]", "capacity[containers,t1]", "demand[b,containers]"} {
		if _, ok := row[n]; !ok {
			t.Errorf("no row %q in %v", n, p.RowNames)
		}
	}
	coef := func(r, c string) float64 {
		j := col[c]
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			if p.AIndex[k] == row[r] {
				return p.AValue[k]
			}
		}
		return 0
	}
	// λ^1 + C·λ^c − x = 0, with C = 3.
	for c, want := range map[string]float64{"lam0[a,t2,containers]": 0, "lam1[a,t2,containers]": 1, "lamC[a,t2,containers]": 3, "x[a,t2,containers]": -1} {
		if got := coef("link[a,t2,containers]", c); got != want {
			t.Errorf("link[a,t2]: coefficient of %s = %v, want %v", c, got, want)
		}
	}
	// Objective: λ^0 + k^{-u}(λ^1 + λ^c): job a in slot 2 has u = 1, so 4^{-1}.
	for c, want := range map[string]float64{"lam0[a,t2,containers]": 1, "lam1[a,t2,containers]": 0.25, "lamC[a,t2,containers]": 0.25, "lam1[b,t1,containers]": 1.0 / 64, "x[a,t1,containers]": 0} {
		if got := p.ColCost[col[c]]; got != want {
			t.Errorf("cost of %s = %v, want %v", c, got, want)
		}
	}
	if lo, hi := p.RowLower[row["demand[a,containers]"]], p.RowUpper[row["demand[a,containers]"]]; lo != 3 || hi != 3 {
		t.Errorf("demand[a] is [%v, %v], want the equality (4) = 3", lo, hi)
	}
	if hi := p.RowUpper[row["capacity[containers,t2]"]]; hi != 3 {
		t.Errorf("capacity[t2] upper = %v, want 3", hi)
	}
	if len(lp.Warnings) != 0 {
		t.Errorf("warnings on a tiny integer instance: %v", lp.Warnings)
	}
}

func TestBuildLinearizedModel(t *testing.T) {
	in := parse(t, twoJobs)
	lp, err := BuildLinearized(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := lp.Model.Compile()
	if err != nil {
		t.Fatal(err)
	}
	// Per cell: x and λ^0..λ^3; the paper's |N||T||R|(C^r + 2).
	if got, want := p.NumCols(), 2*2*(3+2); got != want {
		t.Errorf("columns: got %d, want %d", got, want)
	}
	if !slices.Contains(p.ColNames, "lam2[b,t1,containers]") {
		t.Errorf("no lam2[b,t1,containers] among %v", p.ColNames)
	}
	_, err = BuildLinearized(in, Options{MaxColumns: 19})
	if err == nil || !strings.Contains(err.Error(), "FINAL") {
		t.Errorf("MaxColumns 19 for a 20-column model: got %v, want a refusal pointing at FINAL", err)
	}
	if _, err := BuildLinearized(in, Options{MaxColumns: 20}); err != nil {
		t.Errorf("MaxColumns 20 for a 20-column model: %v", err)
	}
}

// TestBuildFixedCells: what the paper does not have — zero demands, release, max_parallel
// and a slot of capacity 0 — become column bounds.
func TestBuildFixedCells(t *testing.T) {
	in := parse(t, `{
	  "horizon": 3,
	  "resources": [{"name": "cpu", "capacity": [2, 0, 2]}, {"name": "mem", "capacity": 4}],
	  "jobs": [
	    {"id": "a", "demand": {"cpu": 2}, "release": 2, "utility": {"type": "constant", "value": 1}},
	    {"id": "b", "demand": {"cpu": 1, "mem": 3}, "max_parallel": 2, "utility": {"type": "constant", "value": 1}}
	  ]
	}`)
	lp, err := BuildFinal(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bound := func(v model.Var) float64 { _, hi := lp.Model.Bounds(v); return hi }
	for _, c := range []struct {
		v    model.Var
		want float64
		why  string
	}{
		{lp.X[0][0][0], 0, "slot 1 is before a's release"},
		{lp.X[0][0][1], 0, "cpu has capacity 0 in slot 2"},
		{lp.X[0][0][2], math.Inf(1), "free"},
		{lp.X[0][1][2], 0, "a has no demand for mem"},
		{lp.X[1][1][0], 2, "b's max_parallel"},
		{lp.Lambda[1][0][1][1], 0, "λ^1 where C = 0"},
		{lp.Lambda[1][0][1][2], 0, "λ^c where C = 0"},
		{lp.Lambda[1][0][0][2], math.Inf(1), "λ^c where C = 2"},
	} {
		if got := bound(c.v); got != c.want {
			t.Errorf("%s: upper bound %v, want %v (%s)", c.v, got, c.want, c.why)
		}
	}
	// Usable cells: a: cpu slot 3; b: cpu slots 1, 3; mem slots 1-3.
	if lp.Numerics.Cells != 6 {
		t.Errorf("numerics guard checked %d cells, want the 6 usable ones", lp.Numerics.Cells)
	}
}

func TestBuildErrors(t *testing.T) {
	in := parse(t, twoJobs)
	neg := parse(t, `{"horizon": 1, "resources": [{"name": "c", "capacity": 1}],
	  "jobs": [{"id": "a", "demand": {"c": 1}, "utility": {"type": "constant", "value": -1}}]}`)
	for _, c := range []struct {
		name string
		f    func() error
		want string
	}{
		{"k = 1", func() error { _, err := BuildFinal(in, Options{K: 1}); return err }, "above 1"},
		{"k NaN", func() error { _, err := BuildFinal(in, Options{K: math.NaN()}); return err }, "above 1"},
		{"scale", func() error { _, err := BuildFinal(in, Options{Scale: -2}); return err }, "positive"},
		{"tolerance", func() error { _, err := BuildFinal(in, Options{Tolerance: 2}); return err }, "(0, 1)"},
		{"negative utility", func() error { _, err := BuildFinal(neg, Options{}); return err }, "nonnegative"},
		{"nil", func() error { _, err := BuildLinearized(nil, Options{}); return err }, "nil instance"},
		{"huge scale", func() error { _, err := BuildFinal(in, Options{Scale: 1e16}); return err }, "2^53"},
	} {
		err := c.f()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestStrict(t *testing.T) {
	in := parse(t, twoJobs)
	// Scale 10^6 makes u = 3·10^6: 4^{-3e6} underflows.
	lp, err := BuildFinal(in, Options{Scale: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	if len(lp.Warnings) != 1 || lp.Numerics.OK {
		t.Fatalf("scale 1e6: want one numerics warning, got %q (OK %v)", lp.Warnings, lp.Numerics.OK)
	}
	_, err = BuildFinal(in, Options{Scale: 1e6, Strict: true})
	if !errors.Is(err, ErrStrict) || !strings.Contains(err.Error(), "underflow") {
		t.Errorf("strict: got %v, want ErrStrict naming the underflow", err)
	}
	if _, err := BuildFinal(in, Options{Strict: true}); err != nil {
		t.Errorf("strict on a well-scaled instance: %v", err)
	}
}
