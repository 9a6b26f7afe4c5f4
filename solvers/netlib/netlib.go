package netlib

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib/models"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// Config describes the backend under test.
type Config struct {
	// MIP and QP: the backend solves these classes; cases of a class it lacks are skipped
	// with the reason.
	MIP, QP bool
	// Duals: check the dual certificate of every LP optimum.
	Duals bool
	// AcceptInfeasibleOrUnbounded: the backend may answer InfeasibleOrUnbounded where the
	// exact answer is Infeasible or Unbounded.
	AcceptInfeasibleOrUnbounded bool
	// Tol is the relative tolerance of objective comparisons (default 1e-6); FeasTol and
	// DualTol those of the certificate checks (defaults as solvertest's).
	Tol, FeasTol, DualTol float64
	// MIPGap is passed as Options.MIPGap for MIPs (default 1e-7, so that an optimum is
	// within the objective tolerance of the true one).
	MIPGap float64
	// TimeLimit, when set, stops a model's solve after that long, and the case fails.
	// The default is no clock: a pass must not depend on the machine's speed or load
	// (under -race on a loaded machine qp's 25fv47 once hit a 2-minute net), so every
	// backend stops on its own — a status or its iteration caps — and go test's
	// -timeout is the net for a hang.
	TimeLimit time.Duration
	// MayStop maps a case to the reason the backend cannot finish it: the case runs with
	// the time limit StopAfter (default 2 s) and must end with time_limit or the right
	// answer, and any point it returns must be feasible and no better than the reference.
	MayStop   map[string]string
	StopAfter time.Duration
	// Exclude maps a case to the reason the backend cannot run it at all.
	Exclude map[string]string
	// Read reads a model file; nil means ReadModel.
	Read func(path string) (*model.Problem, error)
}

func (c Config) withDefaults() Config {
	if c.Tol == 0 {
		c.Tol = 1e-6
	}
	if c.MIPGap == 0 {
		c.MIPGap = 1e-7
	}
	if c.StopAfter == 0 {
		c.StopAfter = 2 * time.Second
	}
	if c.Read == nil {
		c.Read = ReadModel
	}
	return c
}

// The model list and reader live in package models (data only, no test code); these
// names keep the backends' tests that call netlib.Cases or netlib.ReadModel working.
type (
	Case = models.Case
	Kind = models.Kind
)

// Model classes.
const (
	LP  = models.LP
	MIP = models.MIP
	QP  = models.QP
)

// Cases is models.Cases.
func Cases() []Case { return models.Cases() }

// ReadModel is models.ReadModel.
func ReadModel(path string) (*model.Problem, error) { return models.ReadModel(path) }

// checkNames rejects MayStop and Exclude entries that name no case or give no reason.
func checkNames(cfg Config) error {
	var names []string
	for _, c := range Cases() {
		names = append(names, c.Name)
	}
	return checkNamesIn(cfg, names)
}

// checkNamesIn is checkNames over the cases named names.
func checkNamesIn(cfg Config, names []string) error {
	var bad []string
	for what, m := range map[string]map[string]string{"MayStop": cfg.MayStop, "Exclude": cfg.Exclude} {
		for name, reason := range m {
			switch {
			case !slices.Contains(names, name):
				bad = append(bad, fmt.Sprintf("%s: %q is not a case", what, name))
			case strings.TrimSpace(reason) == "":
				bad = append(bad, fmt.Sprintf("%s: %q has no reason", what, name))
			}
		}
	}
	if bad == nil {
		return nil
	}
	slices.Sort(bad)
	return fmt.Errorf("netlib.Config: %s", strings.Join(bad, "; "))
}

// Run solves every case with a fresh solver from newSolver, as subtests of t named after
// the cases, and checks the answers (see the package doc).
func Run(t *testing.T, newSolver func() solvers.Solver, cfg Config) {
	t.Helper()
	cfg = cfg.withDefaults()
	if err := checkNames(cfg); err != nil {
		t.Fatal(err)
	}
	dir := testmodels.RequireDir(t)
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if reason := skipReason(c, cfg); reason != "" {
				t.Skip(reason)
			}
			runCase(t, newSolver(), cfg, c, filepath.Join(dir, c.File))
		})
	}
}

// RunFull is Run over the whole Netlib LP collection (models.FullCollection) in the
// directory models.FullDir names, each file checked against its SHA-256 first. The
// collection is not committed and make deps does not install it, so RunFull skips, with
// the reason, when the directory is missing, in every build; a file that is there but
// fails its checksum fails the case. MayStop and Exclude name FullCollection's cases.
func RunFull(t *testing.T, newSolver func() solvers.Solver, cfg Config) {
	t.Helper()
	cfg = cfg.withDefaults()
	var names []string
	for _, c := range models.FullCollection() {
		names = append(names, c.Name)
	}
	if err := checkNamesIn(cfg, names); err != nil {
		t.Fatal(err)
	}
	dir, err := models.FullDir()
	if err != nil {
		t.Skip(err)
	}
	for _, c := range models.FullCollection() {
		t.Run(c.Name, func(t *testing.T) {
			if reason := skipReason(c, cfg); reason != "" {
				t.Skip(reason)
			}
			path := filepath.Join(dir, c.File)
			if err := models.VerifyFile(c, path); err != nil {
				t.Fatal(err)
			}
			runCase(t, newSolver(), cfg, c, path)
		})
	}
}

func skipReason(c Case, cfg Config) string {
	if reason, ok := cfg.Exclude[c.Name]; ok {
		return "excluded by the backend's Config: " + reason
	}
	switch {
	case c.Kind == MIP && !cfg.MIP:
		return "a MIP; the backend's Config says it has no MIP solver"
	case c.Kind == QP && !cfg.QP:
		return "a QP; the backend's Config says it has no QP solver"
	case c.Large && testing.Short():
		return "large model: runs without -short"
	}
	return ""
}

func runCase(t *testing.T, s solvers.Solver, cfg Config, c Case, path string) {
	p, err := cfg.Read(path)
	if err != nil {
		t.Fatalf("reading %s: %v", c.File, err)
	}
	if got := Kind(p.Kind()); got != c.Kind {
		t.Fatalf("%s reads as a %s, the table says %s", c.File, got, c.Kind)
	}
	opt := solvers.Options{}
	if c.Kind == MIP {
		opt.MIPGap = cfg.MIPGap
	}
	limit := cfg.TimeLimit
	reason, mayStop := cfg.MayStop[c.Name]
	if mayStop {
		limit = cfg.StopAfter
	}
	ctx, cancel := t.Context(), context.CancelFunc(func() {})
	if limit > 0 {
		ctx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	before := p.Clone()
	sol, err := s.Solve(ctx, p, opt)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if !equalProblems(before, p) {
		t.Error("Solve modified the problem")
	}
	t.Logf("%s %s: %s, objective %.12g, %d iterations, %d nodes, %v",
		s.Name(), c.Name, sol.Status, sol.Objective, sol.Iterations, sol.Nodes, sol.WallTime.Round(time.Millisecond))

	tol := solvertest.Tolerances{Obj: cfg.Tol, Feas: cfg.FeasTol, Dual: cfg.DualTol}
	if mayStop && sol.Status == solvers.TimeLimit {
		t.Logf("stopped at the time limit %v as the Config expects: %s", limit, reason)
		checkIncumbent(t, p, c, sol, tol)
		return
	}
	switch c.Status {
	case solvers.Optimal:
		if sol.Status != solvers.Optimal {
			t.Fatalf("status %s, want optimal", sol.Status)
		}
		if err := solvertest.CheckPrimal(p, sol, tol); err != nil {
			t.Errorf("the optimum is not feasible or not consistent:\n%v", err)
		}
		if !closeRel(sol.Objective, c.Objective, cfg.Tol) {
			t.Errorf("objective %.12g, reference %.12g (relative difference %.2g > %g)",
				sol.Objective, c.Objective, relDiff(sol.Objective, c.Objective), cfg.Tol)
		}
		if cfg.Duals && c.Kind == LP {
			if err := solvertest.CheckLPCertificate(p, sol, tol); err != nil {
				t.Errorf("the dual certificate fails:\n%v", err)
			}
		}
	default:
		ok := sol.Status == c.Status ||
			(cfg.AcceptInfeasibleOrUnbounded && sol.Status == solvers.InfeasibleOrUnbounded)
		if !ok {
			t.Fatalf("status %s, want %s", sol.Status, c.Status)
		}
	}
}

// checkIncumbent checks the point a solve stopped at the time limit returned, if any: it
// must be feasible and its objective no better than the reference optimum.
func checkIncumbent(t *testing.T, p *model.Problem, c Case, sol *solvers.Solution, tol solvertest.Tolerances) {
	t.Helper()
	if sol.X == nil {
		return
	}
	if err := solvertest.CheckPrimal(p, sol, tol); err != nil {
		t.Errorf("the incumbent is not feasible or not consistent:\n%v", err)
	}
	if c.Status == solvers.Optimal {
		better := float64(p.Sense) * (c.Objective - sol.Objective) // > 0: the incumbent beats the optimum
		if better > tol.Obj*math.Max(1, math.Abs(c.Objective)) {
			t.Errorf("the incumbent's objective %.12g is better than the optimum %.12g", sol.Objective, c.Objective)
		}
	}
}

func equalProblems(a, b *model.Problem) bool { return reflect.DeepEqual(a, b) }

func relDiff(a, b float64) float64 { return math.Abs(a-b) / math.Max(1, math.Abs(b)) }

func closeRel(a, b, tol float64) bool { return relDiff(a, b) <= tol }

// Bench benchmarks newSolver on the named cases (all optimal LP cases that are not Large
// when names is empty), one sub-benchmark per model. The model is read once; each
// iteration solves it with a fresh solver and fails on any status but the reference's.
// Compare backends by running Bench for each in the same `go test -bench` run.
func Bench(b *testing.B, newSolver func() solvers.Solver, names ...string) {
	b.Helper()
	dir := testmodels.RequireDir(b)
	var cases []Case
	for _, c := range Cases() {
		if len(names) == 0 && c.Kind == LP && c.Status == solvers.Optimal && !c.Large ||
			slices.Contains(names, c.Name) {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		b.Fatalf("netlib.Bench: no case named %v", names)
	}
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			p, err := ReadModel(filepath.Join(dir, c.File))
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				sol, err := newSolver().Solve(b.Context(), p, solvers.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if sol.Status != c.Status {
					b.Fatalf("%s: status %s, want %s", c.Name, sol.Status, c.Status)
				}
			}
		})
	}
}
