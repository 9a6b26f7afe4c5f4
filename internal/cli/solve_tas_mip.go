package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// solveTASMIP solves TAS's time-indexed MIP lexicographically.
func solveTASMIP(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	if _, _, err := mipSolver(o.solver); err != nil {
		return nil, err
	}
	return nil, usageErrf("--method mip: needs package lexmax, which this build does not have yet; use --method onion")
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
