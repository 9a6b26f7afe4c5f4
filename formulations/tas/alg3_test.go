package tas

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/sched"
)

// TestAlg3LineSevenCounterexample is the smallest instance on which Alg. 3 returns
// target completion times no schedule meets, whatever line 13 chooses. One container,
// three slots; a: η = 1, U = (9, 3, 3); b: η = 2, U = (6, 5, 0). L_f starts at 0.
//
// Layer 1 (L_i = 9): at L ∈ (3, 5], U_a^{-1}(L) = 1 and U_b^{-1}(L) = 2; line 7 holds
// for a (1 ≤ 1) and fails for b alone (1 + 2 > 2); above 5 it fails as well. At L ≤ 3,
// a's deadline is 3, b's 2, and line 7 holds (2 ≤ 2, 3 ≤ 3). The bisection ends at
// L_f = 3 with b the only failing job: T_b = U_b^{-1}(3) = 2, G_2 = G_3 = 2.
// Layer 2 (a alone, L_i = 9): line 7 checks only a's own deadline, U_a^{-1}(L) = 1 for
// L > 3: 1 + G_1 = 1 ≤ 1, so every L passes and T_a = 1.
// Slots 1–2 must then carry 1 + 2 = 3 units in 2 slots. Line 7 never looked at slot 2,
// b's deadline. The optimum is a in slot 3 (utility 3), b by slot 2 (utility 5).
func TestAlg3LineSevenCounterexample(t *testing.T) {
	in := spec{caps: constCaps(3, 1), demand: [][]int{{1}, {2}},
		util: []sched.Utility{table(9, 3, 3), table(6, 5, 0)}}.instance()
	for _, rule := range []Alg3Bottleneck{FirstFailing, LowestIndex, HighestIndex} {
		res, err := Alg3(context.Background(), in, Alg3Options{Bottleneck: rule})
		if !errors.Is(err, ErrAlg3Infeasible) {
			t.Fatalf("%v: err %v, want ErrAlg3Infeasible", rule, err)
		}
		if !slices.Equal(res.Deadlines, []int{1, 2}) || !slices.Equal(res.Order, []int{1, 0}) {
			t.Fatalf("%v: deadlines %v order %v, want [1 2] and [1 0]", rule, res.Deadlines, res.Order)
		}
		if v := res.Violation; v == nil || v.Slot != 2 || v.Demand != 3 || v.Capacity != 2 || res.Schedule != nil {
			t.Fatalf("%v: violation %+v schedule %v, want slots 1..2 holding 3 > 2", rule, v, res.Schedule)
		}
		if lf := res.PeelLevel[1]; lf > 3 || lf <= 3-DefaultAlg3Delta || res.Stats.NoBottleneck != 1 {
			t.Fatalf("%v: b peeled at L_f = %g (want within Δ below 3), %d layers without a failing level (want 1)", rule, lf, res.Stats.NoBottleneck)
		}
	}
	_, none, all := alg3EveryChoice(t, in, 0, []float64{3, 5})
	if !none || !all {
		t.Fatalf("some choice sequence avoids the infeasible targets")
	}
	ex, err := OnionPeel(context.Background(), in, Options{})
	if err != nil || !slices.Equal(ex.Schedule.Sorted, []float64{3, 5}) || !slices.Equal(ex.Deadlines, []int{3, 2}) {
		t.Fatalf("exact: %v %+v", err, ex)
	}
}

// TestAlg3TiedBottleneck: two jobs that cannot both finish in slot 1 fail line 7 together
// at every level above 0; line 13 must pick one of them to stay at 0, and only one choice
// is right. Each reading of line 13 gets one of the two instances wrong.
func TestAlg3TiedBottleneck(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   *sched.Instance
		want map[Alg3Bottleneck][]float64
	}{
		{
			// C = 1: a: η 1, U = (6, 0); b: η 1, U = (9, 0). Optimum (0, 9): a last.
			// Line 7's order is a, b (tied, by index); the prefix fails first at b.
			name: "C=1",
			in: spec{caps: constCaps(2, 1), demand: [][]int{{1}, {1}},
				util: []sched.Utility{table(6, 0), table(9, 0)}}.instance(),
			want: map[Alg3Bottleneck][]float64{FirstFailing: {0, 6}, LowestIndex: {0, 9}, HighestIndex: {0, 6}},
		},
		{
			// C = 2: a: η 1, U = (6, 0); b: η 2, U = (5, 0). Optimum (0, 6): b last.
			name: "C=2",
			in: spec{caps: constCaps(2, 2), demand: [][]int{{1}, {2}},
				util: []sched.Utility{table(6, 0), table(5, 0)}}.instance(),
			want: map[Alg3Bottleneck][]float64{FirstFailing: {0, 6}, LowestIndex: {0, 5}, HighestIndex: {0, 6}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exact := bruteForce(tc.in)
			for rule, want := range tc.want {
				res, err := Alg3(context.Background(), tc.in, Alg3Options{Bottleneck: rule})
				if err != nil {
					t.Fatalf("%v: %v", rule, err)
				}
				checkSchedule(t, tc.in, res.Schedule, res.Deadlines)
				if !slices.Equal(res.Schedule.Sorted, want) {
					t.Errorf("%v: %v, want %v (exact %v)", rule, res.Schedule.Sorted, want, exact)
				}
				if res.Schedule.Exact {
					t.Errorf("%v: Alg. 3's schedule marked exact", rule)
				}
			}
			if some, _, _ := alg3EveryChoice(t, tc.in, 0, exact); !some {
				t.Errorf("no choice sequence reaches the optimum %v", exact)
			}
		})
	}
}

// TestAlg3NeverBeatsExact: on random instances of Alg. 3's model, every answer is either
// targets that the independent prefix test rejects, or a schedule that checks and whose
// sorted utilities do not beat the exact lexmax; with one job Alg. 3 is exact.
func TestAlg3NeverBeatsExact(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := genSpec(rt, genOpts{maxJobs: 6, maxSlots: 8, maxCap: 4, maxDemand: 8,
			utility: rapid.SampledFrom([]string{"table", "real", "sigmoid", "mixed"}).Draw(rt, "family"), feasible: true})
		// The feasibility fill may raise early slots; Alg. 3 needs a constant capacity.
		top := slices.Max(s.caps[0])
		for ts := range s.caps[0] {
			s.caps[0][ts] = top
		}
		in := s.instance()
		ex, err := OnionPeel(context.Background(), in, Options{})
		if err != nil || !ex.Exact {
			rt.Fatalf("OnionPeel: %v (exact %v)", err, ex != nil && ex.Exact)
		}
		rule := rapid.SampledFrom([]Alg3Bottleneck{FirstFailing, LowestIndex, HighestIndex}).Draw(rt, "rule")
		res, err := Alg3(context.Background(), in, Alg3Options{Bottleneck: rule})
		if errors.Is(err, ErrAlg3Infeasible) {
			if prefixFeasible(in, res.Deadlines) || len(in.Jobs) == 1 {
				rt.Fatalf("deadlines %v called infeasible", res.Deadlines)
			}
			return
		}
		if err != nil {
			rt.Fatal(err)
		}
		checkSchedule(rt, in, res.Schedule, res.Deadlines)
		// In OnionPeel's order: U, and ln U where a sigmoid underflows to 0.
		c := sched.CompareSorted(keyVector(in, res.Schedule), keyVector(in, ex.Schedule), 0)
		if c > 0 || (len(in.Jobs) == 1 && c != 0) {
			rt.Fatalf("Alg. 3 %v, exact %v", res.Schedule.Sorted, ex.Schedule.Sorted)
		}
	})
}

func TestAlg3Rejects(t *testing.T) {
	good := func() *sched.Instance {
		return spec{caps: constCaps(3, 2), demand: [][]int{{1}, {2}}, util: []sched.Utility{table(3, 2, 1), table(2, 2, 0)}}.instance()
	}
	for _, tc := range []struct {
		name  string
		edit  func(*sched.Instance)
		opts  Alg3Options
		want  string
		model bool
	}{
		{"two resources", func(in *sched.Instance) {
			in.Resources = append(in.Resources, sched.Resource{Name: "mem", Capacity: []int{1, 1, 1}})
			for j := range in.Jobs {
				in.Jobs[j].Demand = append(in.Jobs[j].Demand, 1)
			}
		}, Alg3Options{}, "resources: 2 resources", true},
		{"varying capacity", func(in *sched.Instance) { in.Resources[0].Capacity[2] = 1 }, Alg3Options{}, "resources[0].capacity[2]", true},
		{"release", func(in *sched.Instance) { in.Jobs[1].Release = 2 }, Alg3Options{}, "jobs[1].release", true},
		{"max_parallel", func(in *sched.Instance) { in.Jobs[0].MaxParallel = 1 }, Alg3Options{}, "jobs[0].max_parallel", true},
		{"negative delta", nil, Alg3Options{Delta: -1}, "delta", false},
		{"unknown rule", nil, Alg3Options{Bottleneck: 7}, "bottleneck rule", false},
	} {
		in := good()
		if tc.edit != nil {
			tc.edit(in)
		}
		_, err := Alg3(context.Background(), in, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrAlg3Model) != tc.model {
			t.Errorf("%s: err %v, want %q (model error %v)", tc.name, err, tc.want, tc.model)
		}
	}
	if _, err := Alg3(context.Background(), nil, Alg3Options{}); err == nil {
		t.Error("nil instance accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Alg3(ctx, good(), Alg3Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// keyVector is the sorted vector of s's utilities in OnionPeel's order: the underflow
// keys (sched.UnderflowKeys) at the completion slots, or U where there are none.
func keyVector(in *sched.Instance, s *sched.Schedule) []float64 {
	keys, ok := sched.UnderflowKeys(in)
	out := make([]float64, len(s.Jobs))
	for j := range s.Jobs {
		out[j] = s.Jobs[j].Utility
		if ok {
			out[j] = keys[j].At(s.Jobs[j].Completion)
		}
	}
	slices.Sort(out)
	return out
}
