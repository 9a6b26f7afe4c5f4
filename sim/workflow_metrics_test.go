package sim_test

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// rejectB is FIFO that rejects job "b" at arrival.
type rejectB struct{ policies.Policy }

func (p rejectB) Admit(v policies.View, j int) bool { return v.Job(j).ID != "b" }

// TestWorkflowAndAdmissionMetrics checks the workflow outcomes and the admission
// measures on a hand-computed run: one map slot, unit tasks.
//
//	w1 (arrival 0, deadline 3): a (2 tasks) then c (1 task) after a
//	w2 (arrival 0, deadline 1): b (1 task)
//	d: a lone job, deadline 10
//
// FIFO on one slot runs a at 0-2, then c and d by (arrival, id): c at 2-3, d at 3-4.
// With b rejected, w2 never completes and misses; w1 completes at 3 and meets. The same
// outcomes come from declared workflows and, once Validate has given the jobs their
// workflows' deadlines, from the jobs alone.
func TestWorkflowAndAdmissionMetrics(t *testing.T) {
	one := func(id string, tasks int) workload.Job {
		return workload.Job{ID: id, Priority: 1, Utility: sched.Constant{Value: 1},
			Stages: []workload.Stage{{Pool: "map", Tasks: tasks, Runtime: &workload.Runtime{Type: "fixed", Value: 1}}}}
	}
	a, b, c, d := one("a", 2), one("b", 1), one("c", 1), one("d", 1)
	a.Workflow, c.Workflow, c.After = "w1", "w1", []string{"a"}
	b.Workflow = "w2"
	d.Deadline = 10
	w := &workload.Workload{TimeUnit: 1, Cluster: workload.Cluster{Pools: []workload.Pool{{Name: "map", Slots: 1}}},
		Workflows: []workload.Workflow{{ID: "w1", Deadline: 3}, {ID: "w2", Deadline: 1}}, Jobs: []workload.Job{a, b, c, d}}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, declared := range []bool{true, false} {
		if !declared {
			w.Workflows = nil
		}
		checkWorkflowRun(t, w)
	}
	// Without admission and workflows, neither block appears.
	for i := range w.Jobs {
		w.Jobs[i].Workflow, w.Jobs[i].After = "", nil
	}
	r, err := sim.Run(context.Background(), w, fifo.New(), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := sim.Summarize(w, r); m.WorkflowMetrics != nil || m.AdmissionMetrics != nil || m.Jobs[0].Accepted != nil {
		t.Errorf("workflow or admission metrics on a plain run")
	}
}

func checkWorkflowRun(t *testing.T, w *workload.Workload) {
	t.Helper()
	r, err := sim.Run(context.Background(), w, rejectB{fifo.New()}, sim.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.CheckInvariants(w, 0, r); err != nil {
		t.Fatal(err)
	}
	m := sim.Summarize(w, r)
	if m.WorkflowMetrics == nil || len(m.Workflows) != 2 {
		t.Fatalf("workflows: %+v", m.WorkflowMetrics)
	}
	w1, w2 := m.Workflows[0], m.Workflows[1]
	if w1.ID != "w1" || *w1.Completion != 3 || *w1.Workspan != 3 || *w1.Deadline != 3 || !*w1.Met || *w1.Tardiness != 0 {
		t.Errorf("w1: %+v", w1)
	}
	if w2.ID != "w2" || w2.Completion != nil || w2.Workspan != nil || *w2.Deadline != 1 || *w2.Met || w2.Tardiness != nil {
		t.Errorf("w2: %+v", w2)
	}
	if m.DeadlineViolationRatio != 0.5 || m.MaxTardiness != 0 || m.TotalTardiness != 0 {
		t.Errorf("ratio %g, tardiness %g / %g", m.DeadlineViolationRatio, m.MaxTardiness, m.TotalTardiness)
	}
	// Admission: 3 of 4 accepted, all three on time (a, c by w1's deadline 3, d by 10);
	// slot time of the successful jobs 4 of 4 units available until the makespan 4.
	if m.AdmissionMetrics == nil || m.Accepted != 3 || m.AcceptRatio != 0.75 || m.SuccessRatio != 1 || math.Abs(m.SuccessfulUtilization-1) > 1e-12 {
		t.Errorf("admission: %+v", m.AdmissionMetrics)
	}
	if *m.Jobs[1].Accepted || !*m.Jobs[0].Accepted {
		t.Errorf("per-job accepted flags wrong")
	}
	for i, want := range []float64{2, 0, 1, 1} {
		if r.Jobs[i].SlotSeconds != want {
			t.Errorf("job %d held %g slot-seconds, want %g", i, r.Jobs[i].SlotSeconds, want)
		}
	}
}
