package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// mipDetails is the "details" object of a --method mip run: how lexmax got there.
type mipDetails struct {
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

// solveTASMIP solves TAS's time-indexed MIP lexicographically with package lexmax.
func solveTASMIP(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	method, err := lexmax.ParseMethod(o.lexmax)
	if err != nil {
		return nil, usageErrf("--lexmax %q: want ordered, waterfill or expweights", o.lexmax)
	}
	sat, err := lexmax.ParseSaturation(o.saturation)
	if err != nil {
		return nil, usageErrf("--saturation %q: want probe, duals or milp", o.saturation)
	}
	sv, name, err := mipSolver(o.solver)
	if err != nil {
		return nil, err
	}
	mip, err := tas.BuildMIP(in)
	switch {
	case errors.Is(err, tas.ErrInfeasible):
		return nil, &errNoSchedule{err}
	case err != nil:
		return nil, failed(fmt.Errorf("build the TAS MIP: %w", err))
	}
	ids := make([]string, len(in.Jobs))
	for i := range in.Jobs {
		ids[i] = in.Jobs[i].ID
	}
	start := time.Now()
	res, err := lexmax.Solve(ctx, lexmax.Problem{Model: mip.Model, Outcomes: mip.Outcomes, Names: ids}, sv,
		lexmax.Options{Method: method, Saturation: sat, Solver: solvers.Options{TimeLimit: o.timeLimit}})
	switch {
	case errors.Is(err, lexmax.ErrInfeasible):
		return nil, &errNoSchedule{err}
	case ctx.Err() != nil:
		return nil, failed(fmt.Errorf("interrupted: %w", ctx.Err()))
	case err != nil:
		return nil, failed(fmt.Errorf("--method mip: %w", err))
	}
	s, err := mip.Decode(res.Solution.X)
	if err != nil {
		return nil, failed(fmt.Errorf("--method mip: decode the MIP solution: %w", err))
	}
	d := mipDetails{
		Lexmax: res.Method.String(), Form: res.Form, Solves: res.Solves, HandedOver: res.HandedOver,
		FrozenAtHandover: res.FrozenAtHandover, AbsTol: res.Tol.Abs, RelTol: res.Tol.Rel,
		MIPGap: res.Tol.MIPGap, MaxGap: res.Tol.MaxGap, Integrality: res.Integrality,
		Rows: mip.Model.NumConstrs(), Cols: mip.Model.NumVars(), Notes: res.Notes,
		SolveSeconds: time.Since(start).Seconds(),
	}
	if method == lexmax.WaterFill {
		d.Saturation = res.Saturation.String()
	}
	out := &solved{schedule: s, method: "mip", solver: &name, exact: true, layers: levelLayers(in, s), details: d, solution: res.Solution}
	if p, err := mip.Model.Compile(); err == nil {
		out.problem = p
	}
	return out, nil
}

// levelLayers groups the jobs of a schedule by utility level, lowest first: the layers
// a lexicographic max-min fixes one after the other.
func levelLayers(in *sched.Instance, s *sched.Schedule) []solveLayer {
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
	var out []solveLayer
	for _, i := range order {
		u := s.Jobs[i].Utility
		if n := len(out); n > 0 && out[n-1].Level == u {
			out[n-1].Jobs = append(out[n-1].Jobs, in.Jobs[i].ID)
			continue
		}
		out = append(out, solveLayer{Level: u, Jobs: []string{in.Jobs[i].ID}})
	}
	return out
}

// mipSolver returns the backend for --method mip: the named one, or by default HiGHS when
// compiled in, else the built-in simplex; a usage error when that backend is missing or
// cannot solve MIPs, naming the MIP backends this binary has.
func mipSolver(name string) (solvers.Solver, string, error) {
	defaulted := name == ""
	if defaulted {
		name = "simplex"
		if _, err := solvers.Get("highs"); err == nil {
			name = "highs"
		}
	}
	var mip []string
	for _, n := range solvers.Names() {
		if s, err := solvers.Get(n); err == nil {
			if d, ok := s.(solvers.Describer); ok && d.Capabilities().MIP {
				mip = append(mip, n)
			}
		}
	}
	hint := "this binary has no MIP backend: build with -tags highs or lpsolve (make build), or use --method onion"
	if len(mip) > 0 {
		hint = "MIP backends in this binary: " + strings.Join(mip, ", ")
	}
	sv, err := solvers.Get(name)
	switch {
	case err != nil && defaulted:
		return nil, "", usageErrf("--method mip needs a MIP solver; %s", hint)
	case err != nil:
		return nil, "", usageErr(fmt.Errorf("--solver: %w", err))
	}
	if d, ok := sv.(solvers.Describer); ok && !d.Capabilities().MIP {
		return nil, "", usageErrf("--solver %q cannot solve MIPs (the TAS MIP has binaries); %s", name, hint)
	}
	return sv, name, nil
}
