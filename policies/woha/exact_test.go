package woha_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/woha"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/simplex"
	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// tb is what the helpers need of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

var exactPolicies = []string{"woha-hlf", "woha-lpf", "woha-mpf", "oozie-fifo", "oozie-fair", "oozie-edf"}

// tinyWorkflows draws 2-3 small workflows with integer times: 1-3 jobs each (a job waits
// for an earlier one with probability 1/2), 1-3 maps and 0-2 reduces of 1-3 units,
// arrivals in 0..4 and deadlines between the critical path and twice it plus 3.
func tinyWorkflows(r *rand.Rand) (ws []woha.Workflow, mapSlots, reduceSlots int) {
	for i := range 2 + r.IntN(2) {
		w := woha.Workflow{ID: fmt.Sprintf("W%d", i+1), Arrival: float64(r.IntN(5))}
		finish := map[string]float64{}
		path := 0.0
		for k := range 1 + r.IntN(3) {
			j := woha.Job{ID: fmt.Sprintf("j%d", k), Maps: 1 + r.IntN(3), MapTime: float64(1 + r.IntN(3))}
			if n := r.IntN(3); n > 0 {
				j.Reduces, j.ReduceTime = n, float64(1+r.IntN(3))
			}
			start := 0.0
			if k > 0 && r.IntN(2) == 0 {
				dep := fmt.Sprintf("j%d", r.IntN(k))
				j.After = []string{dep}
				start = finish[dep]
			}
			finish[j.ID] = start + j.MapTime + j.ReduceTime
			path = max(path, finish[j.ID])
			w.Jobs = append(w.Jobs, j)
		}
		w.Deadline = math.Round(path*(1+r.Float64())) + float64(r.IntN(4))
		ws = append(ws, w)
	}
	return ws, 1 + r.IntN(3), 1 + r.IntN(2)
}

// simulateMet runs the policy on the workflows (true times = the estimates) and returns
// how many meet their deadlines and the exact-schedule tasks of those that do.
func simulateMet(t tb, w *workload.Workload, name string) (int, []bool, []woha.ExactTask) {
	t.Helper()
	p, err := all.New(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), w, p, sim.Options{Record: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := sim.CheckInvariants(w, 0, r); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	m := sim.Summarize(w, r)
	met := make([]bool, len(m.Workflows))
	n := 0
	for i, o := range m.Workflows {
		met[i] = *o.Met
		if met[i] {
			n++
		}
	}
	var tasks []woha.ExactTask
	for _, pl := range r.Placements {
		wi := w.WorkflowIndex(w.Jobs[pl.Job].Workflow)
		if !met[wi] {
			continue
		}
		if pl.Start != math.Round(pl.Start) {
			t.Fatalf("%s: a task starts at %g: integer times should give integer starts", name, pl.Start)
		}
		// Jobs of a workflow are consecutive in the converted workload, in its order.
		k := pl.Job
		for k > 0 && w.Jobs[k-1].Workflow == w.Jobs[pl.Job].Workflow {
			k--
		}
		reduce := w.Cluster.Pools[pl.Pool].Name == "reduce"
		tasks = append(tasks, woha.ExactTask{Workflow: wi, Job: pl.Job - k, Reduce: reduce, Start: int(pl.Start)})
	}
	return n, met, tasks
}

func tinyCase(t tb, seed uint64) (woha.ExactInstance, *workload.Workload) {
	r := rand.New(rand.NewPCG(seed, 0x6578616374))
	ws, ms, rs := tinyWorkflows(r)
	in, err := woha.ExactInstanceOf(ws, ms, rs, 1)
	if err != nil {
		t.Fatal(err)
	}
	cl := workload.Cluster{Pools: []workload.Pool{{Name: "map", Slots: ms}, {Name: "reduce", Slots: rs}}}
	w, err := hadoop1.FromWOHA("tiny", ws, cl, hadoop1.Exact)
	if err != nil {
		t.Fatal(err)
	}
	return in, w
}

// lpBound is the LP relaxation's optimum (built-in simplex, plain build): an upper bound
// on the number of workflows any schedule gets on time.
func lpBound(t tb, in woha.ExactInstance) float64 {
	t.Helper()
	e, err := woha.BuildExactMIP(in)
	if err != nil {
		t.Fatal(err)
	}
	lp := e.Model.Clone()
	for i := range lp.NumVars() {
		lp.SetType(lp.VarAt(i), model.Continuous)
	}
	p, err := lp.Compile()
	if err != nil {
		t.Fatal(err)
	}
	sv, err := solvers.Get("simplex")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sv.Solve(context.Background(), p, solvers.Options{})
	if err != nil || sol.Status != solvers.Optimal {
		t.Fatalf("LP relaxation: %v %v", err, sol)
	}
	return sol.Objective
}

// TestExactCheckerAcceptsSimulatedSchedules: on random tiny instances, every policy's
// schedule of the workflows it gets on time passes CheckExact (an independent reading of
// the problem), and the LP relaxation of the exact model is at least every policy's
// count — a schedule the simulator produced is a feasible point of the model.
func TestExactCheckerAcceptsSimulatedSchedules(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in, w := tinyCase(rt, rapid.Uint64().Draw(rt, "seed"))
		bound := lpBound(rt, in)
		for _, name := range exactPolicies {
			n, met, tasks := simulateMet(rt, w, name)
			if err := woha.CheckExact(in, met, tasks); err != nil {
				rt.Fatalf("%s: its own schedule fails the checker: %v", name, err)
			}
			if float64(n) > bound+1e-6 {
				rt.Fatalf("%s gets %d workflows on time, above the LP relaxation %g", name, n, bound)
			}
		}
	})
}

// TestExactCheckerRejects: the checker catches a reduce before its maps end, a task
// past the deadline, too many tasks in a pool, a dependent starting early and a missing
// task.
func TestExactCheckerRejects(t *testing.T) {
	in := woha.ExactInstance{MapSlots: 1, ReduceSlots: 1, Workflows: []woha.ExactWorkflow{{Due: 6, Jobs: []woha.ExactJob{
		{Maps: 1, MapTime: 2, Reduces: 1, ReduceTime: 1},
		{Maps: 1, MapTime: 1, After: []int{0}},
	}}}}
	good := []woha.ExactTask{{0, 0, false, 0}, {0, 0, true, 2}, {0, 1, false, 3}}
	met := []bool{true}
	if err := woha.CheckExact(in, met, good); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]woha.ExactTask{
		"reduce early":    {{0, 0, false, 0}, {0, 0, true, 1}, {0, 1, false, 3}},
		"past due":        {{0, 0, false, 0}, {0, 0, true, 2}, {0, 1, false, 6}},
		"pool overloaded": {{0, 0, false, 0}, {0, 0, true, 2}, {0, 1, false, 1}},
		"dependent early": {{0, 0, false, 0}, {0, 0, true, 4}, {0, 1, false, 3}},
		"missing task":    {{0, 0, false, 0}, {0, 1, false, 3}},
	} {
		if err := woha.CheckExact(in, met, bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := woha.CheckExact(in, []bool{false}, good); err == nil {
		t.Error("tasks of a workflow not marked met: accepted")
	}
}

// TestExactFig2Relaxation: Fig. 2's LP relaxation is 3 (all three can meet their
// deadlines, as the searched caps show), and the model rejects non-integral times.
func TestExactFig2Relaxation(t *testing.T) {
	in, err := woha.ExactInstanceOf(hadoop1.Fig2(), 3, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b := lpBound(t, in); math.Abs(b-3) > 1e-6 {
		t.Fatalf("LP relaxation %g, want 3", b)
	}
	ws := hadoop1.Fig2()
	ws[0].Jobs[0].MapTime = 1.5
	if _, err := woha.ExactInstanceOf(ws, 3, 3, 1); err == nil {
		t.Fatal("a map time of 1.5 units was accepted")
	}
}
