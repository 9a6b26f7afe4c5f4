package tas

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestWorkspaceSameResult: one Workspace reused over a sequence of random instances of
// varying size, shape and utility (each written over the arrays the one before left)
// gives every call the result a call without it gives — deadlines, levels, layers,
// exactness, stats and schedule — and a result read before the next call is intact.
func TestWorkspaceSameResult(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var ws, mws Workspace
		steps := rapid.IntRange(1, 6).Draw(t, "steps")
		for range steps {
			o := genOpts{maxJobs: 12, maxSlots: 10, maxCap: 4, maxDemand: 6, resources: 2,
				utility: rapid.SampledFrom([]string{"table", "real", "sigmoid", "mixed"}).Draw(t, "utility"),
				release: rapid.Bool().Draw(t, "release"), maxPar: rapid.Bool().Draw(t, "maxpar"),
				varyCap: rapid.Bool().Draw(t, "varycap"), feasible: true}
			in := genSpec(t, o).instance()
			noSched := rapid.Bool().Draw(t, "noschedule")
			want, werr := OnionPeel(context.Background(), in, Options{NoSchedule: noSched})
			got, gerr := OnionPeel(context.Background(), in, Options{NoSchedule: noSched, Workspace: &ws})
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("error %v without a workspace, %v with one", werr, gerr)
			}
			if werr != nil {
				continue
			}
			if !slices.Equal(got.Deadlines, want.Deadlines) || !slices.Equal(got.Levels, want.Levels) ||
				got.Exact != want.Exact || got.Stats != want.Stats {
				t.Fatalf("with a workspace: deadlines %v levels %v exact %v stats %+v; without: %v %v %v %+v",
					got.Deadlines, got.Levels, got.Exact, got.Stats, want.Deadlines, want.Levels, want.Exact, want.Stats)
			}
			if len(got.Layers) != len(want.Layers) {
				t.Fatalf("%d layers with a workspace, %d without", len(got.Layers), len(want.Layers))
			}
			for k := range got.Layers {
				if got.Layers[k].Level != want.Layers[k].Level || !slices.Equal(got.Layers[k].Jobs, want.Layers[k].Jobs) {
					t.Fatalf("layer %d: %+v with a workspace, %+v without", k, got.Layers[k], want.Layers[k])
				}
			}
			if (got.Schedule == nil) != (want.Schedule == nil) {
				t.Fatalf("schedule %v with a workspace, %v without", got.Schedule != nil, want.Schedule != nil)
			}
			if got.Schedule != nil {
				for j := range got.Schedule.Jobs {
					if got.Schedule.Jobs[j].Completion != want.Schedule.Jobs[j].Completion {
						t.Fatalf("job %d: completes in %d with a workspace, %d without", j,
							got.Schedule.Jobs[j].Completion, want.Schedule.Jobs[j].Completion)
					}
				}
				// The time-slot mapping of the schedule, in a workspace of its own
				// carried through the sequence too.
				rounding := Rounding(rapid.IntRange(0, 1).Draw(t, "rounding"))
				r := rapid.IntRange(0, len(in.Resources)-1).Draw(t, "resource")
				wm, werr := MapToQueues(in, want.Schedule, MappingOptions{Resource: r, Rounding: rounding})
				gm, gerr := MapToQueues(in, want.Schedule, MappingOptions{Resource: r, Rounding: rounding, Workspace: &mws})
				if (werr == nil) != (gerr == nil) {
					t.Fatalf("mapping: error %v without a workspace, %v with one", werr, gerr)
				}
				if werr == nil {
					sameMapping(t, gm, wm)
				}
			}
		}
	})
}

// sameMapping fails unless got and want hold the same queues and per-job figures.
func sameMapping(t *rapid.T, got, want *Mapping) {
	if len(got.Queues) != len(want.Queues) {
		t.Fatalf("mapping: %d queues with a workspace, %d without", len(got.Queues), len(want.Queues))
	}
	for k := range got.Queues {
		if !slices.Equal(got.Queues[k], want.Queues[k]) {
			t.Fatalf("mapping: queue %d is %v with a workspace, %v without", k, got.Queues[k], want.Queues[k])
		}
	}
	if !slices.Equal(got.Target, want.Target) || !slices.Equal(got.Tasks, want.Tasks) ||
		!slices.Equal(got.Volume, want.Volume) || !slices.Equal(got.Completion, want.Completion) ||
		!slices.Equal(got.Late, want.Late) || got.BoundHolds != want.BoundHolds {
		t.Fatalf("mapping: %+v with a workspace, %+v without", got, want)
	}
}
