package woha

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// ExactJob is a job of the offline problem in integer time units: Maps map tasks of
// MapTime each, then Reduces reduce tasks of ReduceTime each, after the jobs of its
// workflow listed in After (indices) have finished.
type ExactJob struct {
	Maps, MapTime       int
	Reduces, ReduceTime int
	After               []int
}

// ExactWorkflow is released at Arrival and meets its deadline when every job is done by
// Due (absolute).
type ExactWorkflow struct {
	Arrival, Due int
	Jobs         []ExactJob
}

// ExactInstance is the offline problem the exact reference solves: identical map and
// reduce slots, tasks not preempted, true task times known.
type ExactInstance struct {
	MapSlots, ReduceSlots int
	Workflows             []ExactWorkflow
}

// Validate reports problems naming their field.
func (in ExactInstance) Validate() error {
	var errs []error
	if in.MapSlots < 0 || in.ReduceSlots < 0 {
		errs = append(errs, fmt.Errorf("map_slots, reduce_slots: must be >= 0, got %d, %d", in.MapSlots, in.ReduceSlots))
	}
	for i, w := range in.Workflows {
		if w.Arrival < 0 || w.Due < w.Arrival {
			errs = append(errs, fmt.Errorf("workflows[%d]: need 0 <= arrival <= due, got %d, %d", i, w.Arrival, w.Due))
		}
		for k, j := range w.Jobs {
			p := fmt.Sprintf("workflows[%d].jobs[%d]", i, k)
			if j.Maps < 0 || j.Reduces < 0 || j.Maps+j.Reduces == 0 || (j.Maps > 0 && j.MapTime < 1) || (j.Reduces > 0 && j.ReduceTime < 1) {
				errs = append(errs, fmt.Errorf("%s: need tasks and task times >= 1 for the stages it has: %+v", p, j))
			}
			for _, a := range j.After {
				if a < 0 || a >= len(w.Jobs) || a == k {
					errs = append(errs, fmt.Errorf("%s.after: bad prerequisite %d", p, a))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// ExactInstanceOf turns workflows into the offline problem in units of unit seconds, with
// the task times of the workflows (their estimates) taken as the true ones: arrivals,
// deadlines and task times must be whole multiples of unit. Jobs' After names become
// indices.
func ExactInstanceOf(ws []Workflow, mapSlots, reduceSlots int, unit float64) (ExactInstance, error) {
	if err := Validate(ws); err != nil {
		return ExactInstance{}, err
	}
	in := ExactInstance{MapSlots: mapSlots, ReduceSlots: reduceSlots}
	whole := func(path string, v float64) (int, error) {
		n := math.Round(v / unit)
		if math.Abs(n*unit-v) > 1e-9*math.Max(1, math.Abs(v)) || n > math.MaxInt32 {
			return 0, fmt.Errorf("%s: %g is not a multiple of %g", path, v, unit)
		}
		return int(n), nil
	}
	var errs []error
	for i, w := range ws {
		p := fmt.Sprintf("workflows[%d]", i)
		a, e1 := whole(p+".arrival", w.Arrival)
		d, e2 := whole(p+".deadline", w.AbsDeadline())
		errs = append(errs, e1, e2)
		ew := ExactWorkflow{Arrival: a, Due: d}
		index := map[string]int{}
		for k, j := range w.Jobs {
			index[j.ID] = k
		}
		for k, j := range w.Jobs {
			pm, e3 := whole(fmt.Sprintf("%s.jobs[%d].map_time", p, k), j.MapTime)
			pr, e4 := whole(fmt.Sprintf("%s.jobs[%d].reduce_time", p, k), j.ReduceTime)
			errs = append(errs, e3, e4)
			ej := ExactJob{Maps: j.Maps, MapTime: pm, Reduces: j.Reduces, ReduceTime: pr}
			for _, dep := range j.After {
				ej.After = append(ej.After, index[dep])
			}
			ew.Jobs = append(ew.Jobs, ej)
		}
		in.Workflows = append(in.Workflows, ew)
	}
	if err := errors.Join(errs...); err != nil {
		return ExactInstance{}, err
	}
	return in, in.Validate()
}

// ExactMIP is the time-indexed model of the largest set of workflows that can all meet
// their deadlines, the exact reference WOHA and the baselines are scored against. Every
// workflow must still run, but one that misses can run after every deadline without
// delaying anyone, so "most workflows on time" is "largest set that fits". Integer
// start times lose nothing (with integer releases, durations and deadlines, shifting each
// task left to the integer at or below its start keeps a schedule feasible), and
// counting task starts per unit suffices: intervals with at most l overlapping fit l
// identical slots (interval graphs are perfect). For workflow i with z_i ∈ {0,1}, job j
// with M_j maps of p^m_j, R_j reduces of p^r_j:
//
//	maximize Σ_i z_i
//	Σ_t x_jt = M_j z_i,  Σ_t y_jt = R_j z_i                          (all tasks or none)
//	Σ_j Σ_{t ∈ (u−p^m_j, u]} x_jt ≤ map slots, likewise y             (capacity per unit u)
//	Σ_{t ≤ τ−p^m_j} x_jt ≥ M_j w_jτ,  y_jτ ≤ R_j w_jτ                 (reduces after maps)
//	done_j(τ) ≥ n_j f_jτ,  start_kτ ≤ n_k f_jτ for k after j          (jobs after prerequisites)
//
// where done_j(τ) counts j's last-stage tasks finished by τ (n_j of them), start_kτ the
// first-stage tasks of k starting at τ, and every start lies in [A_i, D_i − the task's
// own stage times]; x, y ∈ Z+, w, f ∈ {0,1}.
type ExactMIP struct {
	Model *model.Model
	Z     []model.Var // per workflow
	x, y  [][]startVars
}

// startVars are one job stage's start counts, x[t − From].
type startVars struct {
	From int
	V    []model.Var
}

// BuildExactMIP builds the model of in.
func BuildExactMIP(in ExactInstance) (*ExactMIP, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	h := 0
	for _, w := range in.Workflows {
		h = max(h, w.Due)
	}
	m := model.New("woha-exact")
	e := &ExactMIP{Model: m}
	mapUse := make([]model.Expr, h+1)
	redUse := make([]model.Expr, h+1)
	var obj model.Expr
	for i, w := range in.Workflows {
		z := m.Binary(fmt.Sprintf("z%d", i))
		e.Z = append(e.Z, z)
		obj.AddTerm(z, 1)
		xs := make([]startVars, len(w.Jobs))
		ys := make([]startVars, len(w.Jobs))
		for k, j := range w.Jobs {
			tail := 0
			if j.Reduces > 0 {
				tail = j.ReduceTime
			}
			if j.Maps > 0 {
				xs[k] = stageVars(m, fmt.Sprintf("x%d_%d", i, k), w.Arrival, w.Due-j.MapTime-tail, j.Maps, j.MapTime, z, mapUse)
			}
			if j.Reduces > 0 {
				head := 0
				if j.Maps > 0 {
					head = j.MapTime
				}
				ys[k] = stageVars(m, fmt.Sprintf("y%d_%d", i, k), w.Arrival+head, w.Due-j.ReduceTime, j.Reduces, j.ReduceTime, z, redUse)
				if j.Maps > 0 {
					for n, y := range ys[k].V {
						tau := ys[k].From + n
						wv := m.Binary(fmt.Sprintf("w%d_%d_%d", i, k, tau))
						done := startedBy(xs[k], tau-j.MapTime)
						done.AddTerm(wv, -float64(j.Maps))
						m.AddGe(done, 0, fmt.Sprintf("mapsdone%d_%d_%d", i, k, tau))
						prec := y.E()
						prec.AddTerm(wv, -float64(j.Reduces))
						m.AddLe(prec, 0, fmt.Sprintf("afterMaps%d_%d_%d", i, k, tau))
					}
				}
			}
		}
		// Jobs wait for their prerequisites: f_jτ says j has finished by τ.
		fin := make([]map[int]model.Var, len(w.Jobs))
		finished := func(j, tau int) model.Var {
			if fin[j] == nil {
				fin[j] = map[int]model.Var{}
			}
			if v, ok := fin[j][tau]; ok {
				return v
			}
			job := w.Jobs[j]
			f := m.Binary(fmt.Sprintf("f%d_%d_%d", i, j, tau))
			var done model.Expr
			n := job.Maps
			if job.Reduces > 0 {
				done, n = startedBy(ys[j], tau-job.ReduceTime), job.Reduces
			} else {
				done = startedBy(xs[j], tau-job.MapTime)
			}
			done.AddTerm(f, -float64(n))
			m.AddGe(done, 0, fmt.Sprintf("finished%d_%d_%d", i, j, tau))
			fin[j][tau] = f
			return f
		}
		for k, j := range w.Jobs {
			first, n := xs[k], j.Maps
			if j.Maps == 0 {
				first, n = ys[k], j.Reduces
			}
			for _, dep := range j.After {
				for t, v := range first.V {
					tau := first.From + t
					c := v.E()
					c.AddTerm(finished(dep, tau), -float64(n))
					m.AddLe(c, 0, fmt.Sprintf("after%d_%d_%d_%d", i, k, dep, tau))
				}
			}
		}
		e.x = append(e.x, xs)
		e.y = append(e.y, ys)
	}
	for u := range h + 1 {
		if len(mapUse[u].Terms) > 0 {
			m.AddLe(mapUse[u], float64(in.MapSlots), fmt.Sprintf("mapcap%d", u))
		}
		if len(redUse[u].Terms) > 0 {
			m.AddLe(redUse[u], float64(in.ReduceSlots), fmt.Sprintf("redcap%d", u))
		}
	}
	m.Maximize(obj)
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("woha exact model: %w", err)
	}
	return e, nil
}

// stageVars adds the start counts of one stage, starts in [from, to], their sum tied to
// n·z, and their use of the pool over [t, t + dur).
func stageVars(m *model.Model, name string, from, to, n, dur int, z model.Var, use []model.Expr) startVars {
	sv := startVars{From: from}
	var sum model.Expr
	for t := from; t <= to; t++ {
		v := m.Integer(0, float64(n), fmt.Sprintf("%s_%d", name, t))
		sv.V = append(sv.V, v)
		sum.AddTerm(v, 1)
		for u := t; u < t+dur && u < len(use); u++ {
			use[u].AddTerm(v, 1)
		}
	}
	sum.AddTerm(z, -float64(n))
	m.AddEq(sum, 0, name)
	return sv
}

// startedBy is the number of the stage's tasks started at or before t.
func startedBy(s startVars, t int) model.Expr {
	var e model.Expr
	for k, v := range s.V {
		if s.From+k <= t {
			e.AddTerm(v, 1)
		}
	}
	return e
}

// ExactTask is a task start in an exact schedule.
type ExactTask struct {
	Workflow, Job int
	Reduce        bool
	Start         int
}

// ExactResult is the optimum: which workflows meet their deadlines, and a schedule of
// their tasks (one entry per task).
type ExactResult struct {
	Met    []bool
	Count  int
	Tasks  []ExactTask
	Status solvers.Status
}

// SolveExact solves in's MIP with sv (a MIP-capable backend) and returns the optimum;
// an error when the solve is not proven optimal or its schedule fails CheckExact.
func SolveExact(ctx context.Context, in ExactInstance, sv solvers.Solver, opt solvers.Options) (*ExactResult, error) {
	e, err := BuildExactMIP(in)
	if err != nil {
		return nil, err
	}
	sol, err := solvers.SolveOptimal(ctx, sv, "woha exact model", e.Model, opt)
	if err != nil {
		return nil, err
	}
	r := &ExactResult{Status: sol.Status, Met: make([]bool, len(in.Workflows))}
	for i, z := range e.Z {
		if sol.X[z.Index()] > 0.5 {
			r.Met[i] = true
			r.Count++
		}
		for k := range in.Workflows[i].Jobs {
			for red, s := range []startVars{e.x[i][k], e.y[i][k]} {
				for t, v := range s.V {
					for range int(math.Round(sol.X[v.Index()])) {
						r.Tasks = append(r.Tasks, ExactTask{Workflow: i, Job: k, Reduce: red == 1, Start: s.From + t})
					}
				}
			}
		}
	}
	if math.Abs(float64(r.Count)-sol.Objective) > 1e-6 {
		return nil, fmt.Errorf("woha exact model with %s: objective %g but %d workflows chosen", sv.Name(), sol.Objective, r.Count)
	}
	if err := CheckExact(in, r.Met, r.Tasks); err != nil {
		return nil, fmt.Errorf("woha exact model with %s: its schedule: %w", sv.Name(), err)
	}
	return r, nil
}

// CheckExact verifies, from the problem's definition and independently of the model,
// that tasks schedule exactly the workflows marked met, each by its deadline: every task
// of theirs once, none of the others', starts at or after the arrival, reduces after
// all maps of their job, a job's first tasks after its prerequisites have finished, and
// at no time more tasks running in a pool than it has slots.
func CheckExact(in ExactInstance, met []bool, tasks []ExactTask) error {
	type key struct{ w, j int }
	count := map[key][2]int{}
	first := map[key][2]int{} // earliest start per stage
	last := map[key][2]int{}  // latest end per stage
	h := 0
	for _, w := range in.Workflows {
		h = max(h, w.Due)
	}
	use := [2][]int{make([]int, h+1), make([]int, h+1)}
	for _, t := range tasks {
		if t.Workflow < 0 || t.Workflow >= len(in.Workflows) || t.Job < 0 || t.Job >= len(in.Workflows[t.Workflow].Jobs) {
			return fmt.Errorf("task %+v: no such job", t)
		}
		if !met[t.Workflow] {
			return fmt.Errorf("task %+v of a workflow not marked met", t)
		}
		w := in.Workflows[t.Workflow]
		j := w.Jobs[t.Job]
		s, dur := 0, j.MapTime
		if t.Reduce {
			s, dur = 1, j.ReduceTime
		}
		k := key{t.Workflow, t.Job}
		c, f, l := count[k], first[k], last[k]
		if c[s] == 0 || t.Start < f[s] {
			f[s] = t.Start
		}
		c[s]++
		l[s] = max(l[s], t.Start+dur)
		count[k], first[k], last[k] = c, f, l
		if t.Start < w.Arrival || t.Start+dur > w.Due {
			return fmt.Errorf("task %+v runs outside [arrival %d, due %d]", t, w.Arrival, w.Due)
		}
		for u := t.Start; u < t.Start+dur; u++ {
			use[s][u]++
		}
	}
	for s, slots := range [2]int{in.MapSlots, in.ReduceSlots} {
		for u, n := range use[s] {
			if n > slots {
				return fmt.Errorf("pool %d: %d tasks run in unit %d, %d slots", s, n, u, slots)
			}
		}
	}
	for i, w := range in.Workflows {
		for k, j := range w.Jobs {
			c := count[key{i, k}]
			want := [2]int{j.Maps, j.Reduces}
			if !met[i] {
				want = [2]int{}
			}
			if c != want {
				return fmt.Errorf("workflows[%d].jobs[%d]: %v tasks scheduled, want %v", i, k, c, want)
			}
			if !met[i] {
				continue
			}
			f, l := first[key{i, k}], last[key{i, k}]
			if j.Maps > 0 && j.Reduces > 0 && f[1] < l[0] {
				return fmt.Errorf("workflows[%d].jobs[%d]: a reduce starts at %d before the maps end at %d", i, k, f[1], l[0])
			}
			start := f[0]
			if j.Maps == 0 {
				start = f[1]
			}
			for _, d := range j.After {
				dl := last[key{i, d}]
				end := dl[0]
				if w.Jobs[d].Reduces > 0 {
					end = dl[1]
				}
				if start < end {
					return fmt.Errorf("workflows[%d].jobs[%d] starts at %d before its prerequisite %d ends at %d", i, k, start, d, end)
				}
			}
		}
	}
	return nil
}
