package solvertest

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Config describes the backend under test.
type Config struct {
	// Capabilities. A case that needs one the backend lacks is skipped with the reason.
	MIP, QP bool
	// Duals: the backend returns RowDual and ReducedCost for LPs and QPs, and every
	// continuous optimum is checked with CheckLPCertificate and, in the sensitivity
	// cases, against finite differences of the optimal value.
	Duals bool
	// Basis: the backend returns a basis, so a column at its upper bound must be reported
	// AtUpper (checked by lp_reduced_cost_at_upper).
	Basis bool
	// AcceptInfeasibleOrUnbounded: the backend may answer InfeasibleOrUnbounded where the
	// exact answer is Infeasible or Unbounded.
	AcceptInfeasibleOrUnbounded bool
	// Tolerances, relative (see the package doc); zero means 1e-6, 1e-7, 1e-7 and 1e-6.
	ObjTol, FeasTol, DualTol, IntTol float64
	// Exclude maps a case name to the reason the backend is known to fail it (a documented
	// limitation). Run fails on names that are not cases.
	Exclude map[string]string
}

// Tolerances returns the Config's tolerances with defaults filled in.
func (c Config) Tolerances() Tolerances {
	return Tolerances{Obj: c.ObjTol, Feas: c.FeasTol, Dual: c.DualTol, Int: c.IntTol}.WithDefaults()
}

// caseFunc is one conformance case. It takes testing.TB rather than *testing.T so that
// the suite's own tests can run it against a recorder and prove that it fails.
type caseFunc func(t testing.TB, s solvers.Solver, cfg Config)

// capability is a set of what a case needs of the backend.
type capability uint8

const (
	needNothing capability = 0
	needMIP     capability = 1 << iota
	needQP
	needDuals
)

type testCase struct {
	name  string
	needs capability
	fn    caseFunc
}

// allCases lists every case in the order Run runs them. Names are unique; a case's name
// is its subtest name and its key in Config.Exclude.
func allCases() []testCase {
	return slices.Concat(lpKnownCases(), lpStructureCases(), lpDegenerateCases(),
		lpStatusCases(), lpLargerCases(), sensitivityCases(), limitCases(), mipCases(), qpCases())
}

// CaseNames lists the names of every case, in the order Run runs them.
func CaseNames() []string {
	var names []string
	for _, c := range allCases() {
		names = append(names, c.name)
	}
	return names
}

// Run runs every case as a subtest of t against a fresh solver from newSolver.
func Run(t *testing.T, newSolver func() solvers.Solver, cfg Config) {
	t.Helper()
	if err := checkExclude(cfg); err != nil {
		t.Error(err)
	}
	for _, c := range allCases() {
		t.Run(c.name, func(t *testing.T) {
			if reason := skipReason(c, cfg); reason != "" {
				t.Skip(reason)
			}
			c.fn(t, newSolver(), cfg)
		})
	}
}

// checkExclude rejects Exclude entries that name no case (a typo would otherwise
// silently re-enable nothing and hide the intended exclusion) or give no reason.
func checkExclude(cfg Config) error {
	names := CaseNames()
	var bad []string
	for name, reason := range cfg.Exclude {
		switch {
		case !slices.Contains(names, name):
			bad = append(bad, fmt.Sprintf("%q is not a case", name))
		case strings.TrimSpace(reason) == "":
			bad = append(bad, fmt.Sprintf("%q is excluded without a reason", name))
		}
	}
	if bad == nil {
		return nil
	}
	slices.Sort(bad)
	return fmt.Errorf("Config.Exclude: %s (cases: %s)", strings.Join(bad, "; "), strings.Join(names, ", "))
}

func skipReason(c testCase, cfg Config) string {
	if reason, ok := cfg.Exclude[c.name]; ok {
		return "excluded by the backend's Config: " + reason
	}
	switch {
	case c.needs&needMIP != 0 && !cfg.MIP:
		return "needs MIP; the backend's Config says it has none"
	case c.needs&needQP != 0 && !cfg.QP:
		return "needs QP; the backend's Config says it has none"
	case c.needs&needDuals != 0 && !cfg.Duals:
		return "needs duals; the backend's Config says it returns none"
	}
	return ""
}

// solve runs s on p with opt, checks the contract every solve must keep (no error, a
// Solution naming the backend, p unchanged) and returns the Solution. No case sets a
// clock limit as a safety net: under -race on a loaded machine any such limit can be
// reached by a correct backend. A hanging backend is caught by go test's -timeout.
func solve(t testing.TB, s solvers.Solver, p *model.Problem, opt solvers.Options) *solvers.Solution {
	t.Helper()
	return solveCtx(t.Context(), t, s, p, opt)
}

func solveCtx(ctx context.Context, t testing.TB, s solvers.Solver, p *model.Problem, opt solvers.Options) *solvers.Solution {
	t.Helper()
	before := p.Clone()
	sol, err := s.Solve(ctx, p, opt)
	checkUnchanged(t, before, p)
	if err != nil {
		t.Fatalf("Solve(%s) returned an error: %v", p.Name, err)
	}
	if sol == nil {
		t.Fatalf("Solve(%s) returned a nil Solution and no error", p.Name)
	}
	if sol.Backend != s.Name() {
		t.Errorf("Solution.Backend = %q, want the solver's Name %q", sol.Backend, s.Name())
	}
	return sol
}

// checkUnchanged reports a solver that modified the Problem it was given.
func checkUnchanged(t testing.TB, before, after *model.Problem) {
	t.Helper()
	if !reflect.DeepEqual(before, after) {
		t.Errorf("Solve modified the problem (-before +after):\n%s", cmp.Diff(before, after, cmpopts.EquateNaNs()))
	}
}

// expectOptimal checks that sol is an optimum of p with objective want (in p's sense,
// offset included): status, primal feasibility, objective, BestBound and, where the
// Config says the backend has duals and p is continuous, the dual certificate.
func expectOptimal(t testing.TB, cfg Config, p *model.Problem, sol *solvers.Solution, want float64) {
	t.Helper()
	tol := cfg.Tolerances()
	if sol.Status != solvers.Optimal {
		t.Fatalf("%s: status %s, want optimal", p.Name, sol.Status)
	}
	if err := CheckPrimal(p, sol, tol); err != nil {
		t.Errorf("%s: the optimal point is not feasible or not consistent:\n%v", p.Name, err)
	}
	if !(math.Abs(sol.Objective-want) <= tol.Obj*scale(want)) {
		t.Errorf("%s: objective %.12g, want %.12g", p.Name, sol.Objective, want)
	}
	if p.HasInteger() {
		if sol.RowDual != nil || sol.ReducedCost != nil {
			t.Errorf("%s: a MIP optimum carries duals (RowDual %v, ReducedCost %v); package solvers leaves them nil", p.Name, sol.RowDual, sol.ReducedCost)
		}
		// A proven bound can never be better than the true optimum, and these models are
		// small enough that every backend closes the gap to its default MIP gap.
		const gap = 1e-4
		if float64(p.Sense)*(sol.BestBound-want) > tol.Obj*scale(want) {
			t.Errorf("%s: BestBound %.12g is better than the optimum %.12g", p.Name, sol.BestBound, want)
		}
		if !(math.Abs(sol.BestBound-sol.Objective) <= gap*scale(sol.Objective)+tol.Obj) {
			t.Errorf("%s: BestBound %.12g and Objective %.12g differ by more than a relative gap of %g", p.Name, sol.BestBound, sol.Objective, gap)
		}
		return
	}
	if !(math.Abs(sol.BestBound-sol.Objective) <= tol.Obj*scale(sol.Objective)) {
		t.Errorf("%s: BestBound %.12g, want it equal to Objective %.12g for a continuous problem", p.Name, sol.BestBound, sol.Objective)
	}
	if cfg.Duals {
		if err := CheckLPCertificate(p, sol, tol); err != nil {
			t.Errorf("%s: the dual certificate fails:\n%v", p.Name, err)
		}
	}
}

// expectStatus checks a status that proves something other than an optimum.
func expectStatus(t testing.TB, cfg Config, p *model.Problem, sol *solvers.Solution, want solvers.Status) {
	t.Helper()
	if sol.Status == solvers.Infeasible && sol.X != nil {
		t.Errorf("%s: an infeasible answer carries a point X = %v", p.Name, sol.X)
	}
	if sol.Status == want {
		return
	}
	if cfg.AcceptInfeasibleOrUnbounded && sol.Status == solvers.InfeasibleOrUnbounded &&
		(want == solvers.Infeasible || want == solvers.Unbounded) {
		return
	}
	t.Errorf("%s: status %s, want %s", p.Name, sol.Status, want)
}

// solveOptimal is solve followed by expectOptimal, for the common case.
func solveOptimal(t testing.TB, s solvers.Solver, cfg Config, p *model.Problem, want float64) *solvers.Solution {
	t.Helper()
	sol := solve(t, s, p, solvers.Options{})
	expectOptimal(t, cfg, p, sol, want)
	return sol
}

// solveStatus is solve followed by expectStatus.
func solveStatus(t testing.TB, s solvers.Solver, cfg Config, p *model.Problem, want solvers.Status) {
	t.Helper()
	sol := solve(t, s, p, solvers.Options{})
	expectStatus(t, cfg, p, sol, want)
}

// mustCompile compiles a model built by a case; a failure is a bug in the case.
func mustCompile(t testing.TB, m *model.Model) *model.Problem {
	t.Helper()
	p, err := m.Compile()
	if err != nil {
		t.Fatalf("case model %q does not compile: %v", m.Name, err)
	}
	return p
}
