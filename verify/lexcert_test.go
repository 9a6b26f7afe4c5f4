package verify

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

func TestLexmaxCertificatePasses(t *testing.T) {
	for _, name := range []string{"quickstart.json", "tas/lawler.json", "tas/release.json", "tas/max-parallel.json",
		"tas/varying-capacity.json", "tas/two-resources.json", "tas/zero-utility.json"} {
		in := load(t, name)
		if c := LexmaxCertificate("cert", in, onion(t, in), 0); c.Status() != "pass" {
			t.Errorf("%s: %s: %s%s", name, c.Status(), c.Detail, c.Reason)
		}
	}
}

// worseMaxParallel is a feasible schedule of tas/max-parallel.json where job wide
// finishes in slot 4 (utility 1) although it can finish in slot 3 (utility 5) with
// narrow keeping its 5.
func worseMaxParallel(t *testing.T) (*sched.Instance, *sched.Schedule) {
	in := load(t, "tas/max-parallel.json")
	s := sched.NewSchedule(in)
	wide, narrow := in.JobIndex("wide"), in.JobIndex("narrow")
	s.Jobs[wide].Alloc[0] = []int{1, 1, 0, 2}
	s.Jobs[narrow].Alloc[0] = []int{1, 1, 0, 0}
	s.Finalize(in)
	if rep := Schedule(in, s, ScheduleOptions{}); !rep.OK() {
		t.Fatalf("the worse schedule is not feasible: %v", rep.Failures())
	}
	return in, s
}

func TestLexmaxCertificateRefutes(t *testing.T) {
	in, s := worseMaxParallel(t)
	c := LexmaxCertificate("cert", in, s, 0)
	if c.Status() != "fail" || c.MaxViolation != 4 {
		t.Errorf("a schedule that is not Pareto optimal: %s, violation %g: %s", c.Status(), c.MaxViolation, c.Detail)
	}
}

func TestLexmaxCertificateSkips(t *testing.T) {
	stall := load(t, "tas/stall.json")
	in := load(t, "quickstart.json")
	short := cloneSchedule(onion(t, in))
	short.Jobs = short.Jobs[1:]
	empty := sched.NewSchedule(in)
	empty.Finalize(in)
	for name, c := range map[string]Check{
		// onion peeling's answer on a stalled layer: optimal, but not certifiable by
		// saturation alone (the MIP cross-check decides).
		"stall":        LexmaxCertificate("cert", stall, onion(t, stall), 0),
		"shape":        LexmaxCertificate("cert", in, short, 0),
		"empty":        LexmaxCertificate("cert", in, empty, 0),
		"work limit":   LexmaxCertificate("cert", in, onion(t, in), 10),
		"not feasible": LexmaxCertificate("cert", in, overCapacity(t, in), 0),
	} {
		if c.Status() != "skip" || c.Reason == "" {
			t.Errorf("%s: %s (%s%s), want skip with a reason", name, c.Status(), c.Detail, c.Reason)
		}
	}
}

// overCapacity is quickstart's onion schedule with every job finishing in slot 1: each
// gets its whole demand there, beyond the capacity.
func overCapacity(t *testing.T, in *sched.Instance) *sched.Schedule {
	s := sched.NewSchedule(in)
	for j := range in.Jobs {
		s.Jobs[j].Alloc[0][0] = in.Jobs[j].Demand[0]
	}
	s.Finalize(in)
	return s
}

// TestFeasibleDeadlines sets the independent max-flow against onion peeling: its own
// completion slots are feasible deadlines, one slot fewer for the job that finishes
// last is not (when that is the horizon's bottleneck), and the Hall witness of an
// infeasible instance holds when recomputed.
func TestFeasibleDeadlines(t *testing.T) {
	for _, name := range []string{"quickstart.json", "tas/release.json", "tas/max-parallel.json", "tas/two-resources.json"} {
		in := load(t, name)
		s := onion(t, in)
		d := make([]int, len(in.Jobs))
		for j := range d {
			d[j] = s.Jobs[j].Completion
		}
		if ok, w := feasibleDeadlines(in, d); !ok {
			t.Errorf("%s: onion's completions are infeasible deadlines: %s", name, w.describe(in))
		}
		for j := range d {
			d[j] = 1
		}
		if ok, _ := feasibleDeadlines(in, d); ok && name == "quickstart.json" {
			t.Errorf("%s: every job done in slot 1", name)
		}
	}
	in := load(t, "tas/infeasible.json")
	all := make([]int, len(in.Jobs))
	for j := range all {
		all[j] = in.Horizon
	}
	ok, w := feasibleDeadlines(in, all)
	if ok {
		t.Fatal("tas/infeasible.json: feasible")
	}
	if dem, sup := hallSides(in, w.Resource, w.Jobs, all); dem <= sup || dem != w.Demand || sup != w.Supply {
		t.Errorf("witness %+v recomputes to demand %d, supply %d", w, dem, sup)
	}
	if _, err := tas.OnionPeel(context.Background(), in, tas.Options{}); err == nil {
		t.Error("onion peeling solves tas/infeasible.json")
	}
}
