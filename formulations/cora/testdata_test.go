package cora

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// handSolved are the instances of testdata/cora with the answers derived by hand in
// testdata/cora/README.md.
var handSolved = []struct {
	file        string
	k           float64
	final       []float64 // FINAL's sorted completion-time utilities
	finalCost   float64   // FINAL's optimum, eq. (6)
	exact       []float64 // exact CORA's
	exactCost   float64   // eq. (6) at exact CORA's schedule
	finalAllocs [][][]int // FINAL's allocation [job][resource][slot]
}{
	{"agree.json", 6, []float64{1, 6}, 3 + math.Pow(6, -6) + math.Pow(6, -4) + math.Pow(6, -1),
		[]float64{1, 6}, 3 + math.Pow(6, -6) + math.Pow(6, -4) + math.Pow(6, -1),
		[][][]int{{{0, 1, 1}}, {{1, 0, 0}}}},
	{"agree-two-resources.json", 8, []float64{2, 3}, 4 + 2*math.Pow(8, -3) + 2*math.Pow(8, -2),
		[]float64{2, 3}, 4 + 2*math.Pow(8, -3) + 2*math.Pow(8, -2),
		[][][]int{{{1, 0}, {1, 0}}, {{0, 1}, {0, 1}}}},
	{"spread.json", 4, []float64{1, 1}, 2*math.Pow(4, -9) + 2*math.Pow(4, -1),
		[]float64{1, 9}, 2 + math.Pow(4, -9) + math.Pow(4, -1),
		[][][]int{{{1, 1}}, {{1, 1}}}},
	{"spread-two-resources.json", 8, []float64{1, 2}, 2 + math.Pow(8, -5) + math.Pow(8, -1) + math.Pow(8, -4) + math.Pow(8, -2) + math.Pow(8, -5) + math.Pow(8, -2),
		[]float64{2, 5}, 4 + 2*math.Pow(8, -5) + 2*math.Pow(8, -2),
		[][][]int{{{1, 1}, {1, 0}}, {{1, 1}, {0, 1}}}},
	{"intermediate-cells.json", 6, []float64{1, 3}, 3 + math.Pow(6, -3) + math.Pow(6, -4) + math.Pow(6, -1),
		[]float64{1, 5}, 3 + math.Pow(6, -5) + 2*math.Pow(6, -1),
		[][][]int{{{0, 1, 0}}, {{1, 0, 1}}}},
}

func readTestdata(t *testing.T, file string) *sched.Instance {
	t.Helper()
	in, err := sched.DecodeFile(filepath.Join("..", "..", "testdata", "cora", file))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestHandSolved(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "cora", "*.json"))
	if err != nil || len(files) != len(handSolved) {
		t.Fatalf("testdata/cora has %d instances (%v), the table %d", len(files), err, len(handSolved))
	}
	for _, c := range handSolved {
		t.Run(c.file, func(t *testing.T) {
			in := readTestdata(t, c.file)
			for _, build := range []func(*sched.Instance, Options) (*LP, error){BuildFinal, BuildLinearized} {
				lp, err := build(in, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if lp.K != c.k || len(lp.Warnings) > 0 {
					t.Fatalf("k = %v (want %v), warnings %v", lp.K, c.k, lp.Warnings)
				}
				res := solveOK(t, lp)
				s := res.Decoded.Schedule
				if math.Abs(res.Objective-c.finalCost) > 1e-12 {
					t.Errorf("%s optimum %.15g, want %.15g", lp.Formulation, res.Objective, c.finalCost)
				}
				if !slices.Equal(s.Sorted, c.final) {
					t.Errorf("%s sorted utilities %v, want %v", lp.Formulation, s.Sorted, c.final)
				}
				for i := range c.finalAllocs {
					if !slices.EqualFunc(s.Jobs[i].Alloc, c.finalAllocs[i], slices.Equal) {
						t.Errorf("%s allocation of %s: %v, want %v", lp.Formulation, s.Jobs[i].ID, s.Jobs[i].Alloc, c.finalAllocs[i])
					}
				}
				bf, ok := bruteForce(in, lp.Utilities, 10000)
				if !ok {
					t.Fatal("enumeration failed")
				}
				if !slices.Equal(bf.exactSorted, c.exact) {
					t.Errorf("enumeration: exact CORA %v, want %v", bf.exactSorted, c.exact)
				}
				exactFor(t, in, bf) // onion peeling agrees with the enumeration
				if got := lp.Cost(bf.exactAlloc); math.Abs(got-c.exactCost) > 1e-12 {
					t.Errorf("eq. (6) at exact CORA's schedule %.15g, want %.15g", got, c.exactCost)
				}
				cmp := lp.Compare(s, bf.exactAlloc)
				if cmp.Agree != slices.Equal(c.final, c.exact) {
					t.Errorf("Compare: agree %v, want %v (%s)", cmp.Agree, !cmp.Agree, cmp.Detail)
				}
				if !cmp.Agree && cmp.CellOrder <= 0 {
					t.Errorf("Compare: %+v, want FINAL's schedule preferred by R-CORA", cmp)
				}
				t.Logf("%s: %s", lp.Formulation, cmp.Detail)
			}
		})
	}
}

// TestTestdataREADME keeps the README next to the instances.
func TestTestdataREADME(t *testing.T) {
	if _, err := os.Stat(filepath.Join("..", "..", "testdata", "cora", "README.md")); err != nil {
		t.Fatal(err)
	}
}
