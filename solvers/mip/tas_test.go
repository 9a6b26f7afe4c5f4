package mip_test

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers/mip"
)

// TestLexmaxTASMatchesOnionPeel: on every instance of testdata/tas and testdata/instances
// the lexmax TAS MIP (tas.BuildMIP solved by lexmax with this backend, no cgo involved)
// gives the sorted utilities of onion peeling, and is infeasible exactly when onion
// peeling says so. Every lexmax method runs: ordered outcomes, water-filling with the
// probe and the MILP saturation tests, and exponential weights where its weights fit.
func TestLexmaxTASMatchesOnionPeel(t *testing.T) {
	var files []string
	for _, dir := range []string{"tas", "instances"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 15 {
		t.Fatalf("found only %d instances", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			in, err := sched.DecodeFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			peel, perr := tas.OnionPeel(ctx, in, tas.Options{})
			m, err := tas.BuildMIP(in)
			if errors.Is(err, tas.ErrInfeasible) {
				if !errors.Is(perr, tas.ErrInfeasible) {
					t.Fatalf("BuildMIP: %v, but OnionPeel: %v", err, perr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, opt := range lexmaxConfigs {
				checkLexmax(t, m, peel, perr, opt)
			}
		})
	}
}

var lexmaxConfigs = []lexmax.Options{
	{Method: lexmax.Ordered},
	{Method: lexmax.WaterFill, Saturation: lexmax.Probe},
	{Method: lexmax.WaterFill, Saturation: lexmax.MILP},
	{Method: lexmax.ExpWeights},
}

func checkLexmax(t *testing.T, m *tas.MIP, peel *tas.Result, perr error, opt lexmax.Options) {
	t.Helper()
	ctx := context.Background()
	res, err := lexmax.Solve(ctx, lexmax.Problem{Model: m.Model, Outcomes: m.Outcomes}, mip.New(), opt)
	var wr *lexmax.WeightRangeError
	if opt.Method == lexmax.ExpWeights && errors.As(err, &wr) {
		return
	}
	if errors.Is(err, lexmax.ErrInfeasible) {
		if !errors.Is(perr, tas.ErrInfeasible) {
			t.Fatalf("lexmax: %v, but OnionPeel: %v", err, perr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if perr != nil {
		t.Fatalf("OnionPeel: %v, but the MIP found %v", perr, res.Sorted)
	}
	if !peel.Exact {
		t.Fatalf("OnionPeel is not exact on this instance; the comparison needs an exact reference")
	}
	s, err := m.Decode(res.Solution.X)
	if err != nil {
		t.Fatal(err)
	}
	want := peel.Schedule.Sorted
	if len(s.Sorted) != len(want) || len(res.Sorted) != len(want) {
		t.Fatalf("%v/%v: MIP %v (decoded %v), OnionPeel %v", opt.Method, opt.Saturation, res.Sorted, s.Sorted, want)
	}
	for k := range want {
		tol := 1e-6 * math.Max(1, math.Abs(want[k]))
		if math.Abs(res.Sorted[k]-want[k]) > tol || math.Abs(s.Sorted[k]-want[k]) > tol {
			t.Fatalf("%v/%v: MIP %v (decoded %v), OnionPeel %v", opt.Method, opt.Saturation, res.Sorted, s.Sorted, want)
		}
	}
	if res.Integrality > 1e-6 {
		t.Errorf("%v: integrality violation %g", opt.Method, res.Integrality)
	}
}
