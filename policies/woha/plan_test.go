package woha

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// chain: a (4 maps × 2 s, 2 reduces × 3 s) then b (2 maps × 1 s, 1 reduce × 4 s).
func chainWorkflow(deadline float64) Workflow {
	return Workflow{ID: "chain", Deadline: deadline, Jobs: []Job{
		{ID: "a", Maps: 4, Reduces: 2, MapTime: 2, ReduceTime: 3},
		{ID: "b", Maps: 2, Reduces: 1, MapTime: 1, ReduceTime: 4, After: []string{"a"}},
	}}
}

// diamond: a (1 map × 1 s) feeds b (2 maps × 5 s) and c (2 maps × 1 s, 1 reduce × 1 s);
// d (1 map × 1 s) waits for both.
func diamondWorkflow() Workflow {
	return Workflow{ID: "diamond", Deadline: 100, Jobs: []Job{
		{ID: "a", Maps: 1, MapTime: 1},
		{ID: "b", Maps: 2, MapTime: 5, After: []string{"a"}},
		{ID: "c", Maps: 2, Reduces: 1, MapTime: 1, ReduceTime: 1, After: []string{"a"}},
		{ID: "d", Maps: 1, MapTime: 1, After: []string{"b", "c"}},
	}}
}

// The plans below are worked out by hand from Algorithm 1's text; the trace of each is in
// the comment.
func TestGenerateReqsHandComputed(t *testing.T) {
	cases := []struct {
		name string
		w    Workflow
		rank []int
		n    int
		want Plan
	}{
		{
			// t=0: a starts 3 maps (ends 2). t=2: a's last map (ends 4). t=4: a's 2
			// reduces (end 7). t=7: b's 2 maps (end 8). t=8: b's reduce (ends 12).
			name: "chain on 3 slots", w: chainWorkflow(100), rank: []int{0, 1}, n: 3,
			want: Plan{Cap: 3, Makespan: 12, Steps: []Step{{12, 3}, {10, 1}, {8, 2}, {5, 2}, {4, 1}}},
		},
		{
			// Maps 0,2,4,6 → 8; reduces 8, 11 → 14; b maps 14, 15 → 16; reduce 16 → 20.
			name: "chain on 1 slot", w: chainWorkflow(100), rank: []int{0, 1}, n: 1,
			want: Plan{Cap: 1, Makespan: 20, Steps: []Step{
				{20, 1}, {18, 1}, {16, 1}, {14, 1}, {12, 1}, {9, 1}, {6, 1}, {5, 1}, {4, 1}}},
		},
		{
			// All of a's maps at 0 → 2; reduces 2 → 5; b maps 5 → 6; reduce 6 → 10.
			name: "chain on 8 slots", w: chainWorkflow(100), rank: []int{0, 1}, n: 8,
			want: Plan{Cap: 8, Makespan: 10, Steps: []Step{{10, 4}, {8, 2}, {5, 2}, {4, 1}}},
		},
		{
			// t=0 a (→1). t=1 b, c ready; b first: 2 maps (→6). t=6 c's maps (→7).
			// t=7 c's reduce (→8). t=8 d (→9).
			name: "diamond, b before c", w: diamondWorkflow(), rank: []int{0, 1, 2, 3}, n: 2,
			want: Plan{Cap: 2, Makespan: 9, Steps: []Step{{9, 1}, {8, 2}, {3, 2}, {2, 1}, {1, 1}}},
		},
		{
			// t=1 c's maps (→2). t=2 c's reduce (→3) and one map of b (→7). t=3 b's other
			// map (→8). t=8 d (→9).
			name: "diamond, c before b", w: diamondWorkflow(), rank: []int{0, 2, 1, 3}, n: 2,
			want: Plan{Cap: 2, Makespan: 9, Steps: []Step{{9, 1}, {8, 2}, {7, 2}, {6, 1}, {1, 1}}},
		},
		{
			name: "no tasks at all", n: 4,
			w:    Workflow{ID: "empty", Deadline: 1, Jobs: []Job{{ID: "x"}, {ID: "y", After: []string{"x"}}}},
			rank: []int{0, 1},
			want: Plan{Cap: 4, Makespan: 0, Steps: []Step{}},
		},
		{
			// A reduce-only job waits for a map-only one: 2 maps at 0 (→3), then 2
			// reduces at 3 on the freed slots (→5).
			name: "map-only then reduce-only", n: 2, rank: []int{0, 1},
			w: Workflow{ID: "mr", Deadline: 10, Jobs: []Job{
				{ID: "m", Maps: 2, MapTime: 3},
				{ID: "r", Reduces: 2, ReduceTime: 2, After: []string{"m"}},
			}},
			want: Plan{Cap: 2, Makespan: 5, Steps: []Step{{5, 2}, {2, 2}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := Validate([]Workflow{tc.w}); err != nil {
				t.Fatal(err)
			}
			got, err := GenerateReqs(&tc.w, tc.rank, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if got.Tasks() != tc.w.Tasks() {
				t.Errorf("plan schedules %d tasks, workflow has %d", got.Tasks(), tc.w.Tasks())
			}
		})
	}
}

func TestGenerateReqsRejectsBadCap(t *testing.T) {
	w := chainWorkflow(10)
	if _, err := GenerateReqs(&w, []int{0, 1}, 0); err == nil {
		t.Error("cap 0 accepted")
	}
	if _, err := GenerateReqs(&w, []int{0}, 2); err == nil {
		t.Error("rank of the wrong length accepted")
	}
}

// The chain's workspans are 20, 12, 12, 10, 10, ... on 1, 2, 3, 4, 5, ... slots (cap 2:
// maps 0, 2 → 4; reduces 4 → 7; b's maps 7 → 8; reduce 8 → 12).
func TestSearchCapChain(t *testing.T) {
	cases := []struct {
		deadline float64
		cap      int
		met      bool
	}{
		{20, 1, true}, {19.9, 2, true}, {12, 2, true}, {11, 4, true}, {10, 4, true}, {9, 16, false},
	}
	for _, tc := range cases {
		w := chainWorkflow(tc.deadline)
		p, met, err := SearchCap(&w, []int{0, 1}, 16)
		if err != nil {
			t.Fatal(err)
		}
		if p.Cap != tc.cap || met != tc.met {
			t.Errorf("deadline %v: cap %d met %v, want cap %d met %v", tc.deadline, p.Cap, met, tc.cap, tc.met)
		}
	}
}

// What the binary search can promise whether or not the workspan is monotone in the cap:
// the cap it returns meets the deadline and one slot fewer does not.
func TestSearchCapBoundary(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := rapidWorkflow(rt)
		rank := Ranks(&w, Rule(rapid.IntRange(0, 2).Draw(rt, "rule")))
		slots := rapid.IntRange(1, 40).Draw(rt, "slots")
		p, met, err := SearchCap(&w, rank, slots)
		if err != nil {
			rt.Fatal(err)
		}
		full, _ := GenerateReqs(&w, rank, slots)
		if !met {
			if full.Makespan <= w.Deadline || p.Cap != slots {
				rt.Fatalf("not met, but the full cluster gives %v <= %v (cap %d)", full.Makespan, w.Deadline, p.Cap)
			}
			return
		}
		if p.Makespan > w.Deadline {
			rt.Fatalf("cap %d: workspan %v > deadline %v", p.Cap, p.Makespan, w.Deadline)
		}
		if p.Cap > 1 {
			below, _ := GenerateReqs(&w, rank, p.Cap-1)
			if below.Makespan <= w.Deadline {
				rt.Fatalf("cap %d returned but cap %d meets too (%v <= %v)", p.Cap, p.Cap-1, below.Makespan, w.Deadline)
			}
		}
	})
}

// Plans are consistent with the simulation they come from: every task is in the plan,
// the first step is at TTD = workspan, and nothing needs more slots than the cap.
func TestGenerateReqsInvariants(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := rapidWorkflow(rt)
		rank := Ranks(&w, Rule(rapid.IntRange(0, 2).Draw(rt, "rule")))
		n := rapid.IntRange(1, 30).Draw(rt, "n")
		p, err := GenerateReqs(&w, rank, n)
		if err != nil {
			rt.Fatal(err)
		}
		if p.Tasks() != w.Tasks() {
			rt.Fatalf("plan has %d tasks, workflow %d", p.Tasks(), w.Tasks())
		}
		for i, s := range p.Steps {
			if s.Req < 1 || s.Req > n || (i > 0 && s.TTD >= p.Steps[i-1].TTD) || s.TTD < 0 || s.TTD > p.Makespan {
				rt.Fatalf("bad step %d %+v in %+v", i, s, p)
			}
		}
		if len(p.Steps) > 0 && p.Steps[0].TTD != p.Makespan {
			rt.Fatalf("first step at ttd %v, workspan %v", p.Steps[0].TTD, p.Makespan)
		}
		b, _ := p.MarshalBinary()
		var q Plan
		if err := q.UnmarshalBinary(b); err != nil {
			rt.Fatal(err)
		}
		if len(p.Steps) == 0 {
			q.Steps = p.Steps
		}
		if diff := cmp.Diff(p, q); diff != "" {
			rt.Fatalf("round trip:\n%s", diff)
		}
	})
}

// rapidWorkload draws 1..most workflows arriving at whole seconds in [0, lastArrival].
func rapidWorkload(rt *rapid.T, most, lastArrival int) []Workflow {
	ws := make([]Workflow, rapid.IntRange(1, most).Draw(rt, "workflows"))
	for i := range ws {
		ws[i] = rapidWorkflow(rt)
		ws[i].ID = fmt.Sprintf("w%d", i)
		ws[i].Arrival = float64(rapid.IntRange(0, lastArrival).Draw(rt, "arrival"))
	}
	return ws
}

// rapidWorkflow draws a small valid DAG with positive task times.
func rapidWorkflow(rt *rapid.T) Workflow {
	n := rapid.IntRange(1, 7).Draw(rt, "jobs")
	w := Workflow{ID: "w", Deadline: float64(rapid.IntRange(1, 80).Draw(rt, "deadline"))}
	for j := 0; j < n; j++ {
		job := Job{
			ID:         string(rune('a' + j)),
			Maps:       rapid.IntRange(0, 12).Draw(rt, "maps"),
			Reduces:    rapid.IntRange(0, 4).Draw(rt, "reduces"),
			MapTime:    float64(rapid.IntRange(1, 6).Draw(rt, "mt")),
			ReduceTime: float64(rapid.IntRange(1, 9).Draw(rt, "rt")),
		}
		for k := 0; k < j; k++ {
			if rapid.IntRange(0, 2).Draw(rt, "edge") == 0 {
				job.After = append(job.After, string(rune('a'+k)))
			}
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w
}

func TestPriorities(t *testing.T) {
	// a → c (a is long); b → d → g (short chain); e → p, q, r (wide).
	w := Workflow{ID: "w", Deadline: 10, Jobs: []Job{
		{ID: "a", Maps: 1, MapTime: 50, ReduceTime: 50},
		{ID: "b", Maps: 1, MapTime: 1, ReduceTime: 1},
		{ID: "c", Maps: 1, MapTime: 1, ReduceTime: 1, After: []string{"a"}},
		{ID: "d", Maps: 1, MapTime: 1, ReduceTime: 1, After: []string{"b"}},
		{ID: "g", Maps: 1, MapTime: 1, ReduceTime: 1, After: []string{"d"}},
		{ID: "e", Maps: 1, MapTime: 1, ReduceTime: 1},
		{ID: "p", Maps: 1, MapTime: 1, ReduceTime: 1, After: []string{"e"}},
		{ID: "q", Maps: 1, MapTime: 1, ReduceTime: 1, After: []string{"e"}},
		{ID: "r", Maps: 1, MapTime: 1, ReduceTime: 1, After: []string{"e"}},
	}}
	cases := []struct {
		rule   Rule
		scores []float64
		ranks  []int
	}{
		// Levels: sinks c, g, p, q, r are 0; a, d, e 1; b 2.
		{HLF, []float64{1, 2, 0, 1, 0, 1, 0, 0, 0}, []int{1, 0, 4, 2, 5, 3, 6, 7, 8}},
		// Paths: a 100+2, b 2+2+2, d 4, e 4, sinks 2.
		{LPF, []float64{102, 6, 2, 4, 2, 4, 2, 2, 2}, []int{0, 1, 4, 2, 5, 3, 6, 7, 8}},
		// Direct dependents: e 3; a, b, d 1.
		{MPF, []float64{1, 1, 0, 1, 0, 3, 0, 0, 0}, []int{1, 2, 4, 3, 5, 0, 6, 7, 8}},
	}
	for _, tc := range cases {
		t.Run(tc.rule.String(), func(t *testing.T) {
			if diff := cmp.Diff(tc.scores, Scores(&w, tc.rule)); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.ranks, Ranks(&w, tc.rule)); diff != "" {
				t.Errorf("ranks (-want +got):\n%s", diff)
			}
			r, err := ParseRule(tc.rule.String())
			if err != nil || r != tc.rule {
				t.Errorf("ParseRule(%q) = %v, %v", tc.rule, r, err)
			}
		})
	}
	if _, err := ParseRule("sjf"); err == nil {
		t.Error("ParseRule accepted sjf")
	}
}

func TestValidate(t *testing.T) {
	good := func() []Workflow {
		return []Workflow{chainWorkflow(10), diamondWorkflow()}
	}
	cases := []struct {
		name   string
		mutate func(ws []Workflow)
		want   []string
	}{
		{"valid", func([]Workflow) {}, nil},
		{"unknown prerequisite", func(ws []Workflow) { ws[1].Jobs[1].After = []string{"x"} },
			[]string{`workflows[1].jobs[1].after[0]: unknown job "x"`}},
		{"self edge", func(ws []Workflow) { ws[0].Jobs[1].After = []string{"a", "b"} },
			[]string{`workflows[0].jobs[1].after[1]: job "b" cannot come after itself`}},
		{"cycle", func(ws []Workflow) { ws[1].Jobs[0].After = []string{"d"} },
			[]string{`workflows[1].jobs[0].after: cycle "a" after "d" after "b" after "a"`}},
		{"negative sizes", func(ws []Workflow) {
			ws[0].Jobs[0].Maps = -1
			ws[0].Jobs[1].Reduces = -2
			ws[1].Jobs[2].MapTime = -3
		}, []string{
			"workflows[0].jobs[0].maps: must be >= 0, got -1",
			"workflows[0].jobs[1].reduces: must be >= 0, got -2",
			"workflows[1].jobs[2].map_time: must be a finite number >= 0, got -3",
		}},
		{"duplicates", func(ws []Workflow) {
			ws[1].ID = "chain"
			ws[1].Jobs[3].ID = "a"
			ws[0].Jobs[1].After = []string{"a", "a"}
		}, []string{
			`workflows[0].jobs[1].after[1]: duplicate prerequisite "a" (also after[0])`,
			`workflows[1].id: duplicate workflow "chain" (also workflows[0])`,
			`workflows[1].jobs[3].id: duplicate job "a" (also workflows[1].jobs[0])`,
		}},
		{"deadline and arrival", func(ws []Workflow) { ws[0].Deadline = 0; ws[1].Arrival = -1 }, []string{
			"workflows[0].deadline: must be a finite number > 0, got 0",
			"workflows[1].arrival: must be a finite number >= 0, got -1",
		}},
		{"no jobs", func(ws []Workflow) { ws[1].Jobs = nil }, []string{"workflows[1].jobs: must contain at least one job"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := good()
			tc.mutate(ws)
			err := Validate(ws)
			var got []string
			if err != nil {
				for _, line := range strings.Split(err.Error(), "\n") {
					got = append(got, line)
				}
				var fe *FieldError
				if !errors.As(err, &fe) {
					t.Errorf("error is not a *FieldError: %v", err)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanUnmarshalRejects(t *testing.T) {
	p := Plan{Cap: 3, Makespan: 12, Steps: []Step{{12, 3}, {10, 1}}}
	b, _ := p.MarshalBinary()
	for cut := 0; cut < len(b); cut++ {
		var q Plan
		if err := q.UnmarshalBinary(b[:cut]); err == nil {
			t.Errorf("accepted %d of %d bytes", cut, len(b))
		}
	}
	var q Plan
	if err := q.UnmarshalBinary(append(b, 0)); err == nil {
		t.Error("accepted a trailing byte")
	}
	bad := Plan{Cap: 3, Makespan: 12, Steps: []Step{{10, 3}, {12, 1}}}
	b, _ = bad.MarshalBinary()
	if err := q.UnmarshalBinary(b); err == nil {
		t.Error("accepted increasing TTDs")
	}
}

func FuzzPlanUnmarshal(f *testing.F) {
	for _, p := range []Plan{
		{Cap: 3, Makespan: 12, Steps: []Step{{12, 3}, {10, 1}, {8, 2}, {5, 2}, {4, 1}}},
		{Cap: 1, Makespan: 0},
	} {
		b, _ := p.MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Plan
		if err := p.UnmarshalBinary(b); err != nil {
			return
		}
		again, _ := p.MarshalBinary()
		var q Plan
		if err := q.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoded plan rejected: %v", err)
		}
		if diff := cmp.Diff(p, q); diff != "" {
			t.Fatalf("round trip:\n%s", diff)
		}
	})
}

// Validate never panics, and whatever it accepts the rest of the package can plan and
// schedule without panicking. Workloads start valid and take 0-3 random corruptions:
// empty or repeated IDs, edges to anything (cycles included), negative, NaN and
// infinite numbers.
func TestValidateGuardsEverything(t *testing.T) {
	bad := rapid.SampledFrom([]float64{-1, math.NaN(), math.Inf(1), math.Inf(-1), 0})
	valid := 0
	rapid.Check(t, func(rt *rapid.T) {
		ws := rapidWorkload(rt, 3, 10)
		for k := rapid.IntRange(0, 3).Draw(rt, "corruptions"); k > 0; k-- {
			w := &ws[rapid.IntRange(0, len(ws)-1).Draw(rt, "w")]
			job := &w.Jobs[rapid.IntRange(0, len(w.Jobs)-1).Draw(rt, "j")]
			other := w.Jobs[rapid.IntRange(0, len(w.Jobs)-1).Draw(rt, "other")].ID
			switch rapid.IntRange(0, 8).Draw(rt, "kind") {
			case 0:
				w.ID = rapid.SampledFrom([]string{"", "w0"}).Draw(rt, "wid")
			case 1:
				job.ID = rapid.SampledFrom([]string{"", "a", other}).Draw(rt, "jid")
			case 2:
				job.After = append(job.After, rapid.SampledFrom([]string{"", "zz", other}).Draw(rt, "edge"))
			case 3:
				job.Maps = -rapid.IntRange(1, 3).Draw(rt, "neg")
			case 4:
				job.Reduces = -1
			case 5:
				job.MapTime = bad.Draw(rt, "bad")
			case 6:
				job.ReduceTime = bad.Draw(rt, "bad")
			case 7:
				w.Deadline = bad.Draw(rt, "bad")
			case 8:
				w.Arrival = bad.Draw(rt, "bad")
			}
		}
		if err := Validate(ws); err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "workflows[") {
					rt.Fatalf("error without a path: %q", line)
				}
			}
			return
		}
		valid++
		for i := range ws {
			for _, rule := range []Rule{HLF, LPF, MPF} {
				rank := Ranks(&ws[i], rule)
				if _, _, err := SearchCap(&ws[i], rank, 4); err != nil {
					rt.Fatal(err)
				}
			}
		}
		c := toyCluster{t: rt, slots: [2]int{2, 1}, runtime: estimates(ws)}
		c.run(newPicker(t, "woha", SchedulerConfig{Rule: LPF, Slots: 3}), ws)
	})
	if valid == 0 {
		t.Error("no drawn workload was valid: the test exercised only Validate")
	}
}
