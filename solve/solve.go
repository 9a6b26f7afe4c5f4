package solve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// Request is one solve: what to solve, how, and with which backends.
type Request struct {
	Formulation string
	// Method is one of the formulation's methods; "" or "auto" for its default.
	Method string
	// Instance is the input of an InstanceInput formulation, State of a StateInput one.
	Instance *sched.Instance
	State    *rds.StateFile
	// Solver names the backend for every problem class the method needs; Backends
	// overrides it per class. Empty: solvers.Select's default for the class.
	Solver   string
	Backends map[solvers.Class]string
	// Lexmax is the lexicographic method of a MIP method (ordered, waterfill or
	// expweights; "" for ordered) and Saturation water-filling's saturation test
	// (probe, duals or milp; "" for probe).
	Lexmax, Saturation string
	// Budget is onion peeling's stall-branch budget: 0 the default
	// (tas.DefaultMaxBranches), negative never branch.
	Budget int
	// TimeLimit stops each solver call (0: none).
	TimeLimit time.Duration
	// CORA holds the options of cora-final and cora-linearized, RS those of rs.
	CORA CORAOptions
	RS   RSOptions
	// Set lists the option names (Formulation.Options) the caller set explicitly; one
	// that the formulation does not take is an error.
	Set []string
	// SkipSelfChecks leaves out a formulation's own cross-checks (rs: WCDE's, which cost
	// several times the solve): for timing the method alone, as the benchmark harness
	// does. Result.Checked and Result.Problems are then empty.
	SkipSelfChecks bool
	// SolverSet says the caller named a backend; for a method that needs none it is an
	// error rather than silently ignored.
	SolverSet bool
	// LevelsOnly asks onion peeling (tas and cora, method onion) for the lexmax levels
	// alone — Layers and Exact, with Schedule nil — skipping the integral allocation
	// (n·R·T integers), which costs the online planners as much as the peeling and which
	// they do not read when they carry a plan out by its promises. Other methods
	// ignore it.
	LevelsOnly bool
	// Workspace, when set, keeps onion peeling's arrays (tas and cora, method onion)
	// from one Solve to the next, for callers that solve at every decision instant
	// (the online planners): the Result's Layers and Schedule then live in it and are
	// valid until the next Solve with the same Workspace. Other methods ignore it.
	Workspace *Workspace
}

// Workspace holds the arrays of onion peeling and of its Result's layers across
// solves (Request.Workspace). One per caller, never shared between goroutines; the
// zero value is ready.
type Workspace struct {
	tas    tas.Workspace
	layers []Layer
	ids    []string
}

// peelWorkspace is w's onion-peeling part, or nil.
func (w *Workspace) peelWorkspace() *tas.Workspace {
	if w == nil {
		return nil
	}
	return &w.tas
}

// CORAOptions are the options of the CORA LPs (formulations/cora.Options).
type CORAOptions struct {
	Strict   bool
	Scale, K float64
	// MaxColumns bounds Linearized-CORA's size (0: cora.DefaultMaxLinearizedColumns);
	// a larger model is a *RequestError.
	MaxColumns int
}

// RSOptions override the instance's robust block (rush.txt §III-A); nil fields keep it.
type RSOptions struct {
	Theta, Delta *float64
	Bins         *int
}

// Result is the answer of a solve and what verify needs to certify it.
type Result struct {
	Formulation string
	Method      string
	// Backend is the solver that ran ("" for a fast path), BackendVersion its version
	// where known.
	Backend, BackendVersion string
	// Status is Optimal when a schedule was found; the step's status for rds.
	Status solvers.Status
	// Exact is false when the method could not prove its answer (onion peeling past its
	// branch budget; FINAL not at exact CORA's optimum; an RDS step not optimal).
	Exact bool
	// Instance is the instance Schedule answers and is checked against: the input, or a
	// derived one (rs: the worst-case demands η).
	Instance *sched.Instance
	Schedule *sched.Schedule
	// ExactDemand: Schedule must meet the demand exactly (CORA).
	ExactDemand bool
	// LexmaxByFlow: Schedule claims to be Instance's TAS lexmax, which
	// verify.LexmaxCertificate can prove by max-flow tests alone (onion peeling).
	LexmaxByFlow bool
	// Layers are the levels of the lexicographic max-min and the jobs fixed at each.
	Layers []Layer
	// Points are the models solved and the solver's answers, for their certificates.
	Points []Point
	// Details say how the method got there (a JSON-ready struct per method).
	Details any
	// CORA is what the CORA formulations add (objective, k, scale, warnings, fractional).
	CORA *CORAOutput
	// Jobs holds per-job additions (rs: η and the reference quantile), nil otherwise.
	Jobs []JobExtra
	// Checked and Problems are the formulation's own checks beyond the schedule's (rs:
	// WCDE's cross-checks), in words; a problem fails verification.
	Checked  string
	Problems []string
	// Warnings are to be shown to the user (the CORA numerics guard).
	Warnings []string
	// Failure is set when the answer is printed but is not a success (FINAL's x
	// fractional).
	Failure error
	// Step is the RDS control step (rds only).
	Step *rds.StepResult
}

// Layer is one level of the lexicographic max-min with the jobs fixed there.
type Layer struct {
	Level float64  `json:"level"`
	Jobs  []string `json:"jobs"`
}

// Point is a model a backend solved and its answer. Name prefixes its verify checks.
type Point struct {
	Name     string
	Problem  *model.Problem
	Solution *solvers.Solution
}

// JobExtra is what a formulation adds to a job of the output.
type JobExtra struct {
	// Eta is the worst-case demand scheduled (container-slots), ReferenceQuantile the
	// reference distribution's θ-quantile (rs; nil for a job without a runtime).
	Eta               *int64 `json:"eta,omitempty"`
	ReferenceQuantile *int64 `json:"reference_quantile,omitempty"`
}

// Solve runs req with the default registry.
func Solve(ctx context.Context, req Request) (*Result, error) {
	return Default().Solve(ctx, req)
}

// Check checks a request against the registry without solving or choosing a backend:
// the formulation, the options set, the method, and a solver named for a method that
// needs none. It returns the formulation and the method.
func (r *Registry) Check(req Request) (*Formulation, Method, error) {
	f := r.Lookup(req.Formulation)
	if f == nil {
		return nil, Method{}, requestErrf("%s %q: unknown (this binary solves: %s)", field("formulation"), req.Formulation, strings.Join(r.Names(), ", "))
	}
	for _, o := range req.Set {
		if !slices.Contains(f.Options, o) {
			return nil, Method{}, requestErrf("%s applies to %s %s", field(o), field("formulation"), strings.Join(r.OptionFormulations(o), ", "))
		}
	}
	m, ok := f.Method(req.Method)
	if !ok {
		var others []string
		for _, g := range r.list {
			if _, has := g.Method(req.Method); has && g != f {
				others = append(others, g.Name)
			}
		}
		var tail message
		if len(others) > 0 {
			tail = message{" (%s %s is a method of %s)", []any{field("method"), req.Method, strings.Join(others, ", ")}}
		}
		return nil, Method{}, requestErrf("%s %q: %s takes %s%s", field("method"), req.Method, f.Name, orList(f.MethodNames()), tail)
	}
	if req.TimeLimit < 0 {
		return nil, Method{}, requestErrf("%s %v: must not be negative", field("time-limit"), req.TimeLimit)
	}
	if !m.NeedsSolver() && req.SolverSet {
		if ms := solverMethods(f); len(ms.args) > 0 {
			return nil, Method{}, requestErrf("%s applies to %s; %s needs no solver", field("solver"), ms, m.Name)
		}
		return nil, Method{}, requestErrf("%s: method %s of %s needs no solver", field("solver"), m.Name, f.Name)
	}
	return f, m, nil
}

// Resolve is Check, then the backend of the method (solvers.Select; zero for a fast
// path).
func (r *Registry) Resolve(req Request) (*Formulation, Method, solvers.Backend, error) {
	f, m, err := r.Check(req)
	if err != nil || !m.NeedsSolver() {
		return f, m, solvers.Backend{}, err
	}
	b, err := selectBackend(f, m, req)
	return f, m, b, err
}

// selectBackend picks the backend of a method with solvers.Select. A missing default
// says which backend would do and names the methods of f that need none.
func selectBackend(f *Formulation, m Method, req Request) (solvers.Backend, error) {
	name := req.Solver
	for _, c := range m.Classes {
		if n := req.Backends[c]; n != "" {
			name = n
		}
	}
	b, err := solvers.Select(name, m.Classes...)
	if err == nil {
		return b, nil
	}
	var nb *solvers.NoBackendError
	if !errors.As(err, &nb) {
		return b, requestErrf("%s: %w", field("solver"), err)
	}
	var alt []string
	for _, o := range f.Methods {
		if !o.NeedsSolver() {
			alt = append(alt, o.Name)
		}
	}
	var tail message
	if len(alt) > 0 {
		tail = message{"; or use %s", []any{fieldValues("method", alt, " or ")}}
	}
	if nb.Name != "" {
		// NoBackendError says `solver "name" cannot solve …`: the field is its first word.
		return b, requestErrf("%s%s%s", field("solver"), strings.TrimPrefix(err.Error(), "solver"), tail)
	}
	return b, requestErrf("%s %s needs a solver: %v%s", field("method"), m.Name, err, tail)
}

// solverMethods lists the methods of f that take a solver ("method mip"; empty for
// none).
func solverMethods(f *Formulation) message {
	var ms []string
	for _, m := range f.Methods {
		if m.NeedsSolver() {
			ms = append(ms, m.Name)
		}
	}
	return fieldValues("method", ms, " and ")
}

func orList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Solve resolves req (Resolve) and runs it. Errors: *RequestError for a request that
// cannot run as asked, an error wrapping ErrNoSchedule for an instance without a
// schedule, and others for a solve that failed or was interrupted.
func (r *Registry) Solve(ctx context.Context, req Request) (*Result, error) {
	f, m, b, err := r.Resolve(req)
	if err != nil {
		return nil, err
	}
	switch {
	case f.Input == InstanceInput && req.Instance == nil:
		return nil, requestErrf("solve: %s needs an instance", f.Name)
	case f.Input == StateInput && req.State == nil:
		return nil, requestErrf("solve: %s needs an RDS state file", f.Name)
	}
	req.Method = m.Name
	res, err := f.Solve(ctx, &req, b)
	if err != nil {
		return nil, err
	}
	res.Formulation = f.Name
	if res.Method == "" {
		res.Method = m.Name
	}
	if res.Instance == nil {
		res.Instance = req.Instance
	}
	res.ExactDemand = res.ExactDemand || f.ExactDemand
	return res, nil
}

// interrupted wraps the context's error.
func interrupted(ctx context.Context) error {
	return fmt.Errorf("interrupted: %w", ctx.Err())
}

// LayersOf groups a schedule's jobs by utility, lowest first: the layers a
// lexicographic max-min fixes one after the other.
func LayersOf(in *sched.Instance, s *sched.Schedule) []Layer {
	order := make([]int, len(s.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ua, ub := s.Jobs[a].Utility, s.Jobs[b].Utility
		switch {
		case ua < ub:
			return -1
		case ua > ub:
			return 1
		}
		return 0
	})
	var out []Layer
	for _, i := range order {
		u := s.Jobs[i].Utility
		if n := len(out); n > 0 && out[n-1].Level == u {
			out[n-1].Jobs = append(out[n-1].Jobs, in.Jobs[i].ID)
			continue
		}
		out = append(out, Layer{Level: u, Jobs: []string{in.Jobs[i].ID}})
	}
	return out
}
