package sched_test

import (
	"bytes"
	"testing"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sched/schedtest"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Decode(Encode(x)) == x on random valid instances of every shape the file can hold.
func TestEncodeDecodeRoundTrip(t *testing.T) {
	configs := map[string]schedtest.Config{
		"default": {},
		"everything": {MaxResources: 3, VaryingCapacity: true, Release: true, MaxParallel: true, TaskSlots: true,
			Runtime: true, Robust: true, ShortTables: true,
			Utilities: []string{"table", "sigmoid", "linear", "step", "constant", "piecewise", "rds"}},
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				in := schedtest.Instance(t, cfg)
				if err := in.Validate(); err != nil {
					t.Fatalf("generated instance is invalid:\n%v", err)
				}
				var buf bytes.Buffer
				if err := sched.Encode(&buf, in); err != nil {
					t.Fatal(err)
				}
				back, err := sched.Decode(&buf)
				if err != nil {
					t.Fatalf("decoding the encoded instance:\n%v\n%s", err, buf.Bytes())
				}
				if d := cmp.Diff(in, back); d != "" {
					t.Fatalf("round trip changed the instance (-want +got):\n%s\n%s", d, buf.Bytes())
				}
			})
		})
	}
}

// The witness schedule returned with a generated instance is feasible.
func TestFeasibleWitness(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, s := schedtest.Feasible(t, schedtest.Config{MaxResources: 2, VaryingCapacity: true, Release: true, MaxParallel: true})
		for r := range in.Resources {
			for slot := 1; slot <= in.Horizon; slot++ {
				used := 0
				for i := range s.Jobs {
					x := s.Jobs[i].Alloc[r][slot-1]
					used += x
					j := &in.Jobs[i]
					if x > 0 && slot < j.Release {
						t.Fatalf("job %s runs in slot %d before its release %d", j.ID, slot, j.Release)
					}
					if j.MaxParallel > 0 && x > j.MaxParallel {
						t.Fatalf("job %s holds %d > max_parallel %d", j.ID, x, j.MaxParallel)
					}
				}
				if used > in.Resources[r].Cap(slot) {
					t.Fatalf("resource %d slot %d: %d used > capacity %d", r, slot, used, in.Resources[r].Cap(slot))
				}
			}
		}
		for i := range s.Jobs {
			for r := range in.Resources {
				got := 0
				for _, x := range s.Jobs[i].Alloc[r] {
					got += x
				}
				if got != in.Jobs[i].Demand[r] {
					t.Fatalf("job %d resource %d: witness gives %d, demand %d", i, r, got, in.Jobs[i].Demand[r])
				}
			}
		}
	})
}
