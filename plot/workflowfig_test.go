package plot

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorkspanBars(t *testing.T) {
	f, err := WorkspanBars([]string{"woha-lpf", "oozie-fair"}, []string{"W1", "W2"},
		[][]float64{{3900, 3518}, {3433, math.NaN()}}, []float64{4800, 4200}, "three workflows")
	if err != nil {
		t.Fatal(err)
	}
	// The y range holds the tallest bar and deadline; the legend is beside the axes.
	if f.Plot.Y.Min != 0 || f.Plot.Y.Max < 4800 {
		t.Fatalf("y range [%g, %g]", f.Plot.Y.Min, f.Plot.Y.Max)
	}
	if want := []legendEntry{{"woha-lpf", PolicyColour(0)}, {"oozie-fair", PolicyColour(1)}, {"deadline", f.keys[2].colour}}; !sameKeys(f.keys, want) {
		t.Fatalf("legend %v, want %v", f.keys, want)
	}
	dir := t.TempDir()
	if err := SaveAll(dir, []NamedFigure{{"workspan", f}}); err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(filepath.Join(dir, "workspan.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := png.Decode(r); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "workspan.svg"))
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

func sameKeys(a, b []legendEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name || !sameColour(a[i].colour, b[i].colour) {
			return false
		}
	}
	return true
}
