package tas

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// FuzzOnionPeel feeds arbitrary instance files to OnionPeel: whatever sched accepts must
// be solved without a panic, the schedule must check out, an infeasibility must be real,
// and small instances must match the brute force. Seeds: testdata/tas and the quickstart.
func FuzzOnionPeel(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "tas", "*.json"))
	seeds = append(seeds, filepath.Join("..", "..", "testdata", "quickstart.json"))
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := sched.Parse(data)
		if err != nil || len(in.Jobs) > 12 || in.Horizon > 60 || len(in.Resources) > 3 {
			return
		}
		// Bounded by size (12 jobs, horizon 60) and MaxBranches, never by a clock.
		res, err := OnionPeel(context.Background(), in, Options{MaxBranches: 64})
		small := len(in.Jobs) <= 4 && in.Horizon <= 6
		switch {
		case errors.Is(err, ErrInfeasible):
			if small && bruteForce(in) != nil {
				t.Fatalf("OnionPeel says infeasible, brute force finds %v", bruteForce(in))
			}
			return
		case err != nil:
			t.Fatal(err)
		}
		checkSchedule(t, in, res.Schedule, res.Deadlines)
		if small && res.Exact {
			if want := bruteForce(in); !slices.Equal(sortedCopy(res.Levels), want) {
				t.Fatalf("OnionPeel %v, brute force %v", sortedCopy(res.Levels), want)
			}
		}
	})
}
