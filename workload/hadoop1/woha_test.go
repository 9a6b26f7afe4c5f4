package hadoop1

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGenerateDeterministicAndValid(t *testing.T) {
	cfg := DefaultWOHAConfig()
	a, err := GenerateWOHA(7, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GenerateWOHA(7, cfg)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different workflows:\n%s", diff)
	}
	c, _ := GenerateWOHA(8, cfg)
	if cmp.Equal(a, c) {
		t.Fatal("seeds 7 and 8 give the same workflows")
	}
	if len(a) != cfg.Workflows {
		t.Fatalf("%d workflows, want %d", len(a), cfg.Workflows)
	}
	if _, err := FromWOHA("generated", a, WOHACluster(32), Noisy); err != nil {
		t.Fatal(err) // the workflows make a valid workload file
	}
	for i := 1; i < len(a); i++ {
		if a[i].Arrival < a[i-1].Arrival {
			t.Fatalf("arrivals not ordered: %v then %v", a[i-1].Arrival, a[i].Arrival)
		}
	}
	for _, w := range a {
		if lb := workspanLowerBound(&w, cfg.Slots); w.Deadline < cfg.SlackMin*lb-1e-9 || w.Deadline > math.Ceil(cfg.SlackMax*lb) {
			t.Errorf("%s: deadline %v outside slack × lower bound %v", w.ID, w.Deadline, lb)
		}
	}
}

// The task statistics §V-A reports for the Yahoo! trace hold over many generated jobs.
func TestGenerateYahooLikeStatistics(t *testing.T) {
	cfg := DefaultWOHAConfig()
	cfg.Workflows = 400
	ws, err := GenerateWOHA(1, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var jobs, mapsIn10to100, reduceOver100, reduceOver1000, withReduces, mapsOver100, reducesUnder10 int
	for _, w := range ws {
		for _, j := range w.Jobs {
			jobs++
			if j.Reduces > j.Maps {
				t.Fatalf("%s/%s: %d reducers outnumber %d mappers", w.ID, j.ID, j.Reduces, j.Maps)
			}
			if j.MapTime >= 10 && j.MapTime <= 100 {
				mapsIn10to100++
			}
			if j.Maps > 100 {
				mapsOver100++
			}
			if j.Reduces < 10 {
				reducesUnder10++
			}
			if j.Reduces > 0 {
				withReduces++
				if j.ReduceTime > 100 {
					reduceOver100++
				}
				if j.ReduceTime > 1000 {
					reduceOver1000++
				}
			}
		}
	}
	frac := func(k, n int) float64 { return float64(k) / float64(n) }
	checks := []struct {
		what     string
		got      float64
		low, top float64
	}{
		{"maps taking 10-100 s (most)", frac(mapsIn10to100, jobs), 0.7, 0.9},
		{"reduces taking > 100 s (more than half)", frac(reduceOver100, withReduces), 0.5, 0.7},
		{"reduces taking > 1000 s (about 10%)", frac(reduceOver1000, withReduces), 0.05, 0.15},
		{"jobs with > 100 maps (about 30%)", frac(mapsOver100, jobs), 0.25, 0.35},
		{"jobs with < 10 reduces (more than 60%)", frac(reducesUnder10, jobs), 0.6, 0.85},
	}
	for _, c := range checks {
		if c.got < c.low || c.got > c.top {
			t.Errorf("%s: %.3f, want in [%v, %v] (%d jobs)", c.what, c.got, c.low, c.top, jobs)
		}
	}
}

func TestGenerateRejectsBadConfig(t *testing.T) {
	for name, mutate := range map[string]func(*WOHAConfig){
		"negative workflows": func(c *WOHAConfig) { c.Workflows = -1 },
		"layers":             func(c *WOHAConfig) { c.LayersMin, c.LayersMax = 3, 2 },
		"width":              func(c *WOHAConfig) { c.WidthMax = 0 },
		"edge prob":          func(c *WOHAConfig) { c.ExtraEdgeProb = math.NaN() },
		"slack":              func(c *WOHAConfig) { c.SlackMin = 0 },
		"slots":              func(c *WOHAConfig) { c.Slots = 0 },
	} {
		cfg := DefaultWOHAConfig()
		mutate(&cfg)
		if _, err := GenerateWOHA(1, cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestThreeWorkflows(t *testing.T) {
	ws := ThreeWorkflows(1)
	if _, err := FromWOHA("3wf", ws, WOHACluster(32), Exact); err != nil {
		t.Fatal(err)
	}
	for i, w := range ws {
		if len(w.Jobs) != 33 || w.Arrival != float64(300*i) || w.Deadline != float64(60*(80-10*i)) {
			t.Errorf("%s: %d jobs, arrival %v, deadline %v", w.ID, len(w.Jobs), w.Arrival, w.Deadline)
		}
	}
	ws[0].Jobs[1].After = append(ws[0].Jobs[1].After, "j00")
	if cmp.Equal(ws[0].Jobs, ws[1].Jobs) {
		t.Error("the three workflows share their job slices")
	}
	if !cmp.Equal(ThreeWorkflows(1), ThreeWorkflows(1)) {
		t.Error("ThreeWorkflows is not deterministic")
	}
}
