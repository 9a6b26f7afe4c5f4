package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/internal/docblock"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
	"github.com/coraopt/coraopt/sweep"
)

var update = flag.Bool("update", false, "rewrite testdata/fig5.<default LP backend>.golden.json")

// sig rounds to 6 significant digits, so that the golden file pins the numbers without
// depending on the last bits of floating point.
func sig(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	p := math.Pow(10, 5-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// cora.txt Fig. 5 / Table II end to end: five mixes of 20 jobs under rrh, cora,
// cora-final and the oracle, three runtime seeds, every run through `simulate --check`
// (sim.CheckInvariants) with the bound. The class counts are the mixes', every job of
// every run completes, no policy's minimum over all jobs is above the bound's (seed by
// seed it cannot be; here the means over seeds), and the numbers are pinned in
// testdata/fig5.golden.json (-update to rewrite).
func TestFig5Golden(t *testing.T) {
	f, err := fig5(context.Background(), t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]int{{2, 13, 5}, {4, 11, 5}, {6, 9, 5}, {9, 6, 5}, {12, 3, 5}}
	for k, e := range f.Mixes {
		if !slices.Contains(e.Simulate, "--check") {
			t.Fatalf("mix %s: simulate ran without --check", fig5Mixes[k].Mix)
		}
		got := [3]int{e.Counts["critical"], e.Counts["sensitive"], e.Counts["insensitive"]}
		if got != want[k] {
			t.Errorf("mix %s: %v jobs per class, want %v", fig5Mixes[k].Mix, got, want[k])
		}
		for _, r := range e.Results {
			for c, n := range got {
				if r.Classes[classes[c]].N != n*seeds {
					t.Errorf("mix %s %s: %d %s jobs with a Δ over %d seeds, want %d", fig5Mixes[k].Mix, r.Policy, r.Classes[classes[c]].N, classes[c], seeds, n*seeds)
				}
			}
			if r.MinAll > *e.BoundMin+1e-9 || r.MinAll > r.MinCS || r.SumCS <= 0 {
				t.Errorf("mix %s %s: min over all jobs %g (bound %g, crit+sens %g), sum %g", fig5Mixes[k].Mix, r.Policy, r.MinAll, *e.BoundMin, r.MinCS, r.SumCS)
			}
		}
	}
	type row struct {
		Policy               string
		Quartiles            map[string][3]float64
		MetShare             map[string]float64
		MinCS, SumCS, MinAll float64
	}
	type mix struct {
		Mix                string
		Rows               []row
		BoundMin, BoundSum float64
	}
	var got []mix
	for k, e := range f.Mixes {
		m := mix{Mix: fig5Mixes[k].Mix, BoundMin: sig(*e.BoundMin), BoundSum: sig(*e.BoundSum)}
		for _, r := range e.Results {
			rw := row{Policy: r.Policy, Quartiles: map[string][3]float64{}, MetShare: map[string]float64{}, MinCS: sig(r.MinCS), SumCS: sig(r.SumCS), MinAll: sig(r.MinAll)}
			for c, s := range r.Classes {
				rw.Quartiles[c] = [3]float64{sig(s.Q1), sig(s.Median), sig(s.Q3)}
				rw.MetShare[c] = sig(s.MetShare)
			}
			m.Rows = append(m.Rows, rw)
		}
		got = append(got, m)
	}
	data, err := json.MarshalIndent(got, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	// cora-final runs the FINAL LP on the default LP backend (HiGHS when compiled in,
	// else the built-in simplex), and the LP's optimal vertex — so the rounded plan —
	// depends on the backend: one golden file per backend.
	lp, err := solvers.Select("", solvers.LP)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "fig5."+lp.Name+".golden.json")
	if *update {
		if err := os.WriteFile(golden, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	var wantRows []mix
	if err := json.Unmarshal(old, &wantRows); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(wantRows, got); d != "" {
		t.Errorf("Fig. 5 numbers changed (-golden +got; rerun with -update if intended):\n%s", d)
	}
	// The rendered block carries the commands and the paper's Table II beside ours.
	var b bytes.Buffer
	f.render(&b)
	for _, s := range []string{"--mix $mix", "0.1729 / 46.56", "| 0.6,0.15,0.25 (12/3/5) | rrh |", "Paper: \"CORA still completes"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("rendered Fig. 5 lacks %q", s)
		}
	}
}

// The sweep files of rush.txt's two studies load (every policy entry is a registered
// policy with parameters it accepts) and vary exactly the study's key.
func TestRushStudyFiles(t *testing.T) {
	for _, s := range rushStudies {
		sw, err := sweep.Load(filepath.Join("..", "..", "testdata", "sweeps", s.File))
		if err != nil {
			t.Fatalf("%s: %v", s.File, err)
		}
		var values []float64
		for _, p := range sw.File.Policies {
			v, ok := p.Params[s.Key].(float64)
			if p.Name != "rush" || len(p.Params) != 1 || !ok {
				t.Errorf("%s: policy %s %v, want rush with %s only", s.File, p.Name, p.Params, s.Key)
			}
			values = append(values, v)
		}
		if len(values) != 6 || !sw.File.Check || len(sw.File.Seeds) != seeds {
			t.Errorf("%s: values %v, check %v, seeds %v", s.File, values, sw.File.Check, sw.File.Seeds)
		}
	}
}

// The class statistics are the box plot's: median and the medians of the halves.
func TestClassStat(t *testing.T) {
	for _, c := range []struct {
		in          []float64
		q1, med, q3 float64
		met         float64
	}{
		{[]float64{5, -1, 3, 0}, -0.5, 1.5, 4, 0.5},
		{[]float64{1, 2, 3, 4, 5}, 1.5, 3, 4, 0},
		{[]float64{-7}, math.NaN(), -7, -7, 1},
	} {
		s := newClassStat(c.in)
		eq := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if !eq(s.Q1, c.q1) || s.Median != c.med || s.Q3 != c.q3 || s.MetShare != c.met || s.N != len(c.in) {
			t.Errorf("%v: got %+v", c.in, s)
		}
	}
}

// The document the command line names holds the block, and its figure link resolves
// from there: the block follows the document when it moves.
func TestDocHasBlock(t *testing.T) {
	root := filepath.Join("..", "..")
	text, err := docblock.Read(filepath.Join(root, doc), block)
	if err != nil {
		t.Fatal(err)
	}
	link, err := imageLink(filepath.Join(root, doc), filepath.Join(root, figures))
	if err != nil {
		t.Fatal(err)
	}
	img := "](" + link + "/cora-fig4-delta-box.png)"
	if !bytes.Contains(text, []byte(img)) {
		t.Errorf("the block in %s does not link %s", doc, img)
	}
	if _, err := os.Stat(filepath.Join(root, figures, "cora-fig4-delta-box.png")); err != nil {
		t.Error(err)
	}
}

// A figure is linked relative to the document's directory; printed, as given.
func TestImageLink(t *testing.T) {
	for _, c := range []struct{ doc, plots, want string }{
		{"docs/simulate.md", "docs/figures", "figures"},
		{"README.md", "docs/figures", "docs/figures"},
		{"docs/simulate.md", "figs", "../figs"},
		{"", "docs/figures", "docs/figures"},
		{"docs/simulate.md", "", ""},
	} {
		got, err := imageLink(c.doc, c.plots)
		if err != nil || got != c.want {
			t.Errorf("imageLink(%q, %q) = %q, %v; want %q", c.doc, c.plots, got, err, c.want)
		}
	}
}
