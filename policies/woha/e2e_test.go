package woha

import (
	"github.com/coraopt/coraopt/workload/hadoop1"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func newPicker(t testing.TB, name string, opt SchedulerConfig) Picker {
	t.Helper()
	var p Picker
	var err error
	switch name {
	case "fifo":
		p, err = NewBaseline(FIFO)
	case "fair":
		p, err = NewBaseline(Fair)
	case "edf":
		p, err = NewBaseline(EDF)
	default:
		p, err = NewScheduler(opt)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFig2ResourceCap(t *testing.T) {
	ws := hadoop1.Fig2()
	rank := Ranks(&ws[0], HLF)
	p6, _ := GenerateReqs(&ws[0], rank, 6)
	if want := (Plan{Cap: 6, Makespan: 3, Steps: []Step{{3, 6}, {2, 3}, {1, 3}}}); !cmp.Equal(p6, want) {
		t.Errorf("cap-6 plan %+v, want %+v", p6, want)
	}
	for i, wantCap := range []int{2, 2, 1} {
		p, met, _ := SearchCap(&ws[i], rank, 6)
		if !met || p.Cap != wantCap {
			t.Errorf("%s: searched cap %d (met %v), want %d", ws[i].ID, p.Cap, met, wantCap)
		}
	}
	cluster := toyCluster{t: t, slots: [2]int{3, 3}, runtime: estimates(ws)}
	// Cap 6, traced by hand: until t=6 all lags are 0 and the three workflows take turns
	// on the map slots (a's maps end at 6 for all three); a's reduces of W1 and W2 run
	// 6-8, their b maps 8-10. W3's reduces get the reduce slots at 8, its b at 10.
	full := cluster.run(newPicker(t, "woha", SchedulerConfig{Rule: HLF, Slots: 6, FixedCap: 6}), ws)
	if diff := cmp.Diff([]float64{10, 10, 11}, full.completion); diff != "" {
		t.Errorf("cap 6 completions (-want +got):\n%s", diff)
	}
	// Searched caps: W1 and W2 ask for 2 tasks per unit from t=2, take the map slots
	// from W3, finish a's maps at 5, reduces at 7, b at 9.
	capped := cluster.run(newPicker(t, "woha", SchedulerConfig{Rule: HLF, Slots: 6}), ws)
	if diff := cmp.Diff([]bool{true, true, true}, capped.met(ws)); diff != "" {
		t.Errorf("searched caps: deadlines met (-want +got):\n%s (completions %v)", diff, capped.completion)
	}
	if capped.completion[0] != 9 || capped.completion[1] != 9 {
		t.Errorf("searched caps: W1, W2 complete at %v, want 9, 9", capped.completion[:2])
	}
}

// fifoCase: W1 (one job, 20 maps + 1 reduce, D = 30) at 0, W2 (a chain of three 2-map
// jobs, D = 8) at 1, on 2 map + 1 reduce slots, unit task times.
//
// FIFO, by hand: W1's job is first in the queue, so its 20 maps hold both map slots
// until 10 and its reduce runs 10-11; W2's chain runs 10-13 and misses 9.
//
// WOHA: W1's plan is cap 1 (21 ≤ 30) and asks for nothing before 30−21 = 9; W2's is cap
// 1 too (6 ≤ 8), asking one task per unit from 9−6 = 3. Lags (F − ρ) decide: t=0 W1
// takes both slots (−2); t=1 W2 takes both (0, then −1, against −2); t=2 W1 (−2 ties
// −2, lower handle) then W2; t=3 W2 (1−3 = −2 against −3) then W1; t=4 W2 takes both
// for j3 (2−4 = −2 against −4) and is done at 5. W1's last 16 maps run 5-13, its
// reduce 13-14 ≤ 30.
func fifoCase() []Workflow {
	return []Workflow{
		{ID: "W1", Arrival: 0, Deadline: 30, Jobs: []Job{{ID: "big", Maps: 20, Reduces: 1, MapTime: 1, ReduceTime: 1}}},
		{ID: "W2", Arrival: 1, Deadline: 8, Jobs: []Job{
			{ID: "j1", Maps: 2, MapTime: 1},
			{ID: "j2", Maps: 2, MapTime: 1, After: []string{"j1"}},
			{ID: "j3", Maps: 2, MapTime: 1, After: []string{"j2"}},
		}},
	}
}

// edfCase: W1 (a chain of four 1-map jobs, map time 2, D = 11) and W2 (one job of 12
// maps, D = 10), both at 0, on 3 map + 1 reduce slots.
//
// EDF, by hand: W2's deadline is earlier, so it takes all three map slots for t=0-4;
// W1's chain runs 4-12 and misses 11.
//
// WOHA: W1's plan (cap 1, workspan 8) asks one task at 3, 5, 7, 9; W2's (cap 2,
// workspan 6) two per unit from 4. At t=0 both lag 0: W1 takes one slot, W2 two; W1's
// chain is never kept waiting (its lag is −1 against W2's ≤ −2 whenever a job of it is
// ready), so it finishes at 8; W2's 12 maps fill the rest and end at 6.
func edfCase() []Workflow {
	return []Workflow{
		{ID: "W1", Deadline: 11, Jobs: []Job{
			{ID: "j1", Maps: 1, MapTime: 2},
			{ID: "j2", Maps: 1, MapTime: 2, After: []string{"j1"}},
			{ID: "j3", Maps: 1, MapTime: 2, After: []string{"j2"}},
			{ID: "j4", Maps: 1, MapTime: 2, After: []string{"j3"}},
		}},
		{ID: "W2", Deadline: 10, Jobs: []Job{{ID: "wide", Maps: 12, MapTime: 1}}},
	}
}

func TestEndToEndHandTraced(t *testing.T) {
	cases := []struct {
		name    string
		ws      []Workflow
		slots   [2]int
		results map[string][]float64 // picker → completion per workflow
	}{
		{"fifo misses, woha meets", fifoCase(), [2]int{2, 1}, map[string][]float64{
			"fifo": {11, 13}, "woha": {14, 5}}},
		{"edf misses, woha meets", edfCase(), [2]int{3, 1}, map[string][]float64{
			"edf": {12, 4}, "woha": {8, 6}}},
	}
	for _, tc := range cases {
		for name, want := range tc.results {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				c := toyCluster{t: t, slots: tc.slots, runtime: estimates(tc.ws)}
				got := c.run(newPicker(t, name, SchedulerConfig{Rule: HLF, Slots: tc.slots[0] + tc.slots[1]}), tc.ws).completion
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("completions (-want +got):\n%s", diff)
				}
			})
		}
	}
	// The hand traces above say who misses; check the deadlines, not just the times.
	ws := fifoCase()
	c := toyCluster{t: t, slots: [2]int{2, 1}, runtime: estimates(ws)}
	if m := c.run(newPicker(t, "fifo", SchedulerConfig{}), ws).met(ws); m[1] {
		t.Error("FIFO meets W2's deadline in the FIFO case")
	}
	if m := c.run(newPicker(t, "woha", SchedulerConfig{Rule: HLF, Slots: 3}), ws).met(ws); !m[0] || !m[1] {
		t.Errorf("WOHA misses in the FIFO case: %v", m)
	}
}

// Every picker runs random workloads to the end without handing out a job that has
// nothing waiting or leaving a slot idle while a task waits (the toy cluster checks
// both on every decision).
func TestPickersWorkConserving(t *testing.T) {
	for _, name := range []string{"fifo", "fair", "edf", "woha-hlf", "woha-lpf", "woha-mpf"} {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				ws := rapidWorkload(rt, 8, 20)
				slots := [2]int{rapid.IntRange(1, 5).Draw(rt, "maps"), rapid.IntRange(1, 3).Draw(rt, "reduces")}
				rule := map[string]Rule{"woha-hlf": HLF, "woha-lpf": LPF, "woha-mpf": MPF}[name]
				p := newPicker(t, name, SchedulerConfig{Rule: rule, Slots: slots[0] + slots[1]})
				c := toyCluster{t: rt, slots: slots, runtime: estimates(ws)}
				run := c.run(p, ws)
				for i := range ws {
					if run.completion[i] < ws[i].Arrival {
						rt.Fatalf("%s completes at %v before arriving at %v", ws[i].ID, run.completion[i], ws[i].Arrival)
					}
				}
			})
		})
	}
}

// Baseline pick rules on one instant: FIFO by submission, Fair by fewest running, EDF by
// workflow deadline.
func TestBaselineOrder(t *testing.T) {
	ws := []Workflow{
		{ID: "late", Deadline: 100, Jobs: []Job{{ID: "x", Maps: 3, MapTime: 1}}},
		{ID: "early", Deadline: 10, Jobs: []Job{{ID: "y", Maps: 3, MapTime: 1}}},
	}
	picks := func(kind BaselineKind) []int {
		b, _ := NewBaseline(kind)
		for i := range ws {
			h, err := b.Submit(0, &ws[i])
			if err != nil {
				t.Fatal(err)
			}
			if err := b.JobReady(0, Choice{h, 0}); err != nil {
				t.Fatal(err)
			}
		}
		var got []int
		for k := 0; k < 4; k++ {
			c, ok := b.Pick(0, MapPool)
			if !ok {
				t.Fatalf("%v: nothing to pick", kind)
			}
			if err := b.TaskStarted(0, c, MapPool); err != nil {
				t.Fatal(err)
			}
			got = append(got, c.Workflow)
		}
		if _, ok := b.Pick(0, ReducePool); ok {
			t.Errorf("%v: picked a reduce with none waiting", kind)
		}
		return got
	}
	for kind, want := range map[BaselineKind][]int{FIFO: {0, 0, 0, 1}, Fair: {0, 1, 0, 1}, EDF: {1, 1, 1, 0}} {
		if diff := cmp.Diff(want, picks(kind)); diff != "" {
			t.Errorf("%v picks (-want +got):\n%s", kind, diff)
		}
	}
}

// Misuse is an error, not a panic or a silent miscount.
func TestPickerRejectsBadEvents(t *testing.T) {
	w := chainWorkflow(50)
	for _, name := range []string{"fifo", "woha"} {
		p := newPicker(t, name, SchedulerConfig{Rule: HLF, Slots: 4})
		h, err := p.Submit(0, &w)
		if err != nil {
			t.Fatal(err)
		}
		checks := []struct {
			what string
			err  error
		}{
			{"unknown workflow", p.JobReady(0, Choice{h + 1, 0})},
			{"unknown job", p.JobReady(0, Choice{h, 7})},
			{"start before ready", p.TaskStarted(0, Choice{h, 0}, MapPool)},
			{"finish before start", p.TaskFinished(0, Choice{h, 0}, MapPool)},
		}
		for _, c := range checks {
			if c.err == nil {
				t.Errorf("%s: %s accepted", name, c.what)
			}
		}
		if err := p.JobReady(0, Choice{h, 0}); err != nil {
			t.Fatal(err)
		}
		if err := p.JobReady(0, Choice{h, 0}); err == nil {
			t.Errorf("%s: job ready twice accepted", name)
		}
		if err := p.TaskStarted(0, Choice{h, 0}, ReducePool); err == nil {
			t.Errorf("%s: reduce started while maps run", name)
		}
		bad := w
		bad.Jobs = append([]Job(nil), w.Jobs...)
		bad.Jobs[1].After = []string{"zz"}
		if _, err := p.Submit(0, &bad); err == nil {
			t.Errorf("%s: invalid workflow submitted", name)
		}
	}
}
