package verify

import (
	"math"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// failed lists the names of the failed checks of r.
func failed(r Report) []string {
	var out []string
	for _, c := range r.Failures() {
		out = append(out, c.Name)
	}
	return out
}

// firstHeld returns the first (resource, slot index) where job j holds something.
func firstHeld(js *sched.JobSchedule) (int, int) {
	for r, row := range js.Alloc {
		for t, x := range row {
			if x > 0 {
				return r, t
			}
		}
	}
	return -1, -1
}

// spare finds a job and a slot before its completion where resource 0 has room.
func spare(in *sched.Instance, s *sched.Schedule) (int, int) {
	for t := range in.Horizon {
		used := 0
		for j := range s.Jobs {
			used += s.Jobs[j].Alloc[0][t]
		}
		if used == in.Resources[0].Capacity[t] {
			continue
		}
		for j := range s.Jobs {
			if t+1 <= s.Jobs[j].Completion && t+1 >= in.Jobs[j].Release {
				return j, t
			}
		}
	}
	panic("no spare capacity before any job's completion")
}

func TestSchedule(t *testing.T) {
	tests := []struct {
		name     string
		instance string
		opt      ScheduleOptions
		// corrupt changes the schedule; finalize then recomputes its claims
		// (completion, utility, sorted) from the allocation.
		corrupt  func(in *sched.Instance, s *sched.Schedule)
		finalize bool
		want     []string
	}{
		{"onion quickstart", "quickstart.json", ScheduleOptions{}, nil, false, nil},
		{"onion release", "tas/release.json", ScheduleOptions{}, nil, false, nil},
		{"onion max-parallel", "tas/max-parallel.json", ScheduleOptions{}, nil, false, nil},
		{"onion two resources", "tas/two-resources.json", ScheduleOptions{}, nil, false, nil},
		{"negative", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			r, t := firstHeld(&s.Jobs[0])
			s.Jobs[0].Alloc[r][t] -= 100 // below zero, and below the demand
		}, true, []string{CheckNonnegative, CheckDemand}},
		{"capacity", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			r, t := firstHeld(&s.Jobs[0])
			s.Jobs[0].Alloc[r][t] += in.Resources[r].Capacity[t] + 1
		}, true, []string{CheckCapacity}},
		{"capacity two resources", "tas/two-resources.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			r, t := firstHeld(&s.Jobs[1])
			s.Jobs[1].Alloc[r][t] += in.Resources[r].Capacity[t] + 1
		}, true, []string{CheckCapacity}},
		{"demand", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			r, t := firstHeld(&s.Jobs[0])
			s.Jobs[0].Alloc[r][t]--
		}, true, []string{CheckDemand}},
		{"demand exactly (CORA)", "quickstart.json", ScheduleOptions{ExactDemand: true}, func(in *sched.Instance, s *sched.Schedule) {
			// One more unit in a slot with room before the job's completion: TAS allows
			// more than the demand, CORA does not.
			j, t := spare(in, s)
			s.Jobs[j].Alloc[0][t]++
		}, true, []string{CheckDemand}},
		{"more than the demand is fine for TAS", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			j, t := spare(in, s)
			s.Jobs[j].Alloc[0][t]++
		}, true, nil},
		{"release", "tas/release.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			j := in.JobIndex("late")
			r, t := firstHeld(&s.Jobs[j])
			s.Jobs[j].Alloc[r][t]--
			s.Jobs[j].Alloc[r][0]++ // slot 1, before its release 2 (and slot 1 is early's)
		}, true, []string{CheckCapacity, CheckRelease}},
		{"max-parallel", "tas/max-parallel.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			j := in.JobIndex("narrow")
			js := &s.Jobs[j]
			last := js.Completion - 1
			r, t := firstHeld(js)
			if t == last {
				panic("narrow holds one slot only")
			}
			js.Alloc[r][t]++ // two units in one slot, max_parallel 1; one fewer later
			js.Alloc[r][last]--
		}, true, []string{CheckCapacity, CheckMaxParallel}},
		{"completion claim", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			s.Jobs[2].Completion++
		}, false, []string{CheckCompletion}},
		{"allocation moved later, claims stale", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			js := &s.Jobs[0]
			r, t := firstHeld(js)
			js.Alloc[r][t]--
			js.Alloc[r][in.Horizon-1]++ // the job now ends in the last slot
		}, false, []string{CheckCompletion, CheckUtility}},
		{"utility claim", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			s.Jobs[1].Utility *= 1 + 1e-6 // Sorted and Sum are recomputed from the claims
		}, false, []string{CheckUtility, CheckSorted}},
		{"utility NaN", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			s.Jobs[1].Utility = math.NaN()
		}, false, []string{CheckUtility, CheckSorted}},
		{"sorted claim", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			s.Sorted[3] += 0.01
		}, false, []string{CheckSorted}},
		{"min claim", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) { s.Min = 0 }, false, []string{CheckSorted}},
		{"sum claim", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) { s.Sum++ }, false, []string{CheckSorted}},
		{"sorted too short", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			s.Sorted = s.Sorted[1:]
		}, false, []string{CheckSorted}},
		{"shape: a job missing", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			s.Jobs = s.Jobs[1:]
		}, false, []string{CheckShape}},
		{"shape: wrong id", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			s.Jobs[0].ID = "someone else"
		}, false, []string{CheckShape}},
		{"shape: short row", "quickstart.json", ScheduleOptions{}, func(in *sched.Instance, s *sched.Schedule) {
			s.Jobs[0].Alloc[0] = s.Jobs[0].Alloc[0][:1]
		}, false, []string{CheckShape}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := load(t, tc.instance)
			s := cloneSchedule(onion(t, in))
			if tc.corrupt != nil {
				tc.corrupt(in, s)
				if tc.finalize {
					s.Finalize(in)
				}
			}
			rep := Schedule(in, s, tc.opt)
			if got := failed(rep); !slices.Equal(got, tc.want) {
				t.Fatalf("failed checks %v, want %v\n%v", got, tc.want, rep.Checks)
			}
			if rep.OK() != (tc.want == nil) {
				t.Errorf("OK() = %t", rep.OK())
			}
			for _, c := range rep.Failures() {
				if !(c.MaxViolation > 0) || c.Detail == "" {
					t.Errorf("%s: max violation %g, detail %q", c.Name, c.MaxViolation, c.Detail)
				}
			}
			if slices.Contains(tc.want, CheckShape) {
				if n := rep.Counts().Skipped; n != 8 {
					t.Errorf("shape mismatch: %d checks skipped, want the other 8", n)
				}
			} else if n := len(rep.Checks); n != 9 {
				t.Errorf("%d checks, want 9", n)
			}
		})
	}
}

func TestScheduleNil(t *testing.T) {
	in := load(t, "quickstart.json")
	for name, rep := range map[string]Report{
		"nil schedule": Schedule(in, nil, ScheduleOptions{}),
		"nil instance": Schedule(nil, onion(t, in), ScheduleOptions{}),
	} {
		if rep.OK() || mustFind(t, rep, CheckShape).OK {
			t.Errorf("%s: %v", name, rep.Checks)
		}
	}
}

func TestOptimality(t *testing.T) {
	opt := []float64{1, 2, 3}
	tests := []struct {
		got  []float64
		ok   bool
		viol float64
	}{
		{[]float64{1, 2, 3}, true, 0},
		{[]float64{1, 2, 3 + 1e-12}, true, 0}, // within UtilityTol
		{[]float64{1, 1.5, 3.5}, false, 0.5},  // worse at position 2
		{[]float64{1, 2.5, 2.5}, false, 0.5},  // better: the optimum is not one
		{[]float64{1, 2}, false, math.Inf(1)}, // shorter
		{[]float64{math.NaN(), 2, 3}, false, math.Inf(1)},
	}
	for _, tc := range tests {
		c := Optimality("optimality", tc.got, opt)
		if c.OK != tc.ok || c.MaxViolation != tc.viol {
			t.Errorf("Optimality(%v) = ok %t, violation %g (%s); want %t, %g", tc.got, c.OK, c.MaxViolation, c.Detail, tc.ok, tc.viol)
		}
	}
}

func TestOnionVsMIP(t *testing.T) {
	onion := []float64{1, 2, 3}
	tests := []struct {
		name  string
		mip   []float64
		exact bool
		ok    bool
	}{
		{"agree", []float64{1, 2, 3}, true, true},
		{"agree, onion not proven", []float64{1, 2, 3}, false, true},
		{"MIP better than an exact onion", []float64{1, 2.5, 2.5}, true, false},
		{"MIP better than an unproven onion", []float64{1, 2.5, 2.5}, false, true},
		{"MIP worse than onion's feasible schedule", []float64{1, 1.5, 3}, true, false},
		{"MIP worse, onion not proven", []float64{0.5, 2, 3}, false, false},
	}
	for _, tc := range tests {
		c := OnionVsMIP("onion-vs-mip", onion, tc.mip, tc.exact, "test")
		if c.OK != tc.ok {
			t.Errorf("%s: ok %t (%s), want %t", tc.name, c.OK, c.Detail, tc.ok)
		}
	}
}
