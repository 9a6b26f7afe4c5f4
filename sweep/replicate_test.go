package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

func coraWorkload(t testing.TB, jobs int) *workload.Workload {
	t.Helper()
	w, err := workload.CORAWorkload(jobs, 3)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// withoutTiming drops the wall-clock figures, the only part of a run that differs
// between two runs of one seed.
func runsWithoutTiming(ms []*sim.Metrics) []*sim.Metrics {
	out := make([]*sim.Metrics, len(ms))
	for i, m := range ms {
		c := *m
		c.Timing = nil
		out[i] = &c
	}
	return out
}

// Replicate runs every policy under every seed, in the request's order, scores the runs
// against their seed's bound, and says why a bound is missing; each run is the one
// sim.Measure gives on its own, each bound sim.Bound's over the seed's slowest run.
func TestReplicate(t *testing.T) {
	w := coraWorkload(t, 10)
	specs := []PolicySpec{{Name: "fifo"}, {Name: "edf"}}
	for _, c := range []struct {
		name    string
		req     ReplicateRequest
		bound   bool  // want a bound on every seed
		wantErr error // the BoundErr type every seed has (nil: none)
	}{
		{name: "no bound", req: ReplicateRequest{Seed: 4, Replications: 3}},
		{name: "bound", req: ReplicateRequest{Seed: 4, Replications: 2, Bound: true, Slot: 60}, bound: true},
		{name: "refused", req: ReplicateRequest{Seed: 1, Replications: 2, Bound: true, Slot: 1e-6}, wantErr: &sim.SlotTooShortError{}},
		{name: "stopped", req: ReplicateRequest{Seed: 1, Replications: 1, Bound: true, Slot: 60, BoundTimeLimit: time.Nanosecond}, wantErr: &BoundStoppedError{}},
		{name: "one worker", req: ReplicateRequest{Seed: 9, Replications: 2, Bound: true, Slot: 30, Workers: 1}, bound: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := c.req
			req.Workload, req.Policies = w, specs
			res, err := Replicate(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Interrupted || len(res.Seeds) != req.Replications {
				t.Fatalf("interrupted %v, %d seeds, want %d finished", res.Interrupted, len(res.Seeds), req.Replications)
			}
			for r, sr := range res.Seeds {
				seed := req.Seed + uint64(r)
				if sr.Seed != seed || len(sr.Policies) != len(specs) {
					t.Fatalf("seeds[%d]: seed %d with %d runs, want seed %d with %d", r, sr.Seed, len(sr.Policies), seed, len(specs))
				}
				var want []*sim.Metrics
				until := 0.0
				for _, ps := range specs {
					pol, err := all.New(ps.Name)
					if err != nil {
						t.Fatal(err)
					}
					m, err := sim.Measure(context.Background(), w, pol, seed, false)
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, m)
					until = max(until, m.Makespan)
				}
				if c.bound {
					b, err := sim.Bound(context.Background(), w, seed, req.Slot, until)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(b, sr.Bound); diff != "" {
						t.Fatalf("seed %d: bound differs from sim.Bound's (-want +got):\n%s", seed, diff)
					}
					for _, m := range want {
						m.CompareToBound(b, 1e-12)
					}
				} else if sr.Bound != nil {
					t.Fatalf("seed %d: a bound %+v, want none", seed, sr.Bound)
				}
				if diff := cmp.Diff(runsWithoutTiming(want), runsWithoutTiming(sr.Policies)); diff != "" {
					t.Fatalf("seed %d: runs differ from sim.Measure's (-want +got):\n%s", seed, diff)
				}
				switch want := c.wantErr.(type) {
				case nil:
					if sr.BoundErr != nil {
						t.Fatalf("seed %d: bound error %v, want none", seed, sr.BoundErr)
					}
				case *sim.SlotTooShortError:
					if !errors.As(sr.BoundErr, &want) || !(want.Fits > req.Slot) {
						t.Fatalf("seed %d: bound error %v, want refused with a longer slot that fits", seed, sr.BoundErr)
					}
				case *BoundStoppedError:
					if !errors.As(sr.BoundErr, &want) || want.Limit != req.BoundTimeLimit || want.Settled > want.Jobs {
						t.Fatalf("seed %d: bound error %v, want stopped at %v", seed, sr.BoundErr, req.BoundTimeLimit)
					}
				}
			}
			if len(res.Summary) != len(specs) {
				t.Fatalf("%d summaries, want %d", len(res.Summary), len(specs))
			}
			for p, s := range res.Summary {
				var xs []float64
				for _, sr := range res.Seeds {
					xs = append(xs, sr.Policies[p].SumUtility)
				}
				if s.Name != specs[p].Name || s.Seeds != req.Replications || !cmp.Equal(s.SumUtility, NewStat(xs)) || (s.SumGap != nil) != c.bound {
					t.Fatalf("summary %d: %+v, want %s over %d seeds, sum utility %+v, a sum gap %v", p, s, specs[p].Name, req.Replications, NewStat(xs), c.bound)
				}
			}
		})
	}
}

// The result does not depend on the number of workers.
func TestReplicateWorkers(t *testing.T) {
	w := coraWorkload(t, 8)
	req := ReplicateRequest{Workload: w, Policies: []PolicySpec{{Name: "fifo"}, {Name: "fair"}, {Name: "edf"}}, Seed: 2, Replications: 3, Bound: true, Slot: 60}
	var got []*Replicated
	for _, n := range []int{1, 4} {
		req.Workers = n
		res, err := Replicate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.Seeds {
			res.Seeds[i].Policies = runsWithoutTiming(res.Seeds[i].Policies)
		}
		got = append(got, res)
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Fatalf("1 worker vs 4 (-1 +4):\n%s", diff)
	}
}

// A request Replicate cannot run is refused before anything runs; a policy that
// cannot model the workload is a *RunError naming it and the seed, with no result.
func TestReplicateRefuses(t *testing.T) {
	w := coraWorkload(t, 4)
	fifo := []PolicySpec{{Name: "fifo"}}
	for _, c := range []struct {
		name string
		req  ReplicateRequest
	}{
		{"no workload", ReplicateRequest{Policies: fifo, Replications: 1}},
		{"no policies", ReplicateRequest{Workload: w, Replications: 1}},
		{"no seeds", ReplicateRequest{Workload: w, Policies: fifo}},
		{"seeds past 2^64-1", ReplicateRequest{Workload: w, Policies: fifo, Seed: 1<<64 - 1, Replications: 2}},
		{"bound without a slot", ReplicateRequest{Workload: w, Policies: fifo, Replications: 1, Bound: true}},
		{"two policies of one name", ReplicateRequest{Workload: w, Policies: []PolicySpec{{Name: "rush", Params: all.Params{"delta": 0.3}}, {Name: "rush"}}, Replications: 1}},
	} {
		if res, err := Replicate(context.Background(), c.req); err == nil || res != nil {
			t.Errorf("%s: result %v, error %v; want an error", c.name, res, err)
		}
	}
	res, err := Replicate(context.Background(), ReplicateRequest{Workload: w, Policies: []PolicySpec{{Name: "fifo"}, {Name: "woha-hlf"}}, Seed: 7, Replications: 1})
	var re *RunError
	var unsupported *sim.UnsupportedError
	if res != nil || !errors.As(err, &re) || re.Policy != "woha-hlf" || re.Seed != 7 || !errors.As(err, &unsupported) {
		t.Fatalf("woha-hlf on a workload without workflows: result %v, error %v; want a *RunError of woha-hlf, seed 7, unsupported", res, err)
	}
}

// An interrupted grid returns what finished, marked, with no error: nothing when ctx
// ended before the first run; every run but no bound when it ended as the last run
// finished, before the bounds.
func TestReplicateInterrupted(t *testing.T) {
	w := coraWorkload(t, 10)
	specs := []PolicySpec{{Name: "fifo"}, {Name: "edf"}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Replicate(ctx, ReplicateRequest{Workload: w, Policies: specs, Seed: 1, Replications: 2})
	if err != nil || res == nil || !res.Interrupted || len(res.Seeds) != 0 || len(res.Summary) != 0 {
		t.Fatalf("cancelled before it began: %+v, %v; want nothing, interrupted", res, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	finished := 0
	req := ReplicateRequest{Workload: w, Policies: specs, Seed: 1, Replications: 2, Bound: true, Slot: 60,
		Progress: func() {
			if finished++; finished == 4 {
				cancel()
			}
		}}
	res, err = Replicate(ctx, req)
	if err != nil || res == nil || !res.Interrupted || len(res.Seeds) != 2 || finished != 4 {
		t.Fatalf("cancelled after the runs: %+v, %v, %d finished; want both seeds' runs, interrupted", res, err, finished)
	}
	for _, sr := range res.Seeds {
		if len(sr.Policies) != 2 || sr.Bound != nil || sr.BoundErr != nil || sr.Policies[0].VsBound != nil {
			t.Fatalf("seed %d: %d runs, bound %v, bound error %v; want 2 runs, no bound and no bound error", sr.Seed, len(sr.Policies), sr.Bound, sr.BoundErr)
		}
	}
}

// An external policy that breaks the protocol stops the grid: the runs that finished
// come back, marked interrupted, with a *RunError wrapping the *external.Error; its
// standard error reaches Stderr prefixed with its name.
func TestReplicateExternalFailure(t *testing.T) {
	dir := t.TempDir()
	script := "read hello\necho '{\"type\":\"ready\",\"protocol\":1}'\nread round\necho 'not json' >&2\necho garbage\nread next\n"
	if err := os.WriteFile(filepath.Join(dir, "bad.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder // Replicate serializes the writes (external.SyncWriter)
	req := ReplicateRequest{Workload: coraWorkload(t, 6), Policies: []PolicySpec{{Name: "fifo"}, {Name: "bad", Exec: "sh bad.sh"}},
		Dir: dir, Seed: 3, Replications: 1, Workers: 1, Stderr: &stderr}
	res, err := Replicate(context.Background(), req)
	var re *RunError
	var ext *external.Error
	if !errors.As(err, &re) || re.Policy != "bad" || re.Seed != 3 || !errors.As(err, &ext) {
		t.Fatalf("error %v; want a *RunError of bad, seed 3, wrapping an *external.Error", err)
	}
	if res == nil || !res.Interrupted || len(res.Seeds) != 1 || len(res.Seeds[0].Policies) != 1 || res.Seeds[0].Policies[0].Name != "fifo" {
		t.Fatalf("result %+v; want fifo's run, interrupted", res)
	}
	if got := stderr.String(); got != "[bad] not json\n" {
		t.Fatalf("stderr %q, want the program's line prefixed", got)
	}
}

// The summary's min gap leaves out the gaps to a lexmax vector that is not proven; the
// sum gap counts every seed.
func TestReplicateSummaryUnprovenGaps(t *testing.T) {
	a := &sim.Metrics{Name: "fifo", SumUtility: 1, VsBound: &sim.VsBound{MinGap: 0.2, SumGap: 2, LexmaxUnproven: true}}
	b := &sim.Metrics{Name: "fifo", SumUtility: 2, VsBound: &sim.VsBound{MinGap: 0.5, SumGap: 1}}
	sums := summarize([]PolicySpec{{Name: "fifo"}, {Name: "edf"}}, []SeedRuns{{Seed: 1, Policies: []*sim.Metrics{a}}, {Seed: 2, Policies: []*sim.Metrics{b}}})
	if len(sums) != 1 {
		t.Fatalf("%d summaries, want fifo's only (edf has no run)", len(sums))
	}
	s := sums[0]
	if s.Seeds != 2 || s.MinGap == nil || s.MinGap.Mean != 0.5 || s.SumGap == nil || s.SumGap.Mean != 1.5 {
		t.Fatalf("summary %+v: min gap %+v (want 0.5, from the proven seed only), sum gap %+v (want 1.5 over both)", s, s.MinGap, s.SumGap)
	}
}
