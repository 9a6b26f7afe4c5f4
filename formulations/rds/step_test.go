package rds

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

// TestRunStepTable1: one control step at minute 10 of Table 1 with a perfect forecast.
// Both deadlines can just be met: J2 needs all of minutes 10–30 minus what J1 can
// spare, so the plan gives J2 60 units by minute 30 and J1 the rest; the KKT check
// passes.
func TestRunStepTable1(t *testing.T) {
	f, err := decodeFile(filepath.Join(stateData, "table1-t10.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunStep(context.Background(), f, qpSolver(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solvers.Optimal || !res.KKT.OK || !res.KKT.Checked {
		t.Fatalf("status %v, KKT %+v", res.Status, res.KKT)
	}
	j1, j2 := res.Jobs[0], res.Jobs[1]
	// Minutes 10–30: J2 must receive 60 units (gain 10 per unit of rate per interval).
	if got := j2.Plan[0].Total() + j2.Plan[1].Total(); math.Abs(got-6) > 1e-6 {
		t.Errorf("J2's plan for minutes 10–30 totals %g rate-intervals, want 6", got)
	}
	if got := j1.Plan[0].Total() + j1.Plan[1].Total() + j1.Plan[2].Total(); math.Abs(got-9) > 1e-6 {
		t.Errorf("J1's plan totals %g rate-intervals, want 9 (its remaining 90 units)", got)
	}
	if math.Abs(j2.Completion-30) > 1e-3 || math.Abs(j1.Completion-40) > 1e-3 {
		t.Errorf("predicted completions %g and %g, want 40 and 30", j1.Completion, j2.Completion)
	}
	if j1.Utility != 1 || j2.Utility != 1 {
		t.Errorf("utilities %g, %g; want 1 (δ = 1 at the deadline)", j1.Utility, j2.Utility)
	}
	if j1.Shortfall > 1e-5 || j2.Shortfall > 1e-5 {
		t.Errorf("shortfalls %g%%, %g%%", j1.Shortfall, j2.Shortfall)
	}
	if res.ForecastSource != "given" || res.Columns != 12 {
		t.Errorf("forecast source %q, %d columns", res.ForecastSource, res.Columns)
	}
}

// TestRunStepEveryStateFile: every state file of testdata/rds gives an optimal,
// KKT-checked step, with the built-in solver and (with build tag highs) HiGHS.
func TestRunStepEveryStateFile(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(stateData, "*.json"))
	for _, path := range files {
		f, err := decodeFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := RunStep(context.Background(), f, qpSolver(t))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if res.Status != solvers.Optimal || !res.KKT.OK {
			t.Errorf("%s: status %v, KKT %+v", path, res.Status, res.KKT)
		}
		// The solved models come back with the step, certifiable on their own.
		if res.Problem == nil || res.Solution == nil || res.Solution.Objective != res.Objective {
			t.Fatalf("%s: step without its eq. 3 model and solution", path)
		}
		certify(t, path+" eq. 3", res.Problem, res.Solution)
		if (res.ShortfallProblem != nil) != res.LeastShortfallLP || (res.Shortfall != nil) != res.LeastShortfallLP {
			t.Errorf("%s: least-shortfall LP solved %v, model %v", path, res.LeastShortfallLP, res.ShortfallProblem != nil)
		}
		if res.ShortfallProblem != nil {
			certify(t, path+" shortfall LP", res.ShortfallProblem, res.Shortfall)
		}
		total := 0.0
		for _, j := range res.Jobs {
			total += j.Alloc.Total()
		}
		if total > res.CapacityBound[0]*(1+1e-9) {
			t.Errorf("%s: allocates %g, capacity %g", path, total, res.CapacityBound[0])
		}
	}
}

// TestRunStepNothingToDo: finished and not yet arrived jobs only — an optimal all-zero
// step without a solve.
func TestRunStepNothingToDo(t *testing.T) {
	f := &StateFile{Params: DefaultParams(), Forecast: []float64{1, 1, 1}, State: State{Time: 5, Interval: 1, Jobs: []Job{
		{ID: "done", Work: 1, Progress: 1, Gain: Gain{Map: 1}, Soft: 9, Hard: 9, Priority: 1, MaxMap: math.Inf(1), MaxReduce: math.Inf(1)},
		{ID: "later", Arrival: 7, Work: 1, Gain: Gain{Map: 1}, Soft: 9, Hard: 9, Priority: 1, MaxMap: math.Inf(1), MaxReduce: math.Inf(1)},
	}}}
	res, err := RunStep(context.Background(), f, qpSolver(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solvers.Optimal || res.Objective != 0 || len(res.Jobs) != 2 || res.Jobs[1].Alloc.Total() != 0 || res.Problem != nil {
		t.Errorf("got %+v", res)
	}
}

func TestRunStepErrors(t *testing.T) {
	bad := &StateFile{Params: DefaultParams(), State: State{Interval: 0}}
	if _, err := RunStep(context.Background(), bad, qpSolver(t)); err == nil {
		t.Error("invalid state: no error")
	}
	noHistory := &StateFile{Params: DefaultParams(), State: State{Interval: 1, Jobs: []Job{
		{ID: "a", Work: 1, Gain: Gain{Map: 1}, Soft: 9, Hard: 9, Priority: 1, MaxMap: math.Inf(1), MaxReduce: math.Inf(1)}}}}
	if _, err := RunStep(context.Background(), noHistory, qpSolver(t)); err == nil {
		t.Error("no capacity history and no forecast: no error")
	}
}

// TestKKTCatchesWrongAnswers: the KKT check is not a rubber stamp — a perturbed
// optimum fails it.
func TestKKTCatchesWrongAnswers(t *testing.T) {
	st, forecast, p := benchState(10, 3, 3)
	res, err := SolveRHC(context.Background(), qpSolver(t), st, forecast, p, solvers.Options{})
	if err != nil || res.Status != solvers.Optimal {
		t.Fatalf("%v %v", err, res.Status)
	}
	if k := certificate.CheckKKT(res.Problem, res.Solution, 1e-7); !k.OK {
		t.Fatalf("optimum fails: %+v", k)
	}
	bad := *res.Solution
	bad.X = append([]float64(nil), res.Solution.X...)
	for j := range bad.X {
		if res.Problem.ColUpper[j] > res.Problem.ColLower[j] {
			bad.X[j] += 0.5 // off the optimum: stationarity or bounds break
			break
		}
	}
	if k := certificate.CheckKKT(res.Problem, &bad, 1e-7); k.OK {
		t.Errorf("a perturbed point passes: %+v", k)
	}
	bad.X = nil
	if k := certificate.CheckKKT(res.Problem, &bad, 1e-7); k.OK || !math.IsInf(k.Primal, 1) {
		t.Errorf("no point passes: %+v", k)
	}
}
