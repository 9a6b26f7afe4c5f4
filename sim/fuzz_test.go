package sim_test

import (
	"context"
	"os"
	"testing"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// FuzzRun decodes arbitrary workload files and runs every baseline on the small valid
// ones: the engine must not panic, and a run either fails with an error (jobs stuck
// behind a capacity of 0) or satisfies every invariant.
func FuzzRun(f *testing.F) {
	for _, name := range []string{"testdata/hadoop1.json", "testdata/containers.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint64(1))
	}
	f.Add([]byte(threeJobs), uint64(7))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		w, err := workload.Parse(data)
		if err != nil {
			return
		}
		tasks := 0
		for _, j := range w.Jobs {
			for _, st := range j.Stages {
				tasks += st.Tasks
				if st.Runtime != nil && (st.Runtime.MeanValue() > 1e6 || st.Runtime.Max > 1e6 || st.Runtime.Value > 1e6) {
					return
				}
			}
		}
		if len(w.Jobs) > 20 || tasks > 200 || len(w.Cluster.Capacity) > 50 {
			return
		}
		for _, name := range all.Names() {
			p, _ := all.New(name)
			r, err := sim.Run(context.Background(), w, p, sim.Options{Seed: seed, Record: true})
			if err != nil {
				continue
			}
			if err := sim.CheckInvariants(w, seed, r); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}
