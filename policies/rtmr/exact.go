package rtmr

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// ExactJob is a job of the offline admission problem, in integer time units: it is
// released at Arrival, must be done by Due (absolute), and has Maps map tasks of MapTime
// each and Reduces reduce tasks of ReduceTime each (its worst-case bounds ε̃^m, ε̃^r).
type ExactJob struct {
	Arrival, Due        int
	Maps, MapTime       int
	Reduces, ReduceTime int
}

// ExactInstance is the offline problem behind RTMR's admission test: identical map and
// reduce slots (the estimates already cover the slowest one), tasks not preempted, a
// job's reduces start only after all its maps have finished.
type ExactInstance struct {
	MapSlots, ReduceSlots int
	Jobs                  []ExactJob
}

// Validate reports problems naming their field.
func (in ExactInstance) Validate() error {
	var errs []error
	if in.MapSlots < 1 || in.ReduceSlots < 1 {
		errs = append(errs, fmt.Errorf("map_slots, reduce_slots: must be >= 1, got %d, %d", in.MapSlots, in.ReduceSlots))
	}
	for i, j := range in.Jobs {
		if j.Arrival < 0 || j.Maps < 1 || j.MapTime < 1 || j.Reduces < 0 || (j.Reduces > 0 && j.ReduceTime < 1) {
			errs = append(errs, fmt.Errorf("jobs[%d]: need arrival >= 0, maps >= 1, map_time >= 1, reduces >= 0, reduce_time >= 1 when reduces > 0: %+v", i, j))
		}
	}
	return errors.Join(errs...)
}

// lastMapStart is the latest start of any map task of j that still lets j finish.
func (j ExactJob) lastMapStart() int {
	t := j.Due - j.MapTime
	if j.Reduces > 0 {
		t -= j.ReduceTime
	}
	return t
}

// ExactMIP is the time-indexed model of the largest set of jobs that can all meet their
// deadlines. Integer start times lose nothing: with integer releases, durations and
// deadlines, shifting every task of a feasible schedule left to the latest integer at or
// before its start keeps it feasible (starts are then sums of integers). Counting how
// many tasks of each job start in each unit suffices, since a set of intervals with at
// most l overlapping at any time fits l identical slots (interval graphs are perfect).
//
//	maximize Σ_j z_j
//	Σ_t x_jt = M_j z_j,   Σ_t y_jt = R_j z_j                      (all tasks or none)
//	Σ_j Σ_{t ∈ (τ−p^m_j, τ]} x_jt ≤ l,  likewise y with p^r_j, q   (capacity per unit τ)
//	Σ_{t ≤ τ−p^m_j} x_jt ≥ M_j w_jτ,   y_jτ ≤ R_j w_jτ             (reduces after all maps)
//	x_jt ∈ Z+ for A_j ≤ t ≤ D_j − p^m_j − p^r_j; y_jτ ∈ Z+, w_jτ ∈ {0,1} for
//	A_j + p^m_j ≤ τ ≤ D_j − p^r_j; z_j ∈ {0,1}.
type ExactMIP struct {
	Model *model.Model
	Z     []model.Var
}

// BuildExactMIP builds the model of in.
func BuildExactMIP(in ExactInstance) (*ExactMIP, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	h := 0
	for _, j := range in.Jobs {
		h = max(h, j.Due)
	}
	m := model.New("rtmr-exact-admission")
	e := &ExactMIP{Model: m}
	mapUse := make([]model.Expr, h)
	redUse := make([]model.Expr, h)
	var obj model.Expr
	for i, j := range in.Jobs {
		z := m.Binary(fmt.Sprintf("z%d", i))
		e.Z = append(e.Z, z)
		obj.AddTerm(z, 1)
		var x []model.Var // x[t − A_j]
		var sumX model.Expr
		for t := j.Arrival; t <= j.lastMapStart(); t++ {
			v := m.Integer(0, float64(j.Maps), fmt.Sprintf("x%d_%d", i, t))
			x = append(x, v)
			sumX.AddTerm(v, 1)
			for u := t; u < t+j.MapTime && u < h; u++ {
				mapUse[u].AddTerm(v, 1)
			}
		}
		sumX.AddTerm(z, -float64(j.Maps))
		m.AddEq(sumX, 0, fmt.Sprintf("maps%d", i))
		if j.Reduces == 0 {
			continue
		}
		var sumY model.Expr
		for tau := j.Arrival + j.MapTime; tau <= j.Due-j.ReduceTime; tau++ {
			y := m.Integer(0, float64(j.Reduces), fmt.Sprintf("y%d_%d", i, tau))
			w := m.Binary(fmt.Sprintf("w%d_%d", i, tau))
			sumY.AddTerm(y, 1)
			for u := tau; u < tau+j.ReduceTime && u < h; u++ {
				redUse[u].AddTerm(y, 1)
			}
			var done model.Expr
			for k, v := range x {
				if j.Arrival+k <= tau-j.MapTime {
					done.AddTerm(v, 1)
				}
			}
			done.AddTerm(w, -float64(j.Maps))
			m.AddGe(done, 0, fmt.Sprintf("mapsdone%d_%d", i, tau))
			prec := y.E()
			prec.AddTerm(w, -float64(j.Reduces))
			m.AddLe(prec, 0, fmt.Sprintf("after%d_%d", i, tau))
		}
		sumY.AddTerm(z, -float64(j.Reduces))
		m.AddEq(sumY, 0, fmt.Sprintf("reduces%d", i))
	}
	for u := range h {
		if len(mapUse[u].Terms) > 0 {
			m.AddLe(mapUse[u], float64(in.MapSlots), fmt.Sprintf("mapcap%d", u))
		}
		if len(redUse[u].Terms) > 0 {
			m.AddLe(redUse[u], float64(in.ReduceSlots), fmt.Sprintf("redcap%d", u))
		}
	}
	m.Maximize(obj)
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("rtmr exact model: %w", err)
	}
	return e, nil
}

// ExactResult is the largest admissible set: which jobs, and how many.
type ExactResult struct {
	Accepted []bool
	Count    int
	Status   solvers.Status
}

// SolveExact solves in's MIP with sv (a MIP-capable backend from the solvers registry)
// and returns the optimum set; an error when the solve is not proven optimal.
func SolveExact(ctx context.Context, in ExactInstance, sv solvers.Solver, opt solvers.Options) (*ExactResult, error) {
	e, err := BuildExactMIP(in)
	if err != nil {
		return nil, err
	}
	sol, err := solvers.SolveOptimal(ctx, sv, "rtmr exact model", e.Model, opt)
	if err != nil {
		return nil, err
	}
	r := &ExactResult{Status: sol.Status, Accepted: make([]bool, len(in.Jobs))}
	for i, z := range e.Z {
		if sol.X[z.Index()] > 0.5 {
			r.Accepted[i] = true
			r.Count++
		}
	}
	if math.Abs(float64(r.Count)-sol.Objective) > 1e-6 {
		return nil, fmt.Errorf("rtmr exact model with %s: objective %g but %d jobs chosen", sv.Name(), sol.Objective, r.Count)
	}
	return r, nil
}

// ExactInstanceOf turns jobs (with their estimates) into the offline problem in units of
// unit seconds: arrivals, deadlines and task bounds must be whole multiples of unit.
func ExactInstanceOf(c Cluster, jobs []Job, est func(*Job) Estimates, unit float64) (ExactInstance, error) {
	in := ExactInstance{MapSlots: c.MapSlots(), ReduceSlots: c.ReduceSlots()}
	whole := func(path string, v float64) (int, error) {
		n := math.Round(v / unit)
		if math.Abs(n*unit-v) > 1e-9*math.Max(1, math.Abs(v)) {
			return 0, fmt.Errorf("%s: %g is not a multiple of %g", path, v, unit)
		}
		return int(n), nil
	}
	var errs []error
	for i, j := range jobs {
		em, er := j.TaskBounds(est(&jobs[i]))
		p := fmt.Sprintf("jobs[%d]", i)
		a, e1 := whole(p+".arrival", j.Arrival)
		d, e2 := whole(p+".deadline", j.AbsDeadline())
		pm, e3 := whole(p+".map_sizes", em)
		pr, e4 := whole(p+".reduces", er)
		if err := errors.Join(e1, e2, e3, e4); err != nil {
			errs = append(errs, err)
			continue
		}
		in.Jobs = append(in.Jobs, ExactJob{Arrival: a, Due: d, Maps: j.M(), MapTime: pm, Reduces: j.Reduces, ReduceTime: pr})
	}
	return in, errors.Join(errs...)
}
