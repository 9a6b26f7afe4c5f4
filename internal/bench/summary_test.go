package bench

import (
	"math"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	solved := func(class Class, inst, solver string, med time.Duration) Row {
		return Row{Family: "f", Class: class, Instance: inst, Solver: solver, Status: "optimal", Solved: true, Wall: Spread{Median: med}}
	}
	unsolved := func(class Class, inst, solver string, med time.Duration) Row {
		r := solved(class, inst, solver, med)
		r.Status, r.Solved = "time_limit", false
		return r
	}
	limit := time.Second
	rows := []Row{
		// LP: a solves both, b times out on i2 (charged the 1 s limit), c only attempted
		// i1 — so the comparison runs over i1 alone, the instance all three attempted.
		solved(LP, "i1", "a", ms(10)), solved(LP, "i1", "b", ms(30)), solved(LP, "i1", "c", ms(90)),
		solved(LP, "i2", "a", ms(20)), unsolved(LP, "i2", "b", ms(5)),
		// MIP: x and y on two instances; y unsolved on m2 is charged the limit even
		// though it stopped early.
		solved(MIP, "m1", "x", ms(100)), solved(MIP, "m1", "y", ms(100)),
		solved(MIP, "m2", "x", ms(300)), unsolved(MIP, "m2", "y", ms(2)),
		// A case that failed to prepare is left out.
		{Family: "f", Class: MIP, Instance: "broken", Solver: "-", Status: "error"},
		// Another family is another group, even in the same class.
		{Family: "g", Class: MIP, Instance: "m1", Solver: "z", Status: "optimal", Solved: true, Wall: Spread{Median: ms(1)}},
	}
	got := Summarize(rows, limit, 0)
	type key struct {
		family string
		class  Class
		solver string
	}
	want := map[key]struct {
		attempted, solved, instances int
		sgm                          float64 // seconds
	}{
		{"f", LP, "a"}:  {2, 2, 1, 0.010},
		{"f", LP, "b"}:  {2, 1, 1, 0.030},
		{"f", LP, "c"}:  {1, 1, 1, 0.090},
		{"f", MIP, "x"}: {2, 2, 2, math.Sqrt(0.11*0.31) - 0.01},
		{"f", MIP, "y"}: {2, 1, 2, math.Sqrt(0.11*1.01) - 0.01},
		{"g", MIP, "z"}: {1, 1, 1, 0.001},
	}
	if len(got) != len(want) {
		t.Fatalf("%d summaries, want %d: %+v", len(got), len(want), got)
	}
	order := []key{{"f", LP, "a"}, {"f", LP, "b"}, {"f", LP, "c"}, {"f", MIP, "x"}, {"f", MIP, "y"}, {"g", MIP, "z"}}
	for i, s := range got {
		k := key{s.Family, s.Class, s.Solver}
		if k != order[i] {
			t.Errorf("summary %d is %v, want %v", i, k, order[i])
		}
		w := want[k]
		if s.Attempted != w.attempted || s.Solved != w.solved || s.Instances != w.instances ||
			math.Abs(s.SGM.Seconds()-w.sgm) > 1e-9 {
			t.Errorf("%v: %+v, want %+v", k, s, w)
		}
	}
	// Relative to the best of the class.
	rel := map[key]float64{{"f", LP, "a"}: 1, {"f", LP, "b"}: 3, {"f", LP, "c"}: 9, {"f", MIP, "x"}: 1,
		{"f", MIP, "y"}: (math.Sqrt(0.11*1.01) - 0.01) / (math.Sqrt(0.11*0.31) - 0.01), {"g", MIP, "z"}: 1}
	for _, s := range got {
		if w := rel[key{s.Family, s.Class, s.Solver}]; math.Abs(s.Relative-w) > 1e-6 {
			t.Errorf("%s/%s: relative %.6f, want %.6f", s.Class, s.Solver, s.Relative, w)
		}
	}
}

// TestSummarizeNoCommon: when no instance was attempted by every solver of a class,
// there is no comparison (relative NaN), but the counts remain.
func TestSummarizeNoCommon(t *testing.T) {
	rows := []Row{
		{Class: LP, Instance: "i1", Solver: "a", Status: "optimal", Solved: true, Wall: Spread{Median: ms(1)}},
		{Class: LP, Instance: "i2", Solver: "b", Status: "optimal", Solved: true, Wall: Spread{Median: ms(1)}},
	}
	for _, s := range Summarize(rows, 0, 0) {
		if s.Instances != 0 || !math.IsNaN(s.Relative) || s.Attempted != 1 || s.Solved != 1 {
			t.Errorf("%+v", s)
		}
	}
}

func TestFitScaling(t *testing.T) {
	var rows []Row
	for _, n := range []int{1000, 2000, 4000, 8000} {
		nf := float64(n)
		// Time ∝ N² with N/10 layers: per layer ∝ N.
		rows = append(rows, Row{Family: "onion", Solver: "onion", N: n, Solved: true, Status: "optimal",
			Wall: Spread{Median: time.Duration(nf * nf)}, Metrics: map[string]float64{"layers": nf / 10}})
		rows = append(rows, Row{Family: "wcde", Solver: "wcde-bisection", N: n, Solved: true, Status: "optimal",
			Wall: Spread{Median: time.Duration(1000 * nf)}})
		// Unsolved rows and rows without N are not fitted.
		rows = append(rows, Row{Family: "wcde", Solver: "wcde-scan", N: n, Status: "time_limit", Wall: Spread{Median: time.Second}})
		rows = append(rows, Row{Family: "netlib", Solver: "x", Solved: true, Status: "optimal", Wall: Spread{Median: time.Second}})
	}
	got := FitScaling(rows)
	if len(got) != 2 {
		t.Fatalf("%d series, want 2: %+v", len(got), got)
	}
	on, wc := got[0], got[1]
	if on.Family != "onion" || math.Abs(on.Time.K-2) > 1e-6 || on.PerLayer == nil || math.Abs(on.PerLayer.K-1) > 1e-6 {
		t.Errorf("onion: %+v per layer %+v", on, on.PerLayer)
	}
	if wc.Solver != "wcde-bisection" || math.Abs(wc.Time.K-1) > 1e-6 || wc.PerLayer != nil || len(wc.Points) != 4 {
		t.Errorf("wcde: %+v", wc)
	}
}
