package plot

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/edf"
	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/sweep"
	"github.com/coraopt/coraopt/workload"
)

// testRun simulates w under n policies named p0, p1, … (FIFO and EDF by turns, so the
// runs differ) with the bound, as simulate --plots hands them to RunFigures.
func testRun(t *testing.T, w *workload.Workload, n int) *Run {
	t.Helper()
	r := &Run{Workload: w, Seed: 1}
	until := 0.0
	for k := range n {
		var p policies.Policy = fifo.New()
		if k%2 == 1 {
			p = edf.New()
		}
		res, err := sim.Run(context.Background(), w, p, sim.Options{Seed: 1, Record: true})
		if err != nil {
			t.Fatal(err)
		}
		m := sim.Summarize(w, res)
		m.Name = fmt.Sprintf("p%d", k)
		r.Policies = append(r.Policies, PolicyRun{Metrics: m, Placements: res.Placements})
		until = max(until, m.Makespan)
	}
	b, err := sim.Bound(context.Background(), w, 1, 60, until)
	if err != nil {
		t.Fatal(err)
	}
	r.Bound = b
	return r
}

func sameColour(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// policyIndex is k of a key named p<k>, or -1.
func policyIndex(name string) int {
	var k int
	if _, err := fmt.Sscanf(name, "p%d", &k); err != nil || fmt.Sprintf("p%d", k) != name {
		return -1
	}
	return k
}

// Every figure of a run and of a sweep gives policy k the colour of position k, the
// bound a colour no policy has, and eight policies eight colours (the palette used to
// wrap after 7, the utilization figure to shift every policy by one against the CDF,
// and the bound to take the colour after the last policy's: fifo's red with 7).
func TestOneColourPerPolicyInEveryFigure(t *testing.T) {
	w, err := workload.CORAWorkload(12, 3)
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	figs, err := RunFigures(testRun(t, w, n), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	merged := &sweep.Merged{}
	for _, wl := range []string{"a", "b"} {
		for k := range n {
			merged.Groups = append(merged.Groups, sweep.Group{Workload: wl, Policy: fmt.Sprintf("p%d", k), Seeds: 1,
				MinUtility: sweep.NewStat([]float64{float64(k)})})
		}
	}
	sfigs, err := SweepFigures(merged)
	if err != nil {
		t.Fatal(err)
	}
	figs = append(figs, sfigs...)
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
		seen := 0
		for _, key := range f.keys {
			k := policyIndex(key.name)
			switch {
			case k >= 0:
				seen++
				if !sameColour(key.colour, PolicyColour(k)) {
					t.Errorf("%s: %s in %v, want position %d's %v", f.Name, key.name, key.colour, k, PolicyColour(k))
				}
			case strings.HasPrefix(key.name, "bound"):
				for j := range n {
					if sameColour(key.colour, PolicyColour(j)) {
						t.Errorf("%s: the bound has p%d's colour", f.Name, j)
					}
				}
			}
		}
		if strings.HasPrefix(f.Name, "gantt-") {
			continue // its keys are jobs
		}
		if seen != n {
			t.Errorf("%s: %d policies in the legend, want %d", f.Name, seen, n)
		}
	}
	for _, want := range []string{"utility-cdf", "delta-box", "gantt-p0", "gantt-p7", "utilization-containers", "sweep-min_utility"} {
		if !slices.Contains(names, want) {
			t.Errorf("no figure %s among %v", want, names)
		}
	}
	for j := range n {
		for k := range j {
			if sameColour(PolicyColour(j), PolicyColour(k)) {
				t.Errorf("p%d and p%d share a colour", j, k)
			}
		}
	}
}

// The palette gives every registered policy its own colour in a run that lists them
// all, none of them the bound's black or the capacity's grey.
func TestPaletteCoversEveryPolicy(t *testing.T) {
	n := len(all.Names())
	if n > len(palette) {
		t.Fatalf("%d policies, %d colours", n, len(palette))
	}
	for j := range n {
		c := PolicyColour(j)
		if sameColour(c, BoundLine.Colour) || sameColour(c, CapacityLine.Colour) {
			t.Errorf("colour %d is a reference line's", j)
		}
		for k := range j {
			if sameColour(c, PolicyColour(k)) {
				t.Errorf("colours %d and %d are the same", j, k)
			}
		}
	}
}

// The legend is drawn right of the axes, never over the data area.
func TestLegendBesideTheData(t *testing.T) {
	w, err := workload.CORAWorkload(6, 1)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := RunFigures(testRun(t, w, 3), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		wd, ht := f.Size()
		c := draw.New(vgimg.New(wd, ht))
		lw := f.LegendWidth()
		if lw == 0 {
			t.Errorf("%s: no legend", f.Name)
			continue
		}
		data := f.Plot.DataCanvas(draw.Crop(c, 0, -lw, 0, 0))
		if legendLeft := c.Max.X - lw; data.Max.X > legendLeft {
			t.Errorf("%s: the data area reaches %v, the legend starts at %v", f.Name, data.Max.X, legendLeft)
		}
		if f.Width+lw != wd {
			t.Errorf("%s: the legend column takes room from the axes", f.Name)
		}
	}
}

// A Gantt chart draws every task by default and says so; cut short, it says how many
// it shows and how to see them all.
func TestGanttShowsEveryTaskOrSaysHow(t *testing.T) {
	w, err := workload.CORAWorkload(30, 2)
	if err != nil {
		t.Fatal(err)
	}
	r := testRun(t, w, 1)
	pr := r.Policies[0]
	n := len(pr.Placements)
	f, err := r.gantt(pr, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := ganttOf(t, f)
	if len(g.bars) != n || !strings.Contains(f.Plot.Title.Text, fmt.Sprintf("all %d tasks", n)) {
		t.Fatalf("%d of %d tasks drawn, title %q", len(g.bars), n, f.Plot.Title.Text)
	}
	// The time axis ends with this run, its last task.
	if f.Plot.X.Max != pr.Metrics.Makespan {
		t.Errorf("time axis to %g, the run ended at %g", f.Plot.X.Max, pr.Metrics.Makespan)
	}
	f, err = r.gantt(pr, RunOptions{GanttTasks: 10, GanttMore: "ask for more"})
	if err != nil {
		t.Fatal(err)
	}
	if g := ganttOf(t, f); len(g.bars) != 10 || !strings.Contains(f.Plot.Title.Text, fmt.Sprintf("the first 10 of %d tasks", n)) || !strings.Contains(f.Plot.Title.Text, "ask for more") {
		t.Fatalf("%d bars, title %q", len(g.bars), f.Plot.Title.Text)
	}
}

func ganttOf(t *testing.T, f *Figure) *simGantt {
	t.Helper()
	if f.gantt == nil {
		t.Fatal("not a Gantt figure")
	}
	return f.gantt
}

// Colouring by job gives every job of a 100-job run its own colour (there were 7 for
// 100 jobs), on a ramp in workload order with five points of it in the legend;
// workflows get the categorical palette and one legend entry each.
func TestGanttColours(t *testing.T) {
	w, err := workload.CORAWorkload(100, 1)
	if err != nil {
		t.Fatal(err)
	}
	colour, legend, by := ganttColours(w)
	var seen []color.Color
	for j := range w.Jobs {
		c := colour(j)
		for k, o := range seen {
			if sameColour(c, o) {
				t.Fatalf("jobs %d and %d share a colour", k, j)
			}
		}
		seen = append(seen, c)
	}
	if len(legend) != 5 || legend[0].name != w.Jobs[0].ID || legend[4].name != w.Jobs[99].ID || !strings.HasPrefix(by, "job") {
		t.Fatalf("legend %v, by %q", legend, by)
	}
	w.Workflows = []workload.Workflow{{ID: "W1"}, {ID: "W2"}}
	for j := range w.Jobs {
		w.Jobs[j].Workflow = []string{"W1", "W2"}[j%2]
	}
	colour, legend, by = ganttColours(w)
	if by != "workflow" || len(legend) != 2 || !sameColour(colour(0), PolicyColour(0)) || !sameColour(colour(1), PolicyColour(1)) || !sameColour(colour(2), colour(0)) {
		t.Fatalf("by %q, legend %v", by, legend)
	}
}

// A policy's utilization curve ends where its run ended (it fell to 0 until the slowest
// policy's end), and its windows hold exactly the busy slot-seconds of its tasks.
func TestUtilizationEndsWithItsRun(t *testing.T) {
	w, err := workload.CORAWorkload(15, 4)
	if err != nil {
		t.Fatal(err)
	}
	r := testRun(t, w, 2)
	f, err := r.utilization(0)
	if err != nil {
		t.Fatal(err)
	}
	end := max(r.Policies[0].Metrics.Makespan, r.Policies[1].Metrics.Makespan)
	if f.Plot.X.Max != end {
		t.Errorf("time axis to %g, the slower run ended at %g", f.Plot.X.Max, end)
	}
	rapid.Check(t, func(t *rapid.T) {
		pr := r.Policies[rapid.IntRange(0, 1).Draw(t, "policy")]
		width := end / float64(rapid.IntRange(1, 200).Draw(t, "windows"))
		s := busyWindows(pr.Placements, 0, 40, width, pr.Metrics.Makespan)
		if last := s.X[len(s.X)-1]; last != pr.Metrics.Makespan {
			t.Fatalf("the curve ends at %g, the run at %g", last, pr.Metrics.Makespan)
		}
		area, busy := 0.0, 0.0
		for k := range len(s.X) - 1 {
			area += s.Y[k] * (s.X[k+1] - s.X[k]) * 40
		}
		for _, pl := range pr.Placements {
			busy += pl.Finish - pl.Start
		}
		if math.Abs(area-busy) > 1e-9*busy {
			t.Fatalf("the windows hold %g slot-seconds, the tasks %g", area, busy)
		}
	})
}
