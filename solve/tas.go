package solve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

var (
	onionMethod = Method{Name: "onion", Help: "Onion peeling (rush.txt Alg. 3, made exact): find the highest utility level all jobs can reach together, fix the jobs that cannot rise above it, repeat. Levels are searched among the utility values themselves, so the answer is exact; when tied values leave a level with no job to fix, every choice is explored within --budget branches (past it a fixed rule decides and \"exact\" is false). Pure Go, no solver needed; 10^5 jobs in about a second."}
	mipMethod   = Method{Name: "mip", Classes: []solvers.Class{solvers.MIP}, Help: "The time-indexed MIP (one completion-slot binary per job and slot) solved lexicographically by package lexmax with --solver (default: the first of " + strings.Join(solvers.Preference(solvers.MIP), ", ") + " compiled in): an independent reference for small instances. --lexmax ordered (default; exact on any MIP), waterfill (with --saturation probe|duals|milp; hands over to ordered when it stalls) or expweights (CORA's single weighted solve; refused when the weights cannot be told apart by the solver)."}
)

func tasFormulation() Formulation {
	return Formulation{
		Name:          "tas",
		Help:          "RUSH's time-aware scheduling (rush.txt §III-B): integral units of each resource per job and slot within capacity, every job gets its full demand by the horizon, and the sorted vector of utilities U_i(completion slot) is maximized lexicographically — the worst-off job first, then the next, and so on. Release times and max_parallel caps are honoured.",
		Methods:       []Method{onionMethod, mipMethod},
		DefaultVerify: true,
		Bench:         &Bench{Case: "tas-mip", Class: solvers.MIP, Model: MaxMinMIP, FastPath: "onion", Objective: LowestLevel},
		Model: &ModelSpec{Help: "The time-indexed TAS MIP of method mip (one completion binary w[job,s] per job and slot). Its lexicographic objective is not one objective: the model has the constraints and no objective; the outcomes are Σ_s U(s)·w[job,s].",
			Build: func(_ context.Context, req *Request) (*model.Model, []string, error) {
				mip, err := tas.BuildMIP(req.Instance)
				switch {
				case errors.Is(err, tas.ErrInfeasible):
					return nil, nil, &NoScheduleError{err}
				case err != nil:
					return nil, nil, requestErr(err) // the instance is too large for the MIP
				}
				return mip.Model, nil, nil
			}},
		Solve: func(ctx context.Context, req *Request, b solvers.Backend) (*Result, error) {
			if req.Method == mipMethod.Name {
				return solveTASMIP(ctx, req, req.Instance, b)
			}
			return solveOnion(ctx, req.Instance, req.Budget, req.LevelsOnly, req.Workspace)
		},
	}
}

// OnionDetails is the Details of an onion-peeling run.
type OnionDetails struct {
	Engine       string  `json:"engine"`
	Oracle       string  `json:"oracle,omitempty"`
	HandOver     string  `json:"hand_over,omitempty"`
	Probes       int     `json:"feasibility_tests,omitempty"`
	Stalls       int     `json:"stalls"`
	Branches     int     `json:"branches"`
	RuleChoices  int     `json:"rule_choices"`
	Blocking     int     `json:"blocking_slots,omitempty"`
	Evaluations  int64   `json:"utility_evaluations,omitempty"`
	Rollbacks    int     `json:"rollbacks,omitempty"`
	SolveSeconds float64 `json:"solve_seconds"`
}

func onionDetails(st tas.Stats, start time.Time) OnionDetails {
	return OnionDetails{Engine: st.Engine, Oracle: st.Oracle, HandOver: st.HandOver, Probes: st.Probes,
		Stalls: st.Stalls, Branches: st.Branches, RuleChoices: st.RuleChoices, Blocking: st.BlockingSlots,
		Evaluations: st.Evaluations, Rollbacks: st.Rollbacks, SolveSeconds: time.Since(start).Seconds()}
}

// solveOnion is TAS by onion peeling.
func solveOnion(ctx context.Context, in *sched.Instance, budget int, levelsOnly bool, ws *Workspace) (*Result, error) {
	start := time.Now()
	res, err := tas.OnionPeel(ctx, in, tas.Options{MaxBranches: budget, NoSchedule: levelsOnly, Workspace: ws.peelWorkspace()})
	if err != nil {
		return nil, peelError(ctx, err)
	}
	return peeled(in, res.Schedule, res, start, ws), nil
}

// peelError sorts an onion-peeling error: no schedule, interrupted, or a failure.
func peelError(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, tas.ErrInfeasible):
		return &NoScheduleError{err}
	case ctx.Err() != nil:
		return interrupted(ctx)
	}
	return err
}

// peeled is the Result of onion peeling (tas or exact CORA) that produced s (nil with
// Request.LevelsOnly); its layers are in ws's arrays when ws is not nil.
func peeled(in *sched.Instance, s *sched.Schedule, res *tas.Result, start time.Time, ws *Workspace) *Result {
	return &Result{Status: solvers.Optimal, Schedule: s, Exact: res.Exact, LexmaxByFlow: true,
		Layers: layersOf(in, res.Layers, ws), Details: onionDetails(res.Stats, start)}
}

func layersOf(in *sched.Instance, ls []tas.Layer, ws *Workspace) []Layer {
	n := 0
	for _, l := range ls {
		n += len(l.Jobs)
	}
	var out []Layer
	var all []string // one array for every layer's IDs
	if ws != nil {
		if cap(ws.layers) < len(ls) {
			ws.layers = make([]Layer, len(ls))
		}
		if cap(ws.ids) < n {
			ws.ids = make([]string, n)
		}
		out, all = ws.layers[:len(ls)], ws.ids[:n]
	} else {
		out, all = make([]Layer, len(ls)), make([]string, n)
	}
	for k, l := range ls {
		ids := all[:len(l.Jobs):len(l.Jobs)]
		all = all[len(l.Jobs):]
		for i, j := range l.Jobs {
			ids[i] = in.Jobs[j].ID
		}
		out[k] = Layer{Level: l.Level, Jobs: ids}
	}
	return out
}

// MIPDetails is the Details of a MIP run: how lexmax got there.
type MIPDetails struct {
	Lexmax           string   `json:"lexmax"`
	Saturation       string   `json:"saturation,omitempty"`
	Form             string   `json:"form,omitempty"`
	Solves           int      `json:"solves"`
	HandedOver       bool     `json:"handed_over,omitempty"`
	FrozenAtHandover int      `json:"frozen_at_handover,omitempty"`
	AbsTol           float64  `json:"abs_tol"`
	RelTol           float64  `json:"rel_tol"`
	MIPGap           float64  `json:"mip_gap"`
	MaxGap           float64  `json:"max_gap"`
	Integrality      float64  `json:"integrality"`
	Rows             int      `json:"rows"`
	Cols             int      `json:"cols"`
	Notes            []string `json:"notes,omitempty"`
	SolveSeconds     float64  `json:"solve_seconds"`
}

// LexmaxOptions parses Request.Lexmax and Request.Saturation.
func LexmaxOptions(req *Request) (lexmax.Options, error) {
	var o lexmax.Options
	method, err := lexmax.ParseMethod(cmpOr(req.Lexmax, "ordered"))
	if err != nil {
		return o, requestErrf("%s %q: want ordered, waterfill or expweights", field("lexmax"), req.Lexmax)
	}
	sat, err := lexmax.ParseSaturation(cmpOr(req.Saturation, "probe"))
	if err != nil {
		return o, requestErrf("%s %q: want probe, duals or milp", field("saturation"), req.Saturation)
	}
	return lexmax.Options{Method: method, Saturation: sat, Solver: solvers.Options{TimeLimit: req.TimeLimit}}, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// solveTASMIP solves TAS's time-indexed MIP lexicographically with package lexmax.
func solveTASMIP(ctx context.Context, req *Request, in *sched.Instance, b solvers.Backend) (*Result, error) {
	opt, err := LexmaxOptions(req)
	if err != nil {
		return nil, err
	}
	mip, err := buildTASMIP(in)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(in.Jobs))
	for i := range in.Jobs {
		ids[i] = in.Jobs[i].ID
	}
	start := time.Now()
	res, err := lexmax.Solve(ctx, lexmax.Problem{Model: mip.Model, Outcomes: mip.Outcomes, Names: ids}, b.Solver, opt)
	switch {
	case errors.Is(err, lexmax.ErrInfeasible):
		return nil, &NoScheduleError{err}
	case ctx.Err() != nil:
		return nil, interrupted(ctx)
	case err != nil:
		return nil, &MethodError{Method: mipMethod.Name, Err: err}
	}
	s, err := mip.Decode(res.Solution.X)
	if err != nil {
		return nil, &MethodError{Method: mipMethod.Name, Err: fmt.Errorf("decode the MIP solution: %w", err)}
	}
	d := MIPDetails{
		Lexmax: res.Method.String(), Form: res.Form, Solves: res.Solves, HandedOver: res.HandedOver,
		FrozenAtHandover: res.FrozenAtHandover, AbsTol: res.Tol.Abs, RelTol: res.Tol.Rel,
		MIPGap: res.Tol.MIPGap, MaxGap: res.Tol.MaxGap, Integrality: res.Integrality,
		Rows: mip.Model.NumConstrs(), Cols: mip.Model.NumVars(), Notes: res.Notes,
		SolveSeconds: time.Since(start).Seconds(),
	}
	if opt.Method == lexmax.WaterFill {
		d.Saturation = res.Saturation.String()
	}
	out := &Result{Status: solvers.Optimal, Schedule: s, Backend: b.Name, BackendVersion: b.Version, Exact: true,
		Layers: LayersOf(in, s), Details: d}
	if p, err := mip.Model.Compile(); err == nil {
		out.Points = []Point{{Name: "certificate", Problem: p, Solution: res.Solution}}
	}
	return out, nil
}

// buildTASMIP builds the TAS MIP of in; an instance it proves infeasible is a
// *NoScheduleError.
func buildTASMIP(in *sched.Instance) (*tas.MIP, error) {
	mip, err := tas.BuildMIP(in)
	switch {
	case errors.Is(err, tas.ErrInfeasible):
		return nil, &NoScheduleError{err}
	case err != nil:
		return nil, fmt.Errorf("build the TAS MIP: %w", err)
	}
	return mip, nil
}

// MaxMinMIP is the first step of TAS's lexicographic maximization as one MIP: the
// time-indexed model of tas.BuildMIP with a level z ≤ u_i for every job, maximized. Its
// optimum is the lowest utility of the lexmax optimum, the level onion peeling's first
// layer reaches (LowestLevel of its Result).
func MaxMinMIP(in *sched.Instance) (*model.Problem, error) {
	mip, err := tas.BuildMIP(in)
	if err != nil {
		return nil, err
	}
	m := mip.Model
	lo, hi := 0.0, 0.0
	for i, row := range in.UtilityTable() {
		for t, u := range row {
			if (i == 0 && t == 0) || u < lo {
				lo = u
			}
			if (i == 0 && t == 0) || u > hi {
				hi = u
			}
		}
	}
	z := m.Continuous(lo, hi, "level")
	for i, u := range mip.Outcomes {
		e := u.Clone()
		e.AddTerm(z, -1)
		m.AddGe(e, 0, fmt.Sprintf("level[%s]", in.Jobs[i].ID))
	}
	m.Maximize(z.E())
	p, err := m.Compile()
	if err != nil {
		return nil, fmt.Errorf("max-min MIP: %w", err)
	}
	return p, nil
}

// LowestLevel is the lowest level of a result's layers (NaN without layers): the
// max-min level, MaxMinMIP's optimum.
func LowestLevel(r *Result) float64 {
	if len(r.Layers) == 0 {
		return math.NaN()
	}
	lv := make([]float64, len(r.Layers))
	for i, l := range r.Layers {
		lv[i] = l.Level
	}
	return slices.Min(lv)
}
