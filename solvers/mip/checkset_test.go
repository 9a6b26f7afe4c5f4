package mip_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/mip"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// EnvCheckSet names the environment variable that turns on TestCheckSet, the 60-second
// runs over HiGHS's check-set MIPs: CORAOPT_MIP_CHECKSET=1 runs every model,
// CORAOPT_MIP_CHECKSET=lseu,p0548 the listed ones. CORAOPT_MIP_LIMIT overrides the time
// limit (a Go duration).
const EnvCheckSet = "CORAOPT_MIP_CHECKSET"

// checkRun is one solve of a check-set model.
type checkRun struct {
	model   string
	backend string
	status  solvers.Status
	obj     float64
	bound   float64
	nodes   int
	wall    time.Duration
	verdict string // "solved", "limit" (a shortfall) or "WRONG"
}

func checkModels(t *testing.T) []mip.CheckModel {
	sel := os.Getenv(EnvCheckSet)
	if sel == "" {
		t.Skipf("set %s=1 (or a comma-separated list of models) to run the 60-s check set", EnvCheckSet)
	}
	var out []mip.CheckModel
	for _, c := range mip.CheckSet() {
		if sel == "1" || sel == "all" || strings.Contains(","+sel+",", ","+c.Name+",") {
			out = append(out, c)
		}
	}
	return out
}

func checkLimit(t *testing.T) time.Duration {
	if v := os.Getenv("CORAOPT_MIP_LIMIT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("CORAOPT_MIP_LIMIT: %v", err)
		}
		return d
	}
	return 60 * time.Second
}

// solveCheck solves one model with s and judges the answer: the status must be optimal
// with the reference objective (1e-6 relative) and a feasible, integral point, or a
// limit with a point (if any) no better than the reference and a bound no worse.
func solveCheck(t *testing.T, s solvers.Solver, c mip.CheckModel, limit time.Duration) checkRun {
	t.Helper()
	dir, err := testmodels.Dir()
	if err != nil {
		t.Skip(err)
	}
	p, err := mps.ReadFile(filepath.Join(dir, c.File), mps.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sol, err := s.Solve(context.Background(), p, solvers.Options{TimeLimit: limit, MIPGap: 1e-7})
	if err != nil {
		t.Fatalf("%s on %s: %v", s.Name(), c.Name, err)
	}
	run := checkRun{model: c.Name, backend: s.Name(), status: sol.Status, obj: sol.Objective, bound: sol.BestBound, nodes: sol.Nodes, wall: sol.WallTime}
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Max(1, math.Abs(b)) }
	tol := solvertest.Tolerances{Feas: 1e-6, Int: 1e-6}.WithDefaults()
	sense := float64(p.Sense)
	switch {
	case sol.Status == solvers.Optimal:
		run.verdict = "solved"
		if rel(sol.Objective, c.Objective) > 1e-6 {
			run.verdict = "WRONG"
			t.Errorf("%s on %s: optimum %.10g, reference %.10g", s.Name(), c.Name, sol.Objective, c.Objective)
		}
	case sol.Status.IsLimit():
		run.verdict = "limit"
		if sol.X != nil && sense*(sol.Objective-c.Objective) < -1e-6*math.Max(1, math.Abs(c.Objective)) {
			run.verdict = "WRONG"
			t.Errorf("%s on %s: incumbent %.10g better than the optimum %.10g", s.Name(), c.Name, sol.Objective, c.Objective)
		}
	default:
		run.verdict = "WRONG"
		t.Errorf("%s on %s: status %v", s.Name(), c.Name, sol.Status)
	}
	if sol.X != nil {
		if err := solvertest.CheckPrimal(p, sol, tol); err != nil {
			run.verdict = "WRONG"
			t.Errorf("%s on %s: %v", s.Name(), c.Name, err)
		}
	}
	if !math.IsInf(sol.BestBound, 0) && sense*(sol.BestBound-c.Objective) > 1e-6*math.Max(1, math.Abs(c.Objective)) {
		run.verdict = "WRONG"
		t.Errorf("%s on %s: bound %.10g beyond the optimum %.10g", s.Name(), c.Name, sol.BestBound, c.Objective)
	}
	return run
}

// shiftedGeoMean is exp(mean(log(t + shift))) − shift over the times in seconds, with a
// time limit counted as the limit (the convention of Mittelmann's benchmarks).
func shiftedGeoMean(times []time.Duration, shift time.Duration) float64 {
	if len(times) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, d := range times {
		s += math.Log((d + shift).Seconds())
	}
	return math.Exp(s/float64(len(times))) - shift.Seconds()
}

func formatRuns(runs []checkRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-11s %-8s %-11s %8s %18s %18s %8s %s\n", "model", "backend", "status", "seconds", "objective", "bound", "nodes", "verdict")
	for _, r := range runs {
		fmt.Fprintf(&b, "%-11s %-8s %-11s %8.3f %18s %18s %8d %s\n", r.model, r.backend, r.status, r.wall.Seconds(),
			strconv.FormatFloat(r.obj, 'g', 12, 64), strconv.FormatFloat(r.bound, 'g', 12, 64), r.nodes, r.verdict)
	}
	return b.String()
}

// TestCheckSet solves HiGHS's check-set MIPs with the built-in MIP (60 s each unless
// CORAOPT_MIP_LIMIT says otherwise) and fails on any wrong answer; a time limit is
// reported, not failed. Runs only with CORAOPT_MIP_CHECKSET set (see EnvCheckSet).
func TestCheckSet(t *testing.T) {
	runCheckSet(t, []backend{{"mip", func() solvers.Solver { return mip.New() }}})
}

type backend struct {
	name string
	new  func() solvers.Solver
}

// runCheckSet solves every selected model with each backend in turn (so the times of a
// model are measured minutes apart at most), logs each run and the shifted geometric
// mean per backend (10 ms shift; a run not solved to the reference optimum counts as
// the limit) and the ratios of the first backend's to the others'.
func runCheckSet(t *testing.T, backends []backend) {
	models := checkModels(t)
	limit := checkLimit(t)
	var runs []checkRun
	times := map[string][]time.Duration{}
	solved := map[string]int{}
	for _, c := range models {
		for _, b := range backends {
			r := solveCheck(t, b.new(), c, limit)
			runs = append(runs, r)
			d := r.wall
			if r.verdict != "solved" {
				d = limit
			} else {
				solved[b.name]++
			}
			times[b.name] = append(times[b.name], d)
			t.Logf("%s", formatRuns(runs[len(runs)-1:]))
		}
	}
	summary := fmt.Sprintf("\n%s\nshifted geometric means (10 ms shift, unsolved counted as %v) over %d models:\n", formatRuns(runs), limit, len(models))
	g := map[string]float64{}
	for _, b := range backends {
		g[b.name] = shiftedGeoMean(times[b.name], 10*time.Millisecond)
		summary += fmt.Sprintf("  %-8s %8.4f s  (%d solved)\n", b.name, g[b.name], solved[b.name])
	}
	for _, b := range backends[1:] {
		summary += fmt.Sprintf("  %s/%s %.3f\n", backends[0].name, b.name, g[backends[0].name]/g[b.name])
	}
	t.Log(summary)
}

func closeRel(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }
