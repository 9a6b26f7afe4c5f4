package modeltest

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
)

func TestProblemIsValidAndFollowsConfig(t *testing.T) {
	configs := map[string]Config{
		"zero":      {},
		"boxed":     {Boxed: true},
		"integer":   {Integer: true, Integral: true},
		"quadratic": {Quadratic: true, MaxRows: -1},
		"feasible":  {Feasible: true, Integer: true, Quadratic: true},
		"narrow":    {MinMagnitude: 0.5, MaxMagnitude: 2, MaxCols: 3, MaxRows: 2, Density: 1},
		"unnamed":   {Names: NamesNone},
		"some":      {Names: NamesSome},
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				p, x0 := ProblemAndPoint(rt, cfg)
				checkConfig(rt, cfg, p, x0)
			})
		})
	}
}

func checkConfig(t *rapid.T, cfg Config, p *model.Problem, x0 []float64) {
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	maxCols, maxRows := cfg.MaxCols, cfg.MaxRows
	if maxCols == 0 {
		maxCols = 6
	}
	if maxRows == 0 {
		maxRows = 6
	}
	if p.NumCols() < 1 || p.NumCols() > maxCols || p.NumRows() > max(maxRows, 0) {
		t.Fatalf("size %d×%d outside the configuration %+v", p.NumRows(), p.NumCols(), cfg)
	}
	if cfg.MaxRows < 0 && p.NumRows() != 0 {
		t.Fatalf("MaxRows < 0 but %d rows", p.NumRows())
	}
	lo, hi := cfg.MinMagnitude, cfg.MaxMagnitude
	if lo == 0 {
		lo, hi = 1e-6, 1e6
	}
	if cfg.Integral {
		lo, hi = 1, 10
	}
	for _, v := range p.AValue {
		if a := math.Abs(v); a < lo || a > hi {
			t.Fatalf("coefficient %g outside [%g, %g]", v, lo, hi)
		}
		if cfg.Integral && v != math.Trunc(v) {
			t.Fatalf("Integral but coefficient %g", v)
		}
	}
	for j := range p.NumCols() {
		l, u := p.ColLower[j], p.ColUpper[j]
		if cfg.Boxed && (math.IsInf(l, 0) || math.IsInf(u, 0)) {
			t.Fatalf("Boxed but column %d has bounds [%g, %g]", j, l, u)
		}
		if p.Integrality != nil && p.Integrality[j] {
			if !cfg.Integer {
				t.Fatalf("integer column without Config.Integer")
			}
			if (!math.IsInf(l, 0) && l != math.Trunc(l)) || (!math.IsInf(u, 0) && u != math.Trunc(u)) {
				t.Fatalf("integer column %d has fractional bounds [%g, %g]", j, l, u)
			}
		}
	}
	if p.HasQuadratic() {
		if !cfg.Quadratic {
			t.Fatalf("quadratic objective without Config.Quadratic")
		}
		checkPSD(t, p)
	}
	if cfg.Feasible != (x0 != nil) {
		t.Fatalf("Feasible=%v but x0=%v", cfg.Feasible, x0)
	}
	if x0 != nil {
		checkFeasible(t, p, x0)
	}
	checkNames(t, cfg.Names, p)
}

// checkPSD checks that the objective is convex: the smallest eigenvalue of Q (of −Q
// when maximizing) is not below the rounding of its products.
func checkPSD(t *rapid.T, p *model.Problem) {
	n := p.NumCols()
	q := mat.NewSymDense(n, nil)
	scale := 0.0
	for j := range n {
		for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
			q.SetSym(p.QIndex[k], j, float64(p.Sense)*p.QValue[k])
			scale = math.Max(scale, math.Abs(p.QValue[k]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(q, false) {
		t.Fatal("eigendecomposition failed")
	}
	if min := eig.Values(nil)[0]; min < -1e-9*scale*float64(n) {
		t.Fatalf("objective is not convex: smallest eigenvalue of sense·Q %g (scale %g)", min, scale)
	}
}

func checkFeasible(t *rapid.T, p *model.Problem, x0 []float64) {
	for j, x := range x0 {
		if x < p.ColLower[j] || x > p.ColUpper[j] {
			t.Fatalf("x0[%d] = %g outside [%g, %g]", j, x, p.ColLower[j], p.ColUpper[j])
		}
		if p.Integrality != nil && p.Integrality[j] && x != math.Trunc(x) {
			t.Fatalf("x0[%d] = %g on an integer column", j, x)
		}
	}
	for i, a := range p.RowActivity(x0) {
		if a < p.RowLower[i] || a > p.RowUpper[i] {
			t.Fatalf("row %d: activity %g outside [%g, %g]", i, a, p.RowLower[i], p.RowUpper[i])
		}
	}
}

func checkNames(t *rapid.T, mode NameMode, p *model.Problem) {
	seen := map[string]bool{}
	all := append([]string{p.Name, p.ObjName}, p.ColNames...)
	all = append(all, p.RowNames...)
	for _, s := range all {
		switch {
		case mode == NamesNone && s != "":
			t.Fatalf("NamesNone but name %q", s)
		case mode == NamesAll && s == "":
			t.Fatalf("NamesAll but an empty name in %q", all)
		case s == "":
			continue
		case seen[s]:
			t.Fatalf("duplicate name %q", s)
		case strings.ContainsAny(s[:1], "0123456789eE."):
			t.Fatalf("name %q starts with a character the LP format reserves", s)
		}
		seen[s] = true
	}
}

func TestProblemIsDeterministic(t *testing.T) {
	// The same seed replays the same draws, so a failing property reproduces.
	g := Generator(Config{Integer: true, Quadratic: true, Feasible: true})
	differs := 0
	for seed := range 20 {
		a, b := g.Example(seed), g.Example(seed)
		if d := Diff(a, b); d != "" {
			t.Fatalf("seed %d: two draws differ:\n%s", seed, d)
		}
		if Diff(a, g.Example(seed+1000)) != "" {
			differs++
		}
	}
	if differs < 15 {
		t.Errorf("only %d of 20 seed pairs gave different Problems", differs)
	}
}

func TestDiff(t *testing.T) {
	base := &model.Problem{
		Name: "p", Sense: model.Minimize,
		ColCost: []float64{1, 0}, ColLower: []float64{0, -1}, ColUpper: []float64{math.Inf(1), 2},
		RowLower: []float64{1}, RowUpper: []float64{math.Inf(1)},
		AStart: []int{0, 1, 2}, AIndex: []int{0, 0}, AValue: []float64{1, 2},
		ColNames: []string{"x", "y"}, RowNames: []string{"r"},
	}
	same := []struct {
		name   string
		change func(*model.Problem)
	}{
		{"clone", func(*model.Problem) {}},
		{"all-false integrality", func(p *model.Problem) { p.Integrality = []bool{false, false} }},
		{"empty hessian", func(p *model.Problem) { p.QStart = []int{0, 0, 0} }},
		{"negative zero", func(p *model.Problem) { p.ColCost[1] = math.Copysign(0, -1) }},
	}
	for _, c := range same {
		q := base.Clone()
		c.change(q)
		if d := Diff(base, q); d != "" {
			t.Errorf("%s: Diff reports a difference:\n%s", c.name, d)
		}
	}
	unnamed := base.Clone()
	unnamed.ColNames, unnamed.RowNames = nil, nil
	blank := base.Clone()
	blank.ColNames, blank.RowNames = []string{"", ""}, []string{""}
	if d := Diff(unnamed, blank); d != "" {
		t.Errorf("nil names versus empty names:\n%s", d)
	}
	differ := []struct {
		name   string
		change func(*model.Problem)
	}{
		{"cost by one ulp", func(p *model.Problem) { p.ColCost[0] = math.Nextafter(1, 2) }},
		{"bound", func(p *model.Problem) { p.ColUpper[0] = 1e30 }},
		{"name", func(p *model.Problem) { p.ColNames[1] = "z" }},
		{"sense", func(p *model.Problem) { p.Sense = model.Maximize }},
		{"integrality", func(p *model.Problem) { p.Integrality = []bool{false, true} }},
		{"offset", func(p *model.Problem) { p.Offset = 1 }},
		{"objective name", func(p *model.Problem) { p.ObjName = "cost" }},
		{"hessian", func(p *model.Problem) { p.QStart, p.QIndex, p.QValue = []int{0, 1, 1}, []int{0}, []float64{2} }},
	}
	for _, c := range differ {
		q := base.Clone()
		c.change(q)
		if d := Diff(base, q); d == "" {
			t.Errorf("%s: Diff reports no difference", c.name)
		}
	}
	if Diff(nil, base) == "" || Diff(nil, nil) != "" {
		t.Error("Diff with nil Problems")
	}
}

func TestDiffTolAndSample(t *testing.T) {
	p := Sample()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Kind() != "MIQP" || p.NumRows() != 5 || p.NumCols() != 8 {
		t.Fatalf("Sample is %s with %d rows and %d columns", p.Kind(), p.NumRows(), p.NumCols())
	}
	q := p.Clone()
	q.ColNames = nil
	q.AValue[0] *= 1 + 1e-12
	if d := DiffTol(p, q, 1e-9); d != "" {
		t.Errorf("a 1e-12 change and dropped names: %s", d)
	}
	q.RowUpper[0] *= 1 + 1e-6
	if d := DiffTol(p, q, 1e-9); !strings.Contains(d, "row 0") {
		t.Errorf("a 1e-6 change in a row bound: %q", d)
	}
	q = p.Clone()
	q.Integrality[0] = true
	if d := DiffTol(p, q, 1e-9); !strings.Contains(d, "column 0") {
		t.Errorf("integrality change: %q", d)
	}
}
