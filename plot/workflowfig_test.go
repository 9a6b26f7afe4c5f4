package plot

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

func TestWorkspanBars(t *testing.T) {
	p, err := WorkspanBars([]string{"woha-lpf", "oozie-fair"}, []string{"W1", "W2"},
		[][]float64{{3900, 3518}, {3433, math.NaN()}}, []float64{4800, 4200}, "three workflows")
	if err != nil {
		t.Fatal(err)
	}
	// The y range holds the tallest bar and deadline with room for the legend.
	if p.Y.Min != 0 || p.Y.Max < 4800 {
		t.Fatalf("y range [%g, %g]", p.Y.Min, p.Y.Max)
	}
	base := filepath.Join(t.TempDir(), "workspan")
	if err := SaveAll(p, base, 6*vg.Inch, 4*vg.Inch); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"woha-lpf", "oozie-fair", "deadline", "W2", "three workflows"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the SVG does not contain %q", want)
		}
	}
	for _, bad := range []struct {
		pols, wfs []string
		spans     [][]float64
		dl        []float64
	}{
		{nil, []string{"W1"}, nil, []float64{1}},
		{[]string{"a"}, []string{"W1"}, [][]float64{{1, 2}}, []float64{1}},
		{[]string{"a"}, []string{"W1"}, [][]float64{{1}}, nil},
	} {
		if _, err := WorkspanBars(bad.pols, bad.wfs, bad.spans, bad.dl, ""); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}

func TestAddColourLegend(t *testing.T) {
	p, err := SimGantt([]Bar{{Row: 0, Start: 0, End: 10, Job: 1}}, []string{"map 1"}, "g")
	if err != nil {
		t.Fatal(err)
	}
	AddColourLegend(p, []string{"W1", "W2"})
	if p.X.Max <= 10 {
		t.Fatalf("no room made for the legend: x max %g", p.X.Max)
	}
	base := filepath.Join(t.TempDir(), "g")
	if err := SaveAll(p, base, 6*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatal(err)
	}
	svg, _ := os.ReadFile(base + ".svg")
	if !strings.Contains(string(svg), "W2") {
		t.Fatal("legend missing")
	}
}
