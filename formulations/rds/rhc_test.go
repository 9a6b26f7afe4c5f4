package rds

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// eq3 evaluates the objective of a BuildRHC (stage1 false) or BuildShortfall (stage1
// true) model at x directly from its definition, without the model: eq. 3's tracking
// and control terms (see the package documentation for units and conventions), or the
// weighted shortfall Σ ω_j σ_j.
func eq3(s *State, p Params, h *Handles, x []float64, stage1 bool) float64 {
	total := 0.0
	for m, j := range h.Jobs {
		job := &s.Jobs[j]
		u := func(k int) Alloc {
			if k < 0 {
				return job.Prev
			}
			k = min(k, p.ControlHorizon-1)
			return Alloc{Map: x[h.Map[m][k].Index()], Reduce: x[h.Reduce[m][k].Index()]}
		}
		g := h.gain[m] // the phase and zero caps remove a kind (checked in TestBuildRHCStructure)
		y := job.Progress
		ref := Reference(job, s.Time, s.Interval, p.PredictionHorizon)
		for i := 1; i <= p.PredictionHorizon && !stage1; i++ {
			a := u(i - 1)
			y += g.Map*a.Map + g.Reduce*a.Reduce
			e := 100 * (y - ref[i-1]) / job.Work
			total += job.Priority * Decay(job, s.Time+float64(i)*s.Interval, s.Interval) * e * e
		}
		for k := 0; k < p.ControlHorizon && !stage1; k++ {
			dm, dr := u(k).Map-u(k-1).Map, u(k).Reduce-u(k-1).Reduce
			total += penaltyAt(p.MapPenalty, k)*dm*dm + penaltyAt(p.ReducePenalty, k)*dr*dr
		}
		if h.Slack[m].Valid() {
			total += job.Priority * x[h.Slack[m].Index()]
		}
	}
	return total
}

// progressAt is y_j at an arbitrary time τ ≥ t under plan x: the rate is constant within
// each interval and the control is held after H_c. Independent of the deadline row.
func progressAt(s *State, p Params, h *Handles, m int, x []float64, tau float64) float64 {
	job := &s.Jobs[h.Jobs[m]]
	y := job.Progress
	for i := 0; ; i++ {
		start := s.Time + float64(i)*s.Interval
		if start >= tau-1e-12 {
			return y
		}
		k := min(i, p.ControlHorizon-1)
		step := h.gain[m].Map*x[h.Map[m][k].Index()] + h.gain[m].Reduce*x[h.Reduce[m][k].Index()]
		y += step * math.Min(1, (tau-start)/s.Interval)
	}
}

// TestBuildRHCObjectiveMatchesEq3: for random states and random points, the compiled
// problems' objectives cᵀx + ½xᵀQx + offset equal eq. 3 (BuildRHC) and the shortfall
// objective (BuildShortfall) evaluated directly, the deadline rows measure the progress
// at t_soft, and the capacity rows are the forecast (the last one the minimum over the
// steps the held control covers).
func TestBuildRHCObjectiveMatchesEq3(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s, forecast, p := genState(rt)
		for _, stage1 := range []bool{false, true} {
			build := BuildRHC
			if stage1 {
				build = BuildShortfall
			}
			m, h, err := build(s, forecast, p)
			if errors.Is(err, ErrNoJobs) {
				return
			}
			if err != nil {
				rt.Fatal(err)
			}
			prob, err := m.Compile()
			if err != nil {
				rt.Fatal(err)
			}
			x := make([]float64, prob.NumCols())
			for j := range x {
				hi := prob.ColUpper[j]
				if math.IsInf(hi, 1) {
					hi = 50
				}
				x[j] = rapid.Float64Range(prob.ColLower[j], hi).Draw(rt, "x")
			}
			got, want := prob.Objective(x), eq3(s, p, h, x, stage1)
			if !near(got, want, 1e-9) {
				rt.Fatalf("stage 1 %t: model objective %.12g, directly %.12g", stage1, got, want)
			}
			act := prob.RowActivity(x)
			short := h.Shortfall(x)
			for mi, j := range h.Jobs {
				job := &s.Jobs[j]
				if !h.Deadline[mi].Valid() {
					inWindow := job.Soft > s.Time && job.Soft <= s.Time+float64(p.PredictionHorizon)*s.Interval
					if inWindow && (h.gain[mi].Map > 0 || h.gain[mi].Reduce > 0) {
						rt.Fatalf("job %s: deadline %g inside the window but no row", job.ID, job.Soft)
					}
					if short[j] != 0 {
						rt.Fatalf("job %s: shortfall %g without a deadline inside the window", job.ID, short[j])
					}
					continue
				}
				row := act[h.Deadline[mi].Index()] + 100*job.Progress/job.Work
				if stage1 {
					row -= x[h.Slack[mi].Index()]
				}
				y := 100 * progressAt(s, p, h, mi, x, job.Soft) / job.Work
				if !near(row, y, 1e-9) {
					rt.Fatalf("job %s: deadline row gives %.12g%%, progress at t_soft is %.12g%%", job.ID, row, y)
				}
				if !near(short[j], math.Max(0, 100-y), 1e-9) {
					rt.Fatalf("job %s: Shortfall %g, want %g", job.ID, short[j], math.Max(0, 100-y))
				}
			}
			for k := range p.ControlHorizon {
				want := forecast[k]
				if k == p.ControlHorizon-1 {
					for i := k; i < p.PredictionHorizon; i++ {
						want = math.Min(want, forecast[i])
					}
				}
				if got := prob.RowUpper[h.Capacity[k].Index()]; got != want {
					rt.Fatalf("capacity row %d: bound %g, want %g", k, got, want)
				}
			}
		}
	})
}

// TestBuildRHCHessianPositiveDefinite: with positive P and Q the Hessian of eq. 3 is
// positive definite on the free columns (the QP is strictly convex, as solvers/qp's
// dual method needs) — checked by a dense Cholesky factorization.
func TestBuildRHCHessianPositiveDefinite(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s, forecast, p := genState(rt)
		m, _, err := BuildRHC(s, forecast, p)
		if errors.Is(err, ErrNoJobs) {
			return
		}
		if err != nil {
			rt.Fatal(err)
		}
		prob, err := m.Compile()
		if err != nil {
			rt.Fatal(err)
		}
		n := prob.NumCols()
		q := mat.NewSymDense(n, nil)
		for j := 0; j < n && prob.QStart != nil; j++ {
			for k := prob.QStart[j]; k < prob.QStart[j+1]; k++ {
				q.SetSym(prob.QIndex[k], j, prob.QValue[k])
			}
		}
		// Fixed columns (a phase that cannot progress) are constants, not unknowns.
		var free []int
		for j := range n {
			if prob.ColLower[j] != prob.ColUpper[j] {
				free = append(free, j)
			}
		}
		if len(free) == 0 {
			return
		}
		sub := mat.NewSymDense(len(free), nil)
		for a, i := range free {
			for b, j := range free {
				sub.SetSym(a, b, q.At(i, j))
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(sub) {
			rt.Fatalf("Hessian on the %d free columns is not positive definite", len(free))
		}
	})
}

// TestBuildRHCStructure checks a hand-built state: which jobs are modelled, the bounds
// the phases and caps give, and the handles.
func TestBuildRHCStructure(t *testing.T) {
	s := &State{Time: 20, Interval: 10, Jobs: []Job{
		{ID: "map", Work: 100, Progress: 40, Phase: PhaseMap, Gain: Gain{Map: 5, Reduce: 7}, Soft: 50, Hard: 60, Priority: 1, MaxMap: 4, MaxReduce: math.Inf(1)},
		{ID: "done", Work: 10, Progress: 10, Gain: Gain{Map: 1}, Soft: 50, Hard: 50, Priority: 1, MaxMap: math.Inf(1), MaxReduce: math.Inf(1)},
		{ID: "reduce", Work: 60, Progress: 50, Phase: PhaseReduce, Gain: Gain{Map: 1, Reduce: 2}, Soft: 80, Hard: 80, Priority: 2, MaxMap: math.Inf(1), MaxReduce: math.Inf(1)},
		{ID: "later", Arrival: 25, Work: 10, Gain: Gain{Map: 1}, Soft: 50, Hard: 50, Priority: 1, MaxMap: math.Inf(1), MaxReduce: math.Inf(1)},
	}}
	p := DefaultParams()
	p.ControlHorizon = 2
	p.MapPenalty, p.ReducePenalty = []float64{0.01}, []float64{0.02}
	m, h, err := BuildRHC(s, []float64{10, 8, 5}, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Jobs; len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Fatalf("modelled jobs %v, want [0 2] (done and not-yet-arrived jobs are left out)", got)
	}
	prob, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	// 2 jobs × 2 steps × 2 kinds; 2 capacity rows and a deadline row for "map" only
	// (t_soft = 50 ≤ 20 + 3·10).
	if prob.NumCols() != 8 || prob.NumRows() != 3 {
		t.Fatalf("%d columns and %d rows, want 8 and 3", prob.NumCols(), prob.NumRows())
	}
	bound := func(v model.Var) [2]float64 { return [2]float64{prob.ColLower[v.Index()], prob.ColUpper[v.Index()]} }
	for k := range 2 {
		// map phase: u^m ≤ min(cap 4, remaining 60 / gain 5 = 12); u^r fixed at 0.
		if b := bound(h.Map[0][k]); b != [2]float64{0, 4} {
			t.Errorf("map job u^m[%d] bounds %v, want [0 4]", k, b)
		}
		if b := bound(h.Reduce[0][k]); b != [2]float64{0, 0} {
			t.Errorf("map job u^r[%d] bounds %v, want fixed at 0", k, b)
		}
		// reduce phase: u^r ≤ remaining 10 / gain 2 = 5; u^m fixed at 0.
		if b := bound(h.Reduce[1][k]); b != [2]float64{0, 5} {
			t.Errorf("reduce job u^r[%d] bounds %v, want [0 5]", k, b)
		}
		if b := bound(h.Map[1][k]); b != [2]float64{0, 0} {
			t.Errorf("reduce job u^m[%d] bounds %v, want fixed at 0", k, b)
		}
	}
	if !h.Deadline[0].Valid() || h.Deadline[1].Valid() || h.Slack[0].Valid() {
		t.Errorf("deadline rows %v %v, slack %v: want true false false", h.Deadline[0].Valid(), h.Deadline[1].Valid(), h.Slack[0].Valid())
	}
	// Progress 40 of 100 by t_soft = 50 = t + 3 intervals: u^m_0 and u^m_1 (held for
	// two steps) at 5 work units each, in percent of the work.
	if lo := prob.RowLower[h.Deadline[0].Index()]; lo != 60 {
		t.Errorf("deadline row lower bound %g, want 60 (percent still to do)", lo)
	}
	m1, h1, err := BuildShortfall(s, []float64{10, 8, 5}, p)
	if err != nil {
		t.Fatal(err)
	}
	// Only "map" has a deadline inside the window: 2 steps × 2 kinds + its slack.
	if p1, err := m1.Compile(); err != nil || p1.NumCols() != 5 || len(h1.Jobs) != 1 || !h1.Slack[0].Valid() {
		t.Errorf("shortfall model: err %v, jobs %v: want 5 columns for \"map\" alone, with a slack", err, h1.Jobs)
	}
	// The held control (step 1) must fit min(8, 5).
	if got := h.CapacityBound; got[0] != 10 || got[1] != 5 {
		t.Errorf("capacity bounds %v, want [10 5]", got)
	}
}

func TestBuildRHCErrors(t *testing.T) {
	good := &State{Time: 0, Interval: 1, Jobs: []Job{{ID: "a", Work: 1, Gain: Gain{Map: 1}, Soft: 2, Hard: 2, Priority: 1}}}
	p := DefaultParams()
	for _, tc := range []struct {
		name     string
		s        *State
		forecast []float64
		p        Params
	}{
		{"short forecast", good, []float64{1, 1}, p},
		{"negative forecast", good, []float64{1, -1, 1}, p},
		{"NaN forecast", good, []float64{1, math.NaN(), 1}, p},
		{"bad params", good, []float64{1, 1, 1}, Params{PredictionHorizon: 2, ControlHorizon: 3, AROrder: 1, MapPenalty: []float64{1}, ReducePenalty: []float64{1}}},
		{"bad state", &State{Interval: 0, Jobs: good.Jobs}, []float64{1, 1, 1}, p},
	} {
		if _, _, err := BuildRHC(tc.s, tc.forecast, tc.p); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	done := &State{Interval: 1, Jobs: []Job{{ID: "a", Work: 1, Progress: 1, Gain: Gain{Map: 1}, Soft: 2, Hard: 2, Priority: 1}}}
	if _, _, err := BuildRHC(done, []float64{1, 1, 1}, p); !errors.Is(err, ErrNoJobs) {
		t.Errorf("finished jobs only: err %v, want ErrNoJobs", err)
	}
}

// objTol turns a tolerance rel, relative to the size of the terms that are summed to
// form the objective and the duality gap, into solvertest's objective tolerance
// (relative to max(1, |z|)). The RHC objective is a sum of squares that is often near
// 0 at the optimum (every job on its reference) while cᵀx, ½xᵀQx and the offset are
// each of the order of 10⁴, and the dual objective adds y_i·b_i and d_j·β_j terms of the
// size of the gradient times the bounds: holding their sums to 1e-7·max(1, |z|) would
// ask for more digits than a double has. The sign and stationarity checks are
// unaffected.
func objTol(p *model.Problem, sol *solvers.Solution, rel float64) float64 {
	x := sol.X
	z := p.Objective(x)
	lin, quad := 0.0, 0.0
	for j, c := range p.ColCost {
		lin += c * x[j]
	}
	for j := 0; j < p.NumCols() && p.QStart != nil; j++ {
		for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
			i, v := p.QIndex[k], p.QValue[k]
			if i == j {
				quad += 0.5 * v * x[i] * x[j]
			} else {
				quad += v * x[i] * x[j]
			}
		}
	}
	mag := math.Abs(p.Offset) + math.Abs(lin) + 2*math.Abs(quad)
	finite := func(v float64) float64 {
		if math.IsInf(v, 0) {
			return 0
		}
		return math.Abs(v)
	}
	for i, y := range sol.RowDual {
		mag += math.Abs(y) * math.Max(finite(p.RowLower[i]), finite(p.RowUpper[i]))
	}
	for j, d := range sol.ReducedCost {
		mag += math.Abs(d) * (math.Max(finite(p.ColLower[j]), finite(p.ColUpper[j])) + math.Abs(x[j]))
	}
	return rel * math.Max(1, mag) / math.Max(1, math.Abs(z))
}

// fataler is what testing.TB and *rapid.T share.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// certify checks an optimal solution of prob to 1e-7: primal feasibility
// (solvertest.CheckPrimal), the KKT residuals (certificate.CheckKKT), and solvertest's
// dual certificate. Dual quantities are measured relative to the data scale
// s = max(1, ‖c‖∞, ‖Qx‖∞), the scale the solvers' own tolerances use: the RHC
// gradient at the optimum is often 10³–10⁴ times smaller than c (a tracking problem's
// gradient cancels where the jobs are on their references), and relative to that the
// built-in solver's multipliers are only accurate to its documented 1e-9·‖c‖∞. So
// solvertest's Dual tolerance, which it multiplies by the gradient's size, is given as
// 1e-7·s/max(1, ‖c + Qx‖∞), and its objective tolerance as objTol's.
func certify(t fataler, what string, prob *model.Problem, sol *solvers.Solution) {
	t.Helper()
	if sol.Status != solvers.Optimal {
		t.Fatalf("%s: status %v", what, sol.Status)
	}
	if err := solvertest.CheckPrimal(prob, sol, solvertest.Tolerances{Obj: objTol(prob, sol, 1e-7), Feas: 1e-7}); err != nil {
		t.Fatalf("%s: primal: %v", what, err)
	}
	if k := certificate.CheckKKT(prob, sol, 1e-7); !k.OK {
		t.Fatalf("%s: KKT residuals %+v", what, k)
	}
	s, g := dataScale(prob, sol.X)
	tol := solvertest.Tolerances{Obj: objTol(prob, sol, 1e-7), Feas: 1e-7, Dual: 1e-7 * s / math.Max(1, g)}
	if err := solvertest.CheckLPCertificate(prob, sol, tol); err != nil {
		t.Fatalf("%s: KKT certificate: %v", what, err)
	}
}

// dataScale returns max(1, ‖c‖∞, ‖Qx‖∞) and ‖c + Qx‖∞.
func dataScale(p *model.Problem, x []float64) (scale, grad float64) {
	qx := make([]float64, len(x))
	for j := 0; j < p.NumCols() && p.QStart != nil; j++ {
		for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
			i, v := p.QIndex[k], p.QValue[k]
			qx[i] += v * x[j]
			if i != j {
				qx[j] += v * x[i]
			}
		}
	}
	scale = 1
	for j, c := range p.ColCost {
		scale = math.Max(scale, math.Max(math.Abs(c), math.Abs(qx[j])))
		grad = math.Max(grad, math.Abs(c+qx[j]))
	}
	return scale, grad
}

// solveRHC runs SolveRHC with s and certifies both stages.
func solveRHC(t fataler, s solvers.Solver, st *State, forecast []float64, p Params) *Solved {
	t.Helper()
	res, err := SolveRHC(context.Background(), s, st, forecast, p, solvers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stage1 != nil {
		certify(t, "shortfall stage", res.Stage1Problem, res.Stage1)
	}
	certify(t, "eq. 3 stage", res.Problem, res.Solution)
	return res
}

// notBetter fails if some point on the segment from the optimum x toward the feasible
// point y has a lower objective: the objective is convex, so a better point anywhere
// in the feasible set would show on such a segment.
func notBetter(t fataler, prob *model.Problem, x, y []float64) {
	t.Helper()
	zx := prob.Objective(x)
	for _, a := range []float64{1e-4, 1e-2, 0.1, 0.5, 1} {
		z := make([]float64, len(y))
		for j := range z {
			z[j] = x[j] + a*(y[j]-x[j])
		}
		if zz := prob.Objective(z); zz < zx-1e-7*math.Max(1, math.Abs(zx)) {
			t.Fatalf("the point %g of the way to a feasible point has objective %.10g < optimum %.10g", a, zz, zx)
		}
	}
}

// feasible reports whether x satisfies prob's bounds and rows to 1e-9.
func feasible(prob *model.Problem, x []float64) bool {
	for j, v := range x {
		if v < prob.ColLower[j]-1e-9 || v > prob.ColUpper[j]+1e-9 {
			return false
		}
	}
	for i, a := range prob.RowActivity(x) {
		if a < prob.RowLower[i]-1e-9*math.Max(1, math.Abs(prob.RowLower[i])) ||
			a > prob.RowUpper[i]+1e-9*math.Max(1, math.Abs(prob.RowUpper[i])) {
			return false
		}
	}
	return true
}

// TestRHCSolveQP solves random control steps with the built-in QP backend, certifies
// both stages (see solveRHC), and searches for a better point: toward random points
// that are feasible for the shortfall stage (slacks raised to fit), toward the
// shortfall stage's own solution, which is feasible for the eq. 3 stage, and, when no
// shortfall LP was needed, toward random points feasible for the eq. 3 stage.
func TestRHCSolveQP(t *testing.T) {
	s := qpSolver(t)
	rapid.Check(t, func(rt *rapid.T) {
		st, forecast, p := genState(rt)
		if _, _, err := BuildRHC(st, forecast, p); errors.Is(err, ErrNoJobs) {
			return
		}
		res := solveRHC(rt, s, st, forecast, p)
		if res.Stage1 == nil {
			// Random points fit the bounds and capacity rows; a deadline row that joined
			// may still exclude them.
			if y := randomFeasible(rt, res.Problem, res.Handles); feasible(res.Problem, y) {
				notBetter(rt, res.Problem, res.Solution.X, y)
			}
			return
		}
		_, h1, err := BuildShortfall(st, forecast, p)
		if err != nil {
			rt.Fatal(err)
		}
		y := randomFeasible(rt, res.Stage1Problem, h1)
		notBetter(rt, res.Stage1Problem, res.Stage1.X, y)
		// The stage-1 allocation (0 for jobs it leaves out), without its slack columns, is
		// feasible for the eq. 3 stage.
		x2 := make([]float64, res.Problem.NumCols())
		at := map[int]int{} // state job → stage-1 job
		for m1, j := range h1.Jobs {
			at[j] = m1
		}
		for mi, j := range res.Handles.Jobs {
			m1, ok := at[j]
			if !ok {
				continue
			}
			for k := range p.ControlHorizon {
				x2[res.Handles.Map[mi][k].Index()] = res.Stage1.X[h1.Map[m1][k].Index()]
				x2[res.Handles.Reduce[mi][k].Index()] = res.Stage1.X[h1.Reduce[m1][k].Index()]
			}
		}
		if !feasible(res.Problem, x2) {
			rt.Fatalf("the shortfall stage's allocation is infeasible for the eq. 3 stage")
		}
		notBetter(rt, res.Problem, res.Solution.X, x2)
	})
}

// randomFeasible draws a point satisfying the bounds, the capacity rows (scaled into
// them) and the deadline rows of a shortfall model (through their slacks).
func randomFeasible(rt *rapid.T, prob *model.Problem, h *Handles) []float64 {
	x := make([]float64, prob.NumCols())
	for j := range x {
		hi := prob.ColUpper[j]
		if math.IsInf(hi, 1) {
			hi = 20
		}
		x[j] = rapid.Float64Range(prob.ColLower[j], hi).Draw(rt, "y")
	}
	for k, c := range h.Capacity {
		if act := prob.RowActivity(x)[c.Index()]; act > h.CapacityBound[k] {
			f := h.CapacityBound[k] / act
			for m := range h.Jobs {
				x[h.Map[m][k].Index()] *= f
				x[h.Reduce[m][k].Index()] *= f
			}
		}
	}
	for m, d := range h.Deadline {
		if !d.Valid() || !h.Slack[m].Valid() {
			continue
		}
		if act := prob.RowActivity(x)[d.Index()]; act < prob.RowLower[d.Index()] {
			x[h.Slack[m].Index()] += prob.RowLower[d.Index()] - act
		}
	}
	return x
}

// TestShortfallSingleJob: for one job alone, the least shortfall is known in closed
// form — the job takes min(its cap, the capacity) in every interval up to t_soft (a
// fraction of the last one) — and the shortfall stage finds it.
func TestShortfallSingleJob(t *testing.T) {
	s := qpSolver(t)
	rapid.Check(t, func(rt *rapid.T) {
		hp := rapid.IntRange(1, 4).Draw(rt, "hp")
		L := 10.0
		forecast := make([]float64, hp)
		for i := range forecast {
			forecast[i] = rapid.Float64Range(0, 10).Draw(rt, "forecast")
		}
		g := rapid.Float64Range(0.5, 5).Draw(rt, "gain")
		job := Job{ID: "a", Work: rapid.Float64Range(5, 200).Draw(rt, "work"), Phase: PhaseMap, Gain: Gain{Map: g},
			Soft: L * rapid.Float64Range(0.2, float64(hp)).Draw(rt, "soft"), Priority: rapid.Float64Range(0.1, 10).Draw(rt, "priority"),
			Prev: Alloc{Map: rapid.Float64Range(0, 10).Draw(rt, "prev")}, MaxMap: rapid.Float64Range(1, 20).Draw(rt, "cap"), MaxReduce: math.Inf(1)}
		job.Hard = job.Soft
		st := &State{Interval: L, Jobs: []Job{job}}
		p := DefaultParams()
		p.PredictionHorizon, p.ControlHorizon = hp, hp
		p.MapPenalty, p.ReducePenalty = []float64{0.01}, []float64{0.02}
		res := solveRHC(rt, s, st, forecast, p)
		done := 0.0
		for i := 0; float64(i)*L < job.Soft; i++ {
			frac := math.Min(1, job.Soft/L-float64(i))
			done += frac * g * math.Min(math.Min(job.MaxMap, job.Work/g), forecast[i])
		}
		want := math.Max(0, 100-100*done/job.Work)
		if got := res.Shortfall[0]; math.Abs(got-want) > 1e-6*math.Max(1, want) {
			rt.Fatalf("least shortfall %.9g%%, want %.9g%%", got, want)
		}
	})
}

// genWitnessState draws a control step whose deadlines can all be met, built around a
// witness: job j gets w[j][i] ∈ [2, 10] resource units in interval i, the capacity is
// their sum plus some room, and each job's work is at most what the witness does by its
// deadline (an interval boundary inside the window) times a factor in [0.5, tight];
// tight = 1 includes exactly tight steps, whose deadline rows leave no room at all.
func genWitnessState(rt *rapid.T, tight float64) (*State, []float64, Params) {
	hp := rapid.IntRange(1, 4).Draw(rt, "hp")
	L := 10.0
	nj := rapid.IntRange(1, 5).Draw(rt, "jobs")
	forecast := make([]float64, hp)
	for i := range forecast {
		forecast[i] = rapid.Float64Range(0, 5).Draw(rt, "room")
	}
	st := &State{Time: 0, Interval: L}
	w := make([][]float64, nj)
	for j := range w {
		w[j] = make([]float64, hp)
		for i := range w[j] {
			w[j][i] = rapid.Float64Range(2, 10).Draw(rt, "witness")
			forecast[i] += w[j][i]
		}
	}
	for j := range nj {
		g := rapid.Float64Range(0.5, 5).Draw(rt, "gain")
		steps := rapid.IntRange(1, hp).Draw(rt, "deadline step")
		done := 0.0
		for i := range steps {
			done += g * w[j][i]
		}
		st.Jobs = append(st.Jobs, Job{
			ID: string(rune('a' + j)), Work: done * rapid.Float64Range(0.5, tight).Draw(rt, "slack"), Phase: PhaseMap,
			Gain: Gain{Map: g}, Soft: L * float64(steps), Hard: L * float64(steps),
			Priority: rapid.Float64Range(0.1, 10).Draw(rt, "priority"),
			Prev:     Alloc{Map: rapid.Float64Range(0, 10).Draw(rt, "prev")},
			MaxMap:   math.Inf(1), MaxReduce: math.Inf(1),
		})
	}
	p := DefaultParams()
	p.PredictionHorizon, p.ControlHorizon = hp, hp
	p.MapPenalty, p.ReducePenalty = []float64{0.01}, []float64{0.02}
	return st, forecast, p
}

// TestDeadlinesFirstMeetsFeasibleDeadlines: when an allocation exists that meets every
// deadline inside the window (genWitnessState), SolveRHC's plan meets them all.
func TestDeadlinesFirstMeetsFeasibleDeadlines(t *testing.T) {
	s := qpSolver(t)
	rapid.Check(t, func(rt *rapid.T) {
		st, forecast, p := genWitnessState(rt, 1)
		res := solveRHC(rt, s, st, forecast, p)
		for j, sf := range res.Shortfall {
			if sf != 0 {
				rt.Fatalf("job %s: least shortfall %g%% although the witness meets its deadline", st.Jobs[j].ID, sf)
			}
		}
		for j, sf := range res.Handles.Shortfall(res.Solution.X) {
			if sf > 2*ShortfallMargin {
				rt.Fatalf("job %s: the plan misses its deadline by %g%%", st.Jobs[j].ID, sf)
			}
		}
	})
}

// TestRHCHandles: on a solved problem, Trajectory follows the progress law from the
// allocation, Allocation is the first move, and the capacity rows hold.
func TestRHCHandles(t *testing.T) {
	s := qpSolver(t)
	st, forecast, p := benchState(20, 3, 7)
	res := solveRHC(t, s, st, forecast, p)
	h, x := res.Handles, res.Solution.X
	alloc, traj := h.Allocation(x), h.Trajectory(x, st)
	total := 0.0
	for j := range st.Jobs {
		total += alloc[j].Total()
		job := &st.Jobs[j]
		g := job.Gain
		switch job.Phase {
		case PhaseMap:
			g.Reduce = 0
		case PhaseReduce:
			g.Map = 0
		}
		want := job.Progress + g.Map*alloc[j].Map + g.Reduce*alloc[j].Reduce
		if !near(traj[j][0], want, 1e-9) {
			t.Errorf("job %s: y(t+1) = %g, the allocation gives %g", job.ID, traj[j][0], want)
		}
	}
	if total > h.CapacityBound[0]*(1+1e-9) {
		t.Errorf("first interval allocates %g > capacity %g", total, h.CapacityBound[0])
	}
	if !res.Handles.HasDeadlines() {
		t.Errorf("the bench state has no deadline inside the window")
	}
	for j, sf := range res.Handles.Shortfall(x) {
		if sf > res.Shortfall[j]+2*ShortfallMargin {
			t.Errorf("job %s: the plan leaves %g%% at t_soft, the least shortfall is %g%%", st.Jobs[j].ID, sf, res.Shortfall[j])
		}
	}
}

// TestSolveRHCWithLPBackend: with the shortfall LP on the built-in simplex
// (SolveRHCWith) instead of the QP backend, every stage still certifies, and the least
// weighted shortfall Σ ω_j σ_j — the LP's optimal value, unique even when σ is not —
// is the same on random states.
func TestSolveRHCWithLPBackend(t *testing.T) {
	qp := qpSolver(t)
	lp, err := solvers.Get("simplex")
	if err != nil {
		t.Fatal(err)
	}
	lpRuns := 0
	rapid.Check(t, func(rt *rapid.T) {
		st, forecast, p := genState(rt)
		a, err := SolveRHC(context.Background(), qp, st, forecast, p, solvers.Options{})
		if errors.Is(err, ErrNoJobs) {
			return
		}
		if err != nil {
			rt.Fatal(err)
		}
		b, err := SolveRHCWith(context.Background(), qp, lp, st, forecast, p, solvers.Options{})
		if err != nil {
			rt.Fatal(err)
		}
		if a.Status != solvers.Optimal || b.Status != solvers.Optimal {
			rt.Fatalf("status %v with the QP backend, %v with simplex", a.Status, b.Status)
		}
		if b.Stage1 != nil {
			lpRuns++
			certify(rt, "shortfall stage (simplex)", b.Stage1Problem, b.Stage1)
		}
		certify(rt, "eq. 3 stage", b.Problem, b.Solution)
		weighted := func(sf []float64) float64 {
			sum := 0.0
			for j, v := range sf {
				sum += st.Jobs[j].Priority * v
			}
			return sum
		}
		if wa, wb := weighted(a.Shortfall), weighted(b.Shortfall); !near(wa, wb, 1e-6) {
			rt.Fatalf("least weighted shortfall %g with the QP backend, %g with simplex", wa, wb)
		}
	})
	t.Logf("%d states needed the shortfall LP", lpRuns)
}

// TestKindCapacity: with separate map and reduce capacity forecasts (State.MapCapacity,
// ReduceCapacity) every stage still certifies and the plan keeps Σ u^m and Σ u^r
// within them at every control step (the last step within the smallest forecast it is
// held over); when the witness claims every deadline can be met, the plan meets them.
func TestKindCapacity(t *testing.T) {
	qp := qpSolver(t)
	rapid.Check(t, func(rt *rapid.T) {
		st, forecast, p := genState(rt)
		kinds := [2][]float64{make([]float64, len(forecast)), make([]float64, len(forecast))}
		for i, f := range forecast {
			kinds[0][i] = f * rapid.Float64Range(0, 1).Draw(rt, "map share")
			kinds[1][i] = f * rapid.Float64Range(0, 1).Draw(rt, "reduce share")
		}
		st.MapCapacity, st.ReduceCapacity = kinds[0], kinds[1]
		res, err := SolveRHC(context.Background(), qp, st, forecast, p, solvers.Options{})
		if errors.Is(err, ErrNoJobs) {
			return
		}
		if err != nil {
			rt.Fatal(err)
		}
		if res.Status != solvers.Optimal {
			rt.Fatalf("status %v", res.Status)
		}
		if res.Stage1 != nil {
			certify(rt, "shortfall stage", res.Stage1Problem, res.Stage1)
		}
		certify(rt, "eq. 3 stage", res.Problem, res.Solution)
		plan := res.Handles.Plan(res.Solution.X)
		for k := range p.ControlHorizon {
			bound := [2]float64{kinds[0][k], kinds[1][k]}
			if k == p.ControlHorizon-1 {
				bound = [2]float64{slices.Min(kinds[0][k:p.PredictionHorizon]), slices.Min(kinds[1][k:p.PredictionHorizon])}
			}
			var sum [2]float64
			for j := range plan {
				sum[0] += plan[j][k].Map
				sum[1] += plan[j][k].Reduce
			}
			for kind := range 2 {
				if sum[kind] > bound[kind]+1e-6*max(1, bound[kind]) {
					rt.Fatalf("step %d: kind %d uses %g of %g", k, kind, sum[kind], bound[kind])
				}
			}
		}
		if res.Witness {
			for j, sf := range res.Shortfall {
				if sf != 0 {
					rt.Fatalf("witness, but job %d has shortfall %g", j, sf)
				}
			}
		}
	})
}
