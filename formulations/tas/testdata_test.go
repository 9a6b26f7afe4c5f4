package tas

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// The hand-solved instances of testdata/tas (README.md there derives each answer).
func TestHandSolvedInstances(t *testing.T) {
	cases := []struct {
		file       string
		sorted     []float64
		completion map[string]int // where the optimum fixes it
		inexact    bool           // with --budget 0 the keep rule decides (stall.json)
	}{
		{"lawler.json", []float64{4, 6, 8}, map[string]int{"a": 4, "b": 2, "c": 1}, false},
		{"stall.json", []float64{2, 9}, map[string]int{"big": 1, "small": 2}, true},
		{"release.json", []float64{4, 6}, map[string]int{"late": 3, "early": 1}, false},
		{"max-parallel.json", []float64{5, 5}, map[string]int{"wide": 3, "narrow": 3}, false},
		{"two-resources.json", []float64{6, 9}, map[string]int{"x": 1, "y": 2}, false},
		{"varying-capacity.json", []float64{2, 4}, map[string]int{"p": 2, "q": 4}, false},
		{"zero-utility.json", []float64{0, 3, 5}, map[string]int{"eager": 1}, false},
		{"infeasible.json", nil, nil, false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			in, err := sched.DecodeFile(filepath.Join("..", "..", "testdata", "tas", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := bruteForce(in); !slices.Equal(got, c.sorted) {
				t.Fatalf("brute force %v, README says %v", got, c.sorted)
			}
			res, err := OnionPeel(context.Background(), in, Options{})
			if c.sorted == nil {
				if !errors.Is(err, ErrInfeasible) {
					t.Fatalf("err = %v, want ErrInfeasible", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Schedule.Sorted, c.sorted) || !res.Exact {
				t.Fatalf("OnionPeel %v (exact %v), want %v", res.Schedule.Sorted, res.Exact, c.sorted)
			}
			for id, want := range c.completion {
				if got := res.Schedule.Jobs[in.JobIndex(id)].Completion; got != want {
					t.Errorf("%s completes in %d, want %d", id, got, want)
				}
			}
			checkSchedule(t, in, res.Schedule, res.Deadlines)
			nb, err := OnionPeel(context.Background(), in, Options{MaxBranches: -1})
			if err != nil {
				t.Fatal(err)
			}
			if nb.Exact == c.inexact {
				t.Errorf("without branching: exact %v (stats %+v)", nb.Exact, nb.Stats)
			}
			if c.file == "stall.json" && !slices.Equal(nb.Schedule.Sorted, []float64{2, 8}) {
				t.Errorf("the keep rule gives %v, README says (2, 8)", nb.Schedule.Sorted)
			}
		})
	}
}
