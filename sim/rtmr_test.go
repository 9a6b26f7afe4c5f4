package sim_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/rtmr"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// rtmrPolicy drives an rtmr.Scheduler (written against its own four-event interface)
// through the policies interfaces: Admit at arrival, Pick per free slot naming the
// worker, Observe for task and job finishes. It checks on the way that the engine and
// the scheduler agree on which task starts (both take a stage's tasks in index order).
// It shows that the interface carries what RTMR needs: admission with rejection,
// heterogeneous workers, declined reduce slots (reservation), per-task data sizes and
// observed task times.
type rtmrPolicy struct {
	s    rtmr.Scheduler
	jobs map[string]rtmr.Job
	err  error
}

func (p *rtmrPolicy) Name() string { return p.s.Name() }

func (p *rtmrPolicy) fail(err error) {
	if p.err == nil && err != nil {
		p.err = err
	}
}

func (p *rtmrPolicy) Admit(v policies.View, j int) bool {
	ok, err := p.s.Arrive(v.Now(), p.jobs[v.Job(j).ID])
	p.fail(err)
	return ok
}

func stageOf(v policies.View, pool int) rtmr.Stage {
	if v.Pools()[pool].Name == "reduce" {
		return rtmr.Reduce
	}
	return rtmr.Map
}

func (p *rtmrPolicy) Pick(v policies.View, s policies.Slot) (int, bool) {
	a, ok := p.s.Assign(v.Now(), stageOf(v, s.Pool), s.Worker)
	if !ok {
		return 0, false
	}
	for _, j := range v.Active() {
		if v.Job(j).ID != a.Job {
			continue
		}
		st := 0
		if stageOf(v, s.Pool) == rtmr.Reduce {
			st = 1
		}
		if next := v.Job(j).Stages[st].Tasks - v.Pending(j, st); next != a.Task {
			p.fail(fmt.Errorf("rtmr assigns task %d of %s stage %d, the engine would start %d", a.Task, a.Job, st, next))
		}
		return j, true
	}
	p.fail(fmt.Errorf("rtmr assigns job %s, which is not active", a.Job))
	return 0, false
}

func (p *rtmrPolicy) Observe(v policies.View, e policies.Event) {
	switch e.Kind {
	case policies.EventTaskFinish:
		fin := v.Finished(e.Job)
		r := fin[len(fin)-1]
		info := v.Job(e.Job)
		p.fail(p.s.TaskFinished(e.Time, rtmr.TaskReport{Job: info.ID, Stage: stageOf(v, e.Pool), Task: e.Task, Worker: e.Worker,
			Runtime: r.Elapsed(), Input: info.Stages[e.Stage].DataOf(e.Task)}))
	case policies.EventJobFinish:
		p.fail(p.s.JobFinished(e.Time, v.Job(e.Job).ID))
	}
}

// fromRTMR turns a generated RTMR workload into a workload file's jobs: one worker per
// RTMR worker (their map and reduce speeds are equal), map and reduce stages with the
// true task times at speed 1 and the true data sizes, and a step utility worth 1 by
// the deadline.
func fromRTMR(t *testing.T, rw *rtmr.Workload) *workload.Workload {
	w := &workload.Workload{Name: rw.Family, TimeUnit: 1}
	for k, wk := range rw.Cluster.Workers {
		if wk.MapSpeed != wk.ReduceSpeed {
			t.Fatalf("worker %d: map speed %g, reduce speed %g", k, wk.MapSpeed, wk.ReduceSpeed)
		}
		w.Cluster.Workers = append(w.Cluster.Workers, workload.Worker{Count: 1, Speed: wk.MapSpeed,
			Slots: map[string]int{"map": wk.MapSlots, "reduce": wk.ReduceSlots}})
	}
	for i, rj := range rw.Jobs {
		j := workload.Job{ID: rj.ID, Arrival: rj.Arrival, Priority: 1, Deadline: rj.Deadline,
			Utility: sched.Step{Value: 1, Deadline: rj.Deadline}}
		maps := workload.Stage{Pool: "map", Tasks: rj.M(), TaskData: rj.MapSizes}
		for k := range rj.M() {
			maps.TaskRuntimes = append(maps.TaskRuntimes, rw.TaskRuntime(i, rtmr.Map, k, 1))
		}
		j.Stages = append(j.Stages, maps)
		if rj.Reduces > 0 {
			red := workload.Stage{Pool: "reduce", Tasks: rj.Reduces}
			for k := range rj.Reduces {
				red.TaskRuntimes = append(red.TaskRuntimes, rw.TaskRuntime(i, rtmr.Reduce, k, 1))
				red.TaskData = append(red.TaskData, rw.ReduceInput(i, k))
			}
			j.Stages = append(j.Stages, red)
		}
		w.Jobs = append(w.Jobs, j)
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestRTMRThroughTheEngine runs RTMR (policies/rtmr) in this simulator on its own
// workloads I and II with true task times within the declared estimates, and checks
// the paper's guarantee end to end: every admitted job meets its deadline (rtmr.txt
// §IV, Appendix), with every engine invariant holding. The two were written
// independently; agreement here checks both.
func TestRTMRThroughTheEngine(t *testing.T) {
	for _, family := range []string{"rtmr-1", "rtmr-2"} {
		for seed := uint64(1); seed <= 5; seed++ {
			rw, err := rtmr.Generate(family, seed, rtmr.Within)
			if err != nil {
				t.Fatal(err)
			}
			w := fromRTMR(t, rw)
			s, err := rtmr.New(rw.Cluster, rtmr.Options{Feedback: true})
			if err != nil {
				t.Fatal(err)
			}
			jobs := map[string]rtmr.Job{}
			for _, j := range rw.Jobs {
				jobs[j.ID] = j.Job
			}
			p := &rtmrPolicy{s: s, jobs: jobs}
			r, err := sim.Run(context.Background(), w, p, sim.Options{Record: true})
			if err != nil {
				t.Fatalf("%s seed %d: %v", family, seed, err)
			}
			if p.err != nil {
				t.Fatalf("%s seed %d: %v", family, seed, p.err)
			}
			if err := sim.CheckInvariants(w, 0, r); err != nil {
				t.Fatalf("%s seed %d: %v", family, seed, err)
			}
			m := sim.Summarize(w, r)
			admitted := len(w.Jobs) - m.Rejected
			if admitted == 0 || m.DeadlinesMet != admitted {
				t.Fatalf("%s seed %d: %d of %d admitted jobs met their deadlines (%d rejected)", family, seed, m.DeadlinesMet, admitted, m.Rejected)
			}
			t.Logf("%s seed %d: admitted %d of %d, all met; utilization %v", family, seed, admitted, len(w.Jobs), m.Utilization)
			if seed == 1 {
				// Rejected jobs earn UtilityNever (0 for a step): the bound must still hold.
				b, err := sim.Bound(context.Background(), w, 0, 30, r.Makespan)
				if err != nil {
					t.Fatal(err)
				}
				if !b.Exact || !b.CoversRejections || sim.BeatsBound(m.SortedUtilities, b.SortedUtilities, 0) {
					t.Fatalf("%s: bound %+v against %v", family, b, m.SortedUtilities)
				}
			}
		}
	}
}
