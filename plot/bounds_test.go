package plot

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/coraopt/coraopt/workload"
)

// The bounds figure plots each policy's sum and minimum of utilities — its metrics',
// in the run's order — against the sum bound and the lexmax bound's minimum (not the
// lexmax vector's sum, which bounds no run's sum), the bounds black and told apart in
// the legend, both panels' data left of the legend; a run without a bound has no
// bounds figure.
func TestBoundsFigurePlotsTheRunsNumbers(t *testing.T) {
	w, err := workload.CORAWorkload(20, 2)
	if err != nil {
		t.Fatal(err)
	}
	const n = 9
	r := testRun(t, w, n)
	b := r.Bound
	if fmt.Sprintf("%.4g", b.SumBound) == fmt.Sprintf("%.4g", b.SumUtility) {
		t.Fatalf("the lexmax vector's sum %v and the sum bound %v look alike: pick a workload that tells them apart", b.SumUtility, b.SumBound)
	}
	figs, err := RunFigures(r, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k := slices.IndexFunc(figs, func(f NamedFigure) bool { return f.Name == "bounds" })
	if k < 0 {
		t.Fatal("no bounds figure")
	}
	f := figs[k]
	d := f.bounds
	for i, pr := range r.Policies {
		if d.names[i] != pr.Metrics.Name || d.sums[i] != pr.Metrics.SumUtility || d.mins[i] != pr.Metrics.MinUtility {
			t.Errorf("row %d: %s sum %v min %v; the run's %s has %v and %v", i, d.names[i], d.sums[i], d.mins[i], pr.Metrics.Name, pr.Metrics.SumUtility, pr.Metrics.MinUtility)
		}
	}
	if len(d.names) != n {
		t.Fatalf("%d rows for %d policies", len(d.names), n)
	}
	// What is drawn: each panel's bars and its bound line.
	wantBars := [][]float64{d.sums, d.mins}
	wantLine := []float64{b.SumBound, b.MinUtility}
	for p := range 2 {
		if bars := d.bars[p]; !slices.Equal(bars.values, wantBars[p]) {
			t.Errorf("panel %d: bars %v, want %v", p, bars.values, wantBars[p])
		}
		l := d.lines[p]
		if l.XYs[0].X != wantLine[p] || l.XYs[1].X != wantLine[p] || !sameColour(l.Color, BoundLine.Colour) {
			t.Errorf("panel %d: bound line %v in %v, want a black line at %v", p, l.XYs, l.Color, wantLine[p])
		}
	}
	if slices.Equal(d.lines[0].Dashes, d.lines[1].Dashes) {
		t.Error("the two bounds' lines look alike")
	}
	var sumKey, lexKey bool
	for _, key := range f.keys {
		sumKey = sumKey || strings.HasPrefix(key.name, "sum bound") && strings.Contains(key.name, fmt.Sprintf("%.4g", b.SumBound))
		lexKey = lexKey || strings.HasPrefix(key.name, "lexmax bound's minimum") && strings.Contains(key.name, fmt.Sprintf("%.4g", b.MinUtility))
	}
	if !sumKey || !lexKey {
		t.Errorf("legend %v does not name both bounds with their values", f.keys)
	}
	wd, ht := f.Size()
	c := draw.New(vgimg.New(wd, ht))
	plots, areas := f.layout(c)
	if len(plots) != 2 {
		t.Fatalf("%d panels", len(plots))
	}
	for p, pl := range plots {
		if data := pl.DataCanvas(areas[p]); data.Max.X > c.Max.X-f.LegendWidth() {
			t.Errorf("panel %d's data reaches %v, the legend starts at %v", p, data.Max.X, c.Max.X-f.LegendWidth())
		}
	}
	dir := t.TempDir()
	if err := SaveAll(dir, []NamedFigure{f}); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(filepath.Join(dir, "bounds.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := png.Decode(in); err != nil {
		t.Fatalf("bounds.png: %v", err)
	}
	r.Bound = nil
	figs, err = RunFigures(r, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(figs, func(f NamedFigure) bool { return f.Name == "bounds" }) {
		t.Error("a bounds figure without a bound")
	}
}
