package lexmax

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Problem is a lexicographic max-min problem: among the points of Model, find one whose
// vector of Outcomes, sorted in increasing order, is lexicographically largest.
type Problem struct {
	// Model holds the variables and constraints. Its objective is ignored. Solve only reads
	// it (it compiles it once); the caller's Model is never changed.
	Model *model.Model
	// Outcomes are u_1..u_n, linear expressions over Model's variables.
	Outcomes []model.Expr
	// Names label the outcomes in notes and logs; nil or one per outcome.
	Names []string
}

// Method selects the algorithm.
type Method int

const (
	// Ordered is Ogryczak & Śliwiński's ordered-outcomes method: maximize the sum of the k
	// smallest outcomes for k = 1..n, fixing each. Exact on any feasible set (LP or MIP).
	// With one-hot outcomes it runs their ordered-values form (Result.Form).
	Ordered Method = iota
	// WaterFill raises a common level t over the free outcomes, freezes the saturated
	// ones, and repeats. Exact on LPs; on MIPs it hands over to Ordered when it stalls.
	WaterFill
	// ExpWeights is CORA's Lemma 1: one solve of min Σ_i k^{−rank(u_i)}. Needs outcomes
	// with a finite set of values (one-hot binaries or bounded integers) and a MIP backend;
	// refused with a *WeightRangeError when float64 or the solver cannot order the weights.
	ExpWeights
)

var methodNames = [...]string{Ordered: "ordered", WaterFill: "waterfill", ExpWeights: "expweights"}

func (m Method) String() string {
	if m >= 0 && int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod is the inverse of Method.String ("ordered", "waterfill", "expweights").
func ParseMethod(s string) (Method, error) {
	if i := slices.Index(methodNames[:], s); i >= 0 {
		return Method(i), nil
	}
	return 0, fmt.Errorf("lexmax: unknown method %q (want ordered, waterfill or expweights)", s)
}

// Saturation selects how water-filling decides which free outcomes are stuck at the
// current level t* (saturated) and are frozen there.
type Saturation int

const (
	// Probe maximizes each undecided free outcome alone with the others held at ≥ t*.
	// Exact; at most one solve per free outcome and level, fewer when an earlier solution
	// already shows an outcome above t*.
	Probe Saturation = iota
	// Duals freezes the outcomes whose row u_i ≥ t has a positive dual in the max-t LP and,
	// when that LP is primal degenerate (its dual is not unique), decides the zero-dual
	// outcomes with one LP that raises them together (see groupRaise) and probes what that
	// leaves. LP only: on a MIP it runs Probe (and says so).
	Duals
	// MILP solves one MILP with a binary z_i per free outcome, maximizing the number of
	// outcomes that exceed t* + ε at once (Gavel's water_filling). The outcomes it cannot
	// raise are then probed, because "not raisable together with the others" is not
	// "not raisable" on a non-convex set. Needs a MIP backend.
	MILP
)

var saturationNames = [...]string{Probe: "probe", Duals: "duals", MILP: "milp"}

func (s Saturation) String() string {
	if s >= 0 && int(s) < len(saturationNames) {
		return saturationNames[s]
	}
	return fmt.Sprintf("Saturation(%d)", int(s))
}

// ParseSaturation is the inverse of Saturation.String ("probe", "duals", "milp").
func ParseSaturation(s string) (Saturation, error) {
	if i := slices.Index(saturationNames[:], s); i >= 0 {
		return Saturation(i), nil
	}
	return 0, fmt.Errorf("lexmax: unknown saturation test %q (want probe, duals or milp)", s)
}

// Default tolerances (see Options).
const (
	DefaultAbsTol        = 1e-6
	DefaultRelTol        = 1e-9
	DefaultMIPGap        = 1e-9
	DefaultExpResolution = 1e-6
)

// Options control Solve. The zero value runs Ordered with the default tolerances.
type Options struct {
	Method     Method
	Saturation Saturation // WaterFill only

	// AbsTol and RelTol define the slack of every freeze: a value v found optimal is
	// fixed as ≥ v − max(AbsTol, RelTol·|v|) (k·AbsTol for a sum of k outcomes). 0 means
	// the default (1e-6 and 1e-9). The slack must exceed the backend's feasibility
	// tolerance, or a frozen level can turn infeasible through rounding alone.
	// Integer-valued quantities are frozen exactly instead (see the package doc).
	AbsTol, RelTol float64

	// Solver is passed to every solve. When MIPGap is 0 on a model with integer variables
	// lexmax sets it to DefaultMIPGap: a freeze at a value the solver has not proven
	// optimal is not a lexmax.
	Solver solvers.Options

	// OutcomesForm makes Ordered (and a water-filling handover) use the ordered-outcomes
	// form (t_k, d_ik per step) even when every outcome is one-hot, where the
	// ordered-values form is used by default (see orderedValues: fewer steps and a far
	// tighter LP relaxation on scheduling MIPs).
	OutcomesForm bool

	// NoWarmStart disables passing one solve's basis to the next LP solve (used when the
	// backend reports Capabilities().Basis).
	NoWarmStart bool

	// ExpBase is k in the weights k^{−rank}; 0 means n+1, the smallest base for which
	// the weighted sum orders the sorted vectors (Lemma 1 needs k > n).
	ExpBase float64
	// ExpResolution is the smallest objective difference, relative to the largest weight
	// (1), that the backend resolves reliably; 0 means DefaultExpResolution (1e-6: HiGHS's
	// absolute MIP gap and MIP feasibility tolerance).
	ExpResolution float64

	// Log receives one line per solve; nil is quiet.
	Log io.Writer
}

// Tolerance reports the tolerances a Solve used.
type Tolerance struct {
	Abs, Rel float64 // as used (defaults filled in)
	// MaxSlack is the largest slack max(Abs, Rel·|v|) of any freeze.
	MaxSlack float64
	// MIPGap is the relative gap passed to the backend on MIP solves (0 on LPs).
	MIPGap float64
	// MaxGap is the largest BestBound − Objective (absolute, in the solve's own sense) of
	// any solve whose value was frozen or tested; 0 when every solve was proven optimal.
	MaxGap float64
	// Epsilon is the margin ε of the MILP saturation test (0 when it did not run).
	Epsilon float64
}

// Step records one solve.
type Step struct {
	Kind       string // "ordered", "maxmin", "probe", "milp" or "expweights"
	K          int    // ordered: k; probe: outcome index; maxmin/milp: outcomes frozen so far
	Value      float64
	Bound      float64
	Status     solvers.Status
	Iterations int
	Nodes      int
	Warm       bool // a basis from the previous solve was passed
	WallTime   time.Duration
}

// Result is the outcome of Solve.
type Result struct {
	// Levels are the outcome values u_i at Solution.X, in the order of Problem.Outcomes.
	Levels []float64
	// Sorted is Levels in increasing order: the lexicographic max-min vector.
	Sorted []float64
	// Solution is the final point restricted to the Model's columns and rows: X,
	// RowActivity (recomputed), Objective (the Model's own objective at X). Duals and
	// basis refer to lexmax's augmented problems and are left nil.
	Solution *solvers.Solution
	// Solves counts calls to the backend.
	Solves     int
	Method     Method
	Saturation Saturation // WaterFill: the test that ran (Probe when Duals met a MIP)
	// HandedOver is set when water-filling stalled (no free outcome was saturated, which
	// happens on non-convex sets) and Ordered finished the remaining outcomes.
	HandedOver bool
	// Form is the form of the sequential method that ran ("outcomes": θ_k = sum of the k
	// smallest; "values": cumulative counts below each value, for one-hot outcomes); ""
	// when none ran (water-filling without a handover, exponential weights).
	Form string
	// FrozenAtHandover is the number of outcomes water-filling had frozen by then.
	FrozenAtHandover int
	Tol              Tolerance
	// IntegerColumns is the number of integer columns of the Model; Integrality is
	// max |x_j − round(x_j)| over them at Solution.X (0 when there are none).
	IntegerColumns int
	Integrality    float64
	Steps          []Step
	Notes          []string
	WallTime       time.Duration
}

// ErrInfeasible is returned (wrapped) when the Model has no feasible point.
var ErrInfeasible = errors.New("lexmax: the model is infeasible")

// ErrUnbounded is returned (wrapped) when some step's objective is unbounded: the
// outcomes still free can all grow without limit, so no lexicographic maximum exists.
var ErrUnbounded = errors.New("lexmax: the outcomes are unbounded above")

// StatusError reports a solve that ended without a proven optimum (a limit, a numerical
// failure, or a later step turning infeasible through the freezes).
type StatusError struct {
	Step   string
	Status solvers.Status
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("lexmax: %s solve ended with status %s", e.Step, e.Status)
}

// NotApplicableError says why ExpWeights cannot linearize an outcome.
type NotApplicableError struct {
	Outcome int
	Name    string
	Reason  string
}

func (e *NotApplicableError) Error() string {
	name := ""
	if e.Name != "" {
		name = " (" + e.Name + ")"
	}
	return fmt.Sprintf("lexmax: exponential weights do not apply to outcome %d%s: %s", e.Outcome, name, e.Reason)
}

// WeightRangeError refuses ExpWeights when its weights k^{−r}, r = 0..m−1, cannot be
// represented in float64 or ordered within the solver's resolution.
type WeightRangeError struct {
	Base   float64 // k
	Values int     // m: distinct outcome values (ranks)
	N      int     // number of outcomes
	// Orders is (m−1)·log10(k): how many orders of magnitude the weights span.
	Orders float64
	// Resolvable is how many orders the arithmetic resolves: 307.7 for float64's smallest
	// normal number when Representable is false, −log10(max(resolution, n·2⁻⁵²)) otherwise.
	Resolvable    float64
	Representable bool
}

func (e *WeightRangeError) Error() string {
	if !e.Representable {
		return fmt.Sprintf("lexmax: exponential weights k^-r for k=%g over %d distinct outcome values span %.1f orders of magnitude; float64 represents %.1f: %.1f orders short",
			e.Base, e.Values, e.Orders, e.Resolvable, e.Orders-e.Resolvable)
	}
	return fmt.Sprintf("lexmax: exponential weights k^-r for k=%g over %d distinct outcome values span %.1f orders of magnitude; the solver tolerances resolve %.1f: %.1f orders short (use method ordered or waterfill)",
		e.Base, e.Values, e.Orders, e.Resolvable, e.Orders-e.Resolvable)
}

// Solve computes the lexicographic max-min of p's outcomes with backend s.
//
// The returned error wraps ErrInfeasible or ErrUnbounded, or is a *StatusError,
// *NotApplicableError or *WeightRangeError, or reports bad input; ctx.Err() is returned
// (wrapped) when ctx ends between solves.
func Solve(ctx context.Context, p Problem, s solvers.Solver, opt Options) (*Result, error) {
	start := time.Now()
	if s == nil {
		return nil, errors.New("lexmax: no solver")
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	if p.Model == nil {
		return nil, errors.New("lexmax: no model")
	}
	n := len(p.Outcomes)
	if n == 0 {
		return nil, errors.New("lexmax: no outcomes")
	}
	if p.Names != nil && len(p.Names) != n {
		return nil, fmt.Errorf("lexmax: %d names for %d outcomes", len(p.Names), n)
	}
	base, err := p.Model.Compile()
	if err != nil {
		return nil, fmt.Errorf("lexmax: compiling the model: %w", err)
	}
	outs, err := compileOutcomes(p, base.NumCols())
	if err != nil {
		return nil, err
	}

	res := &Result{Method: opt.Method, Tol: opt.tolerance()}
	st := &state{
		ctx:    ctx,
		p:      p,
		base:   base,
		outs:   outs,
		res:    res,
		sopt:   opt.Solver,
		opt:    opt,
		solver: s,
		isMIP:  base.HasInteger(),
	}
	if d, ok := s.(solvers.Describer); ok {
		st.caps, st.described = d.Capabilities(), true
	}
	if st.isMIP {
		if st.described && !st.caps.MIP {
			return nil, fmt.Errorf("lexmax: the model has integer variables and solver %q does not solve MIPs", s.Name())
		}
		if st.sopt.MIPGap == 0 {
			st.sopt.MIPGap = DefaultMIPGap
		}
		res.Tol.MIPGap = st.sopt.MIPGap
	}
	st.warm = !opt.NoWarmStart && st.described && st.caps.Basis
	st.analyzeOutcomes()

	var x []float64
	var last *solvers.Solution
	switch opt.Method {
	case Ordered:
		x, last, err = st.solveOrdered()
	case WaterFill:
		x, last, err = st.solveWaterFill()
	case ExpWeights:
		x, last, err = st.solveExpWeights()
	}
	if err != nil {
		return nil, err
	}
	st.finish(x, last)
	res.WallTime = time.Since(start)
	return res, nil
}

func (o *Options) check() error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"AbsTol", o.AbsTol}, {"RelTol", o.RelTol}, {"ExpBase", o.ExpBase}, {"ExpResolution", o.ExpResolution}} {
		if math.IsNaN(v.v) || math.IsInf(v.v, 0) || v.v < 0 {
			return fmt.Errorf("lexmax: Options.%s = %g: must be finite and >= 0", v.name, v.v)
		}
	}
	if o.Method < Ordered || o.Method > ExpWeights {
		return fmt.Errorf("lexmax: unknown method %d", o.Method)
	}
	if o.Saturation < Probe || o.Saturation > MILP {
		return fmt.Errorf("lexmax: unknown saturation test %d", o.Saturation)
	}
	return nil
}

// tolerance returns the Abs and Rel tolerances with defaults filled in.
func (o *Options) tolerance() Tolerance {
	t := Tolerance{Abs: o.AbsTol, Rel: o.RelTol}
	if t.Abs == 0 {
		t.Abs = DefaultAbsTol
	}
	if t.Rel == 0 {
		t.Rel = DefaultRelTol
	}
	return t
}

// finish fills Levels, Sorted, Solution and the integrality report from the final point.
func (st *state) finish(x []float64, last *solvers.Solution) {
	res, base := st.res, st.base
	nb := base.NumCols()
	xb := slices.Clone(x[:nb])
	res.Levels = make([]float64, len(st.outs))
	for i, o := range st.outs {
		res.Levels[i] = o.eval(xb)
	}
	res.Sorted = slices.Clone(res.Levels)
	slices.Sort(res.Sorted)
	sol := &solvers.Solution{
		Status:      solvers.Optimal,
		X:           xb,
		RowActivity: base.RowActivity(xb),
		Objective:   base.Objective(xb),
		Backend:     st.solver.Name(),
	}
	sol.BestBound = sol.Objective
	for _, s := range res.Steps {
		sol.Iterations += s.Iterations
		sol.Nodes += s.Nodes
		sol.WallTime += s.WallTime
	}
	if last != nil {
		sol.Backend, sol.Version = last.Backend, last.Version
	}
	res.Solution = sol
	for j, isInt := range base.Integrality {
		if isInt {
			res.IntegerColumns++
			res.Integrality = math.Max(res.Integrality, math.Abs(xb[j]-math.Round(xb[j])))
		}
	}
}
