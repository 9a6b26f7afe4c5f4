package tas

import (
	"fmt"
	"math"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
)

// MIP is the time-indexed mixed-integer model of TAS, the exact reference OnionPeel is
// checked against on small instances. Variables:
//
//	w_is ∈ {0,1}        job i completes in slot s (one per job: Σ_s w_is = 1); only slots
//	                    s ≥ release_i by which job i could get its demand alone exist
//	x_irt ∈ Z, 0 ≤ x ≤ u_irt = min(C_rt, max_parallel_i)   units of resource r in slot t,
//	                    for t ≥ release_i and resources the job needs
//
// Constraints:
//
//	x_irt ≤ u_irt · Σ_{s ≥ t} w_is    nothing after the claimed completion
//	Σ_i x_irt ≤ C_rt                  capacity
//	Σ_t x_irt ≥ η_ir                  demand
//
// and outcome u_i = Σ_s U_i(s)·w_is. Maximizing the outcomes lexicographically (package
// lexmax) solves TAS: a solution claiming completion s for job i holds nothing after s,
// so its real completion is at most s and its real utility at least U_i(s). Nothing
// forces the job to hold anything in slot s itself, but no lexmax optimum gains by
// claiming a later completion than the real one (utilities do not increase with time),
// so the optimal outcome vector is TAS's optimum; Decode recomputes real completions.
type MIP struct {
	Model *model.Model
	// Outcomes[i] is u_i, job i's utility.
	Outcomes []model.Expr
	// W[i][s-1] is w_is; the zero (invalid) Var where job i cannot complete in slot s.
	W [][]model.Var
	// X[i][r][t-1] is x_irt; the zero Var where it is fixed at 0.
	X    [][][]model.Var
	inst *sched.Instance
}

// BuildMIP builds the time-indexed model of inst. It reports an error wrapping
// ErrInfeasible when some job cannot get its demand by the horizon even alone.
func BuildMIP(inst *sched.Instance) (*MIP, error) {
	p, err := newProblem(inst)
	if err != nil {
		return nil, err
	}
	m := model.New("tas")
	out := &MIP{Model: m, inst: inst, Outcomes: make([]model.Expr, p.n),
		W: make([][]model.Var, p.n), X: make([][][]model.Var, p.n)}
	ub := func(j, r, t int) int64 {
		c := p.cap[r][t-1]
		if p.maxPar[j] > 0 {
			c = min(c, p.maxPar[j])
		}
		return c
	}
	capRows := make([][]model.Expr, p.R) // capRows[r][t-1]
	for r := range capRows {
		capRows[r] = make([]model.Expr, p.T)
	}
	for j := range p.n {
		id := inst.Jobs[j].ID
		// Earliest slot by which job j could get its demand with the whole cluster.
		first := p.release[j]
		for r := range p.R {
			var got int64
			t := p.release[j]
			for ; t <= p.T; t++ {
				got += ub(j, r, t)
				if got >= p.eta[j][r] {
					break
				}
			}
			if t > p.T {
				return nil, fmt.Errorf("%w: job %q cannot get its demand of %q by the horizon %d even alone",
					ErrInfeasible, id, inst.Resources[r].Name, p.T)
			}
			first = max(first, t)
		}
		w := make([]model.Var, p.T)
		var one model.Expr
		for s := first; s <= p.T; s++ {
			w[s-1] = m.Binary(fmt.Sprintf("w[%s,%d]", id, s))
			one.AddTerm(w[s-1], 1)
			out.Outcomes[j].AddTerm(w[s-1], p.u.at(j, s))
		}
		m.AddEq(one, 1, fmt.Sprintf("complete[%s]", id))
		out.W[j] = w
		out.X[j] = make([][]model.Var, p.R)
		for r := range p.R {
			xs := make([]model.Var, p.T)
			out.X[j][r] = xs
			if p.eta[j][r] == 0 {
				continue
			}
			var demand model.Expr
			for t := p.release[j]; t <= p.T; t++ {
				u := ub(j, r, t)
				if u == 0 {
					continue
				}
				name := fmt.Sprintf("%s,%s,%d", id, inst.Resources[r].Name, t)
				xs[t-1] = m.Integer(0, float64(u), "x["+name+"]")
				demand.AddTerm(xs[t-1], 1)
				capRows[r][t-1].AddTerm(xs[t-1], 1)
				// x ≤ u·Σ_{s≥t} w_s
				link := xs[t-1].E()
				for s := max(t, first); s <= p.T; s++ {
					link.AddTerm(w[s-1], -float64(u))
				}
				m.AddLe(link, 0, "after["+name+"]")
			}
			m.AddGe(demand, float64(p.eta[j][r]), fmt.Sprintf("demand[%s,%s]", id, inst.Resources[r].Name))
		}
	}
	for r := range p.R {
		for t := 1; t <= p.T; t++ {
			if len(capRows[r][t-1].Terms) > 0 {
				m.AddLe(capRows[r][t-1], float64(p.cap[r][t-1]), fmt.Sprintf("capacity[%s,%d]", inst.Resources[r].Name, t))
			}
		}
	}
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("tas: building the MIP: %w", err)
	}
	return out, nil
}

// Decode turns a solution vector of Model (one value per variable, as
// solvers.Solution.X) into a schedule: x rounded to the nearest integer, completion slots
// and utilities recomputed from the allocation.
func (m *MIP) Decode(x []float64) (*sched.Schedule, error) {
	if len(x) != m.Model.NumVars() {
		return nil, fmt.Errorf("tas: decoding the MIP: %d values for %d variables", len(x), m.Model.NumVars())
	}
	s := sched.NewSchedule(m.inst)
	for j := range m.X {
		for r := range m.X[j] {
			for t, v := range m.X[j][r] {
				if !v.Valid() {
					continue
				}
				val := x[v.Index()]
				if math.IsNaN(val) || val < -0.5 || val > math.MaxInt32 {
					return nil, fmt.Errorf("tas: decoding the MIP: %s = %g", v, val)
				}
				s.Jobs[j].Alloc[r][t] = int(math.Round(val))
			}
		}
	}
	s.Finalize(m.inst)
	return s, nil
}

// Encode is the inverse of Decode for a schedule of the same instance: the point of
// Model that allocates as s does and claims each job's real completion slot. It fails
// when a job completes in a slot the model has no w for (before its release, or too
// early to hold its demand), which no valid schedule does.
func (m *MIP) Encode(s *sched.Schedule) ([]float64, error) {
	x := make([]float64, m.Model.NumVars())
	if len(s.Jobs) != len(m.W) {
		return nil, fmt.Errorf("tas: encoding for the MIP: %d jobs, model has %d", len(s.Jobs), len(m.W))
	}
	for j, js := range s.Jobs {
		c := js.Completion
		if c < 1 || c > len(m.W[j]) || !m.W[j][c-1].Valid() {
			return nil, fmt.Errorf("tas: encoding for the MIP: job %q completes in slot %d, which the model excludes", js.ID, c)
		}
		x[m.W[j][c-1].Index()] = 1
		for r, row := range js.Alloc {
			for t, a := range row {
				if a == 0 {
					continue
				}
				v := m.X[j][r][t]
				if !v.Valid() {
					return nil, fmt.Errorf("tas: encoding for the MIP: job %q holds resource %d in slot %d, which the model excludes", js.ID, r, t+1)
				}
				x[v.Index()] = float64(a)
			}
		}
	}
	return x, nil
}
