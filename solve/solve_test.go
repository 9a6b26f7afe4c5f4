package solve_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
)

func load(t *testing.T, path string) *sched.Instance {
	t.Helper()
	in, err := sched.DecodeFile(filepath.Join("..", "testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestDefaultRegistry: the default registry holds the six formulations in help order,
// each with a default method, and every method that needs a backend names its classes.
func TestDefaultRegistry(t *testing.T) {
	reg := solve.Default()
	if got, want := reg.Names(), []string{"tas", "rs", "cora", "cora-final", "cora-linearized", "rds"}; !slices.Equal(got, want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	help := reg.HelpText()
	for _, f := range reg.Formulations() {
		if !strings.Contains(help, "  "+f.Name) {
			t.Errorf("help lacks %s", f.Name)
		}
		for _, m := range f.Methods {
			if !strings.Contains(help, "  "+m.Name) {
				t.Errorf("help lacks method %s of %s", m.Name, f.Name)
			}
		}
	}
	if got := reg.Lookup("rds").Methods[0].Classes; !slices.Equal(got, []solvers.Class{solvers.QP, solvers.LP}) {
		t.Errorf("rds's method needs %v", got)
	}
	if got, want := reg.VerifySuites(), []string{"tas", "rs", "cora"}; !slices.Equal(got, want) {
		t.Errorf("verify suites %v, want %v", got, want)
	}
	// Two registries are independent: adding to one leaves the other alone.
	other := solve.Default()
	if err := other.Add(solve.Formulation{Name: "x", Methods: []solve.Method{{Name: "m"}},
		Solve: func(context.Context, *solve.Request, solvers.Backend) (*solve.Result, error) { return nil, nil }}); err != nil {
		t.Fatal(err)
	}
	if reg.Lookup("x") != nil {
		t.Error("Default returned a shared registry")
	}
}

func TestAddRejects(t *testing.T) {
	ok := func(context.Context, *solve.Request, solvers.Backend) (*solve.Result, error) { return nil, nil }
	for name, f := range map[string]solve.Formulation{
		"duplicate":       {Name: "tas", Methods: []solve.Method{{Name: "m"}}, Solve: ok},
		"no name":         {Methods: []solve.Method{{Name: "m"}}, Solve: ok},
		"auto":            {Name: "auto", Methods: []solve.Method{{Name: "m"}}, Solve: ok},
		"no solve":        {Name: "y", Methods: []solve.Method{{Name: "m"}}},
		"no method":       {Name: "y", Solve: ok},
		"method auto":     {Name: "y", Methods: []solve.Method{{Name: "auto"}}, Solve: ok},
		"repeated method": {Name: "y", Methods: []solve.Method{{Name: "m"}, {Name: "m"}}, Solve: ok},
	} {
		if err := solve.Default().Add(f); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestSolveFormulations solves the quickstart with every instance formulation and
// checks what the result carries: tas and cora by onion peeling (no backend, the
// max-flow certifiable claim), cora-final on an LP backend with its point.
func TestSolveFormulations(t *testing.T) {
	in := load(t, "quickstart.json")
	ctx := context.Background()
	res, err := solve.Solve(ctx, solve.Request{Formulation: "tas", Instance: in})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "onion" || res.Backend != "" || !res.Exact || !res.LexmaxByFlow || len(res.Layers) == 0 || res.Instance != in {
		t.Errorf("tas: method %q backend %q exact %v layers %d", res.Method, res.Backend, res.Exact, len(res.Layers))
	}
	if solve.LowestLevel(res) != res.Schedule.Min {
		t.Errorf("lowest level %g, schedule minimum %g", solve.LowestLevel(res), res.Schedule.Min)
	}
	tasSorted := res.Schedule.Sorted

	res, err = solve.Solve(ctx, solve.Request{Formulation: "cora", Method: "auto", Instance: in})
	if err != nil || !res.ExactDemand || res.CORA == nil {
		t.Fatalf("cora: %v %+v", err, res)
	}

	res, err = solve.Solve(ctx, solve.Request{Formulation: "cora-final", Instance: in, Solver: "simplex"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Backend != "simplex" || len(res.Points) != 1 || res.Points[0].Problem == nil || res.Points[0].Solution == nil || res.CORA.Objective == nil {
		t.Errorf("cora-final: backend %q, points %d", res.Backend, len(res.Points))
	}
	// The MIP reference, where this binary has a MIP backend, gives onion's vector.
	if _, err := solvers.Select("", solvers.MIP); err == nil {
		res, err = solve.Solve(ctx, solve.Request{Formulation: "tas", Method: "mip", Instance: in})
		if err != nil {
			t.Fatal(err)
		}
		if sched.CompareSorted(res.Schedule.Sorted, tasSorted, 1e-9) != 0 || len(res.Points) != 1 || res.Backend == "" {
			t.Errorf("mip: %v against onion's %v", res.Schedule.Sorted, tasSorted)
		}
	}
}

// TestRequestErrors: requests that cannot run as asked are *RequestError; their
// messages name the request's fields as the library does (no command-line flag
// anywhere), and Describe writes the same messages with a caller's names for the
// fields (the command line's flags), also where another error wraps them. A missing
// MIP backend names what would do without naming a solver nobody passed.
func TestRequestErrors(t *testing.T) {
	in := load(t, "quickstart.json")
	theta := 0.9
	flag := func(f string) string { return "--" + f }
	for name, tc := range map[string]struct {
		req           solve.Request
		want, flagged string
	}{
		"unknown formulation": {solve.Request{Formulation: "nosuch", Instance: in},
			`formulation "nosuch": unknown (this binary solves: tas, rs`, `--formulation "nosuch": unknown (this binary solves: tas, rs`},
		"unknown method": {solve.Request{Formulation: "tas", Method: "magic", Instance: in},
			`method "magic": tas takes auto, onion, mip or alg3`, `--method "magic": tas takes auto, onion, mip or alg3`},
		"method of another": {solve.Request{Formulation: "cora", Method: "mip", Instance: in},
			`(method mip is a method of tas, rs)`, `(--method mip is a method of tas, rs)`},
		"option of another": {solve.Request{Formulation: "tas", Instance: in, Set: []string{"theta"}, RS: solve.RSOptions{Theta: &theta}},
			"theta applies to formulation rs", "--theta applies to --formulation rs"},
		"solver for onion": {solve.Request{Formulation: "tas", Instance: in, Solver: "simplex", SolverSet: true},
			"solver applies to method mip; onion needs no solver", "--solver applies to --method mip; onion needs no solver"},
		"LP solver for MIP": {solve.Request{Formulation: "tas", Method: "mip", Instance: in, Solver: "gonum"},
			`solver "gonum" cannot solve MIPs`, `--solver "gonum" cannot solve MIPs`},
		"unknown solver": {solve.Request{Formulation: "tas", Method: "mip", Instance: in, Solver: "nosuch"},
			`solver: unknown solver "nosuch"`, `--solver: unknown solver "nosuch"`},
		"negative time limit": {solve.Request{Formulation: "tas", Instance: in, TimeLimit: -1},
			"time-limit -1ns: must not be negative", "--time-limit -1ns: must not be negative"},
		"rs without robust": {solve.Request{Formulation: "rs", Instance: in},
			"RS needs theta and delta: add a \"robust\" block to the instance or pass theta and delta",
			"RS needs theta and delta: add a \"robust\" block to the instance or pass --theta and --delta"},
		"lexmax inside rs": {solve.Request{Formulation: "rs", Method: "mip", Instance: load(t, "instances/runtime-robust.json"), Lexmax: "nosuch"},
			`rs: tas: lexmax "nosuch": want ordered`, `rs: tas: --lexmax "nosuch": want ordered`},
		"no input": {solve.Request{Formulation: "rds"}, "needs an RDS state file", "needs an RDS state file"},
	} {
		_, err := solve.Solve(context.Background(), tc.req)
		var re *solve.RequestError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "--") {
			t.Errorf("%s: %v, want a RequestError with %q and no flag", name, err, tc.want)
			continue
		}
		if got := solve.Describe(err, flag); !strings.Contains(got, tc.flagged) {
			t.Errorf("%s: described %q, want %q", name, got, tc.flagged)
		}
	}
	for _, r := range []solve.Request{{Lexmax: "nosuch"}, {Saturation: "nosuch"}} {
		_, err := solve.LexmaxOptions(&r)
		var re *solve.RequestError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), `"nosuch"`) {
			t.Errorf("lexmax options %+v: %v", r, err)
		}
	}
	if _, err := solvers.Select("", solvers.MIP); err != nil {
		_, err := solve.Solve(context.Background(), solve.Request{Formulation: "tas", Method: "mip", Instance: in})
		if err == nil || strings.Contains(solve.Describe(err, flag), "--solver") || !strings.Contains(solve.Describe(err, flag), "--method onion") {
			t.Errorf("no MIP backend: %v", err)
		}
	}
}

// TestDescribeMethodError: a failed method names the method field, as the library
// does in Error and as the caller does through Describe.
func TestDescribeMethodError(t *testing.T) {
	err := fmt.Errorf("outer: %w", &solve.MethodError{Method: "mip", Err: errors.New("stopped")})
	if got, want := err.Error(), "outer: method mip: stopped"; got != want {
		t.Errorf("Error: %q, want %q", got, want)
	}
	if got, want := solve.Describe(err, func(f string) string { return "--" + f }), "outer: --method mip: stopped"; got != want {
		t.Errorf("Describe: %q, want %q", got, want)
	}
}

// TestSolveInfeasible: an instance without a schedule is ErrNoSchedule.
func TestSolveInfeasible(t *testing.T) {
	_, err := solve.Solve(context.Background(), solve.Request{Formulation: "tas", Instance: load(t, "tas/infeasible.json")})
	if !errors.Is(err, solve.ErrNoSchedule) {
		t.Errorf("infeasible: %v", err)
	}
}

// TestSolveRDS: an RDS step with the default QP backend keeps the eq. 3 point.
func TestSolveRDS(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "rds", "table1-t10.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := rds.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := solve.Solve(context.Background(), solve.Request{Formulation: "rds", State: f})
	if err != nil {
		t.Fatal(err)
	}
	if res.Step == nil || res.Backend != "qp" || res.Status != solvers.Optimal || len(res.Points) == 0 || res.Points[0].Name != "eq3" {
		t.Errorf("rds: backend %q status %v points %d", res.Backend, res.Status, len(res.Points))
	}
}

// TestRSSelfChecks: rs runs WCDE's cross-checks unless told to skip them, and skipping
// changes nothing else.
func TestRSSelfChecks(t *testing.T) {
	in := load(t, "instances/runtime-robust.json")
	full, err := solve.Solve(context.Background(), solve.Request{Formulation: "rs", Instance: in})
	if err != nil {
		t.Fatal(err)
	}
	bare, err := solve.Solve(context.Background(), solve.Request{Formulation: "rs", Instance: in, SkipSelfChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(full.Checked, "WCDE cross-checks") || full.Details.(solve.RSDetails).WCDEChecks.Run == 0 {
		t.Errorf("rs ran no cross-checks: %q", full.Checked)
	}
	if bare.Checked != "" || bare.Details.(solve.RSDetails).WCDEChecks.Run != 0 {
		t.Errorf("SkipSelfChecks ran them: %q", bare.Checked)
	}
	if sched.CompareSorted(full.Schedule.Sorted, bare.Schedule.Sorted, 0) != 0 || full.Instance.Jobs[0].Demand[0] != bare.Instance.Jobs[0].Demand[0] {
		t.Errorf("the schedules differ: %v and %v", full.Schedule.Sorted, bare.Schedule.Sorted)
	}
}

// TestRegistryModel: the registry builds the model of every formulation that has one
// (the model its solver method solves: same columns as the compiled certificate point
// of a solve), refuses the others and unknown names as request errors, and reports an
// instance the TAS MIP builder proves infeasible as ErrNoSchedule.
func TestRegistryModel(t *testing.T) {
	reg := solve.Default()
	in := load(t, "cora/spread.json")
	if got, want := reg.ModelNames(), []string{"tas", "cora-final", "cora-linearized"}; !slices.Equal(got, want) {
		t.Fatalf("ModelNames %v, want %v", got, want)
	}
	for _, name := range reg.ModelNames() {
		m, _, err := reg.Model(context.Background(), solve.Request{Formulation: name, Instance: in})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := solvers.Select("", solvers.MIP); name == "tas" && err != nil {
			continue
		}
		res, err := reg.Solve(context.Background(), solve.Request{Formulation: name, Method: "mip", Instance: in})
		if name != "tas" {
			res, err = reg.Solve(context.Background(), solve.Request{Formulation: name, Instance: in})
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if q := res.Points[0].Problem; q.NumCols() != p.NumCols() || q.NumRows() != p.NumRows() {
			t.Errorf("%s: model %d×%d, the solve's %d×%d", name, p.NumRows(), p.NumCols(), q.NumRows(), q.NumCols())
		}
	}
	for _, req := range []solve.Request{{Formulation: "rs", Instance: in}, {Formulation: "nosuch", Instance: in},
		{Formulation: "cora-final", Instance: in, Set: []string{"theta"}}} {
		_, _, err := reg.Model(context.Background(), req)
		var re *solve.RequestError
		if !errors.As(err, &re) {
			t.Errorf("%s: %v, want a RequestError", req.Formulation, err)
		}
	}
	alone := &sched.Instance{Name: "too big alone", Horizon: 2, Resources: []sched.Resource{{Name: "r", Capacity: []int{1, 1}}},
		Jobs: []sched.Job{{ID: "a", Demand: []int{3}, Utility: sched.Constant{Value: 1}}}}
	_, _, err := reg.Model(context.Background(), solve.Request{Formulation: "tas", Instance: alone})
	if !errors.Is(err, solve.ErrNoSchedule) {
		t.Errorf("infeasible: %v, want ErrNoSchedule", err)
	}
}

// TestLevelsOnly: onion peeling asked for the levels alone (tas and cora) returns the
// same layers and exactness as the full solve, without a schedule.
func TestLevelsOnly(t *testing.T) {
	for _, f := range []string{"tas/release.json", "tas/two-resources.json", "tas/stall.json", "instances/sigmoid.json", "instances/release-max-parallel.json"} {
		for _, form := range []string{"tas", "cora"} {
			in := load(t, f)
			full, err := solve.Solve(context.Background(), solve.Request{Formulation: form, Method: "onion", Instance: in})
			if err != nil {
				t.Fatalf("%s %s: %v", form, f, err)
			}
			lv, err := solve.Solve(context.Background(), solve.Request{Formulation: form, Method: "onion", Instance: in, LevelsOnly: true})
			if err != nil {
				t.Fatalf("%s %s, levels only: %v", form, f, err)
			}
			if full.Schedule == nil || lv.Schedule != nil {
				t.Errorf("%s %s: schedules %v and %v, want one and none", form, f, full.Schedule != nil, lv.Schedule != nil)
			}
			if lv.Exact != full.Exact || fmt.Sprint(lv.Layers) != fmt.Sprint(full.Layers) || len(lv.Layers) == 0 {
				t.Errorf("%s %s: levels only %v %v, full %v %v", form, f, lv.Exact, lv.Layers, full.Exact, full.Layers)
			}
		}
	}
}

// TestWorkspaceReused: one Workspace carried through solves of different instances
// (tas and cora, with and without the schedule) gives each the layers, exactness and
// schedule of a solve without it, and a result read before the next solve is intact.
func TestWorkspaceReused(t *testing.T) {
	var ws solve.Workspace
	for round := range 2 {
		for _, f := range []string{"tas/release.json", "tas/two-resources.json", "tas/stall.json", "instances/sigmoid.json", "instances/release-max-parallel.json"} {
			for _, form := range []string{"tas", "cora"} {
				for _, levelsOnly := range []bool{true, false} {
					in := load(t, f)
					req := solve.Request{Formulation: form, Method: "onion", Instance: in, LevelsOnly: levelsOnly}
					want, err := solve.Solve(context.Background(), req)
					if err != nil {
						t.Fatalf("%s %s: %v", form, f, err)
					}
					req.Workspace = &ws
					got, err := solve.Solve(context.Background(), req)
					if err != nil {
						t.Fatalf("%s %s with a workspace: %v", form, f, err)
					}
					if got.Exact != want.Exact || fmt.Sprint(got.Layers) != fmt.Sprint(want.Layers) || len(got.Layers) == 0 ||
						fmt.Sprint(got.Schedule) != fmt.Sprint(want.Schedule) {
						t.Errorf("round %d, %s %s (levels only %v): with a workspace %v %v, without %v %v",
							round, form, f, levelsOnly, got.Exact, got.Layers, want.Exact, want.Layers)
					}
				}
			}
		}
	}
}
