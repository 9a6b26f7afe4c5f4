package sweep_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/coraopt/coraopt/sweep"
	"github.com/coraopt/coraopt/workload"
)

// A grid of one generated workload, two policies and two seeds: its cells in the
// documented order, shard 1 of 2 run, and its records aggregated.
func Example() {
	dir, _ := os.MkdirTemp("", "sweep-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "grid.json")
	os.WriteFile(path, []byte(`{"workloads": [{"family": "cora", "jobs": 10}], "policies": ["fifo", "edf"], "seeds": [1, 2]}`), 0o644)
	s, err := sweep.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range s.NumCells() {
		c := s.Cell(i)
		fmt.Printf("cell %d: %s, %s, seed %d\n", i, s.Workloads[c.Workload].Label(), s.Policies[c.Policy].Label(), s.Seeds[c.SeedAt])
	}
	fmt.Println("shard 1/2:", s.ShardCells(1, 2))
	var recs []*sweep.Record
	s.Run(context.Background(), sweep.RunOptions{Workers: 2}, func(r *sweep.Record) error {
		recs = append(recs, r)
		return nil
	})
	m, _ := sweep.Aggregate(recs, false)
	for _, g := range m.Groups {
		fmt.Printf("%s: %d seeds, deadlines met %.1f\n", g.Policy, g.Seeds, g.DeadlinesMet.Mean)
	}
	// Output:
	// cell 0: cora:jobs=10:seed=1, fifo, seed 1
	// cell 1: cora:jobs=10:seed=1, fifo, seed 2
	// cell 2: cora:jobs=10:seed=1, edf, seed 1
	// cell 3: cora:jobs=10:seed=1, edf, seed 2
	// shard 1/2: [1 3]
	// fifo: 2 seeds, deadlines met 10.0
	// edf: 2 seeds, deadlines met 10.0
}

// Two policies under three seeds of one generated workload, each seed's runs scored
// against its offline bound in 60 s slots, and each policy summarized over the seeds:
// what `coraopt simulate --policies fifo,edf --replications 3 --bound` computes.
func ExampleReplicate() {
	w, err := workload.CORAWorkload(10, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sweep.Replicate(context.Background(), sweep.ReplicateRequest{
		Workload: w, Policies: []sweep.PolicySpec{{Name: "fifo"}, {Name: "edf"}},
		Seed: 1, Replications: 3, Bound: true, Slot: 60,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sr := range res.Seeds {
		for _, m := range sr.Policies {
			fmt.Printf("seed %d %s: min utility %.3f (bound %.3f), sum utility %.3f\n", sr.Seed, m.Name, m.MinUtility, sr.Bound.MinUtility, m.SumUtility)
		}
	}
	for _, s := range res.Summary {
		fmt.Printf("%s over %d seeds: sum utility %.3f ± %.3f\n", s.Name, s.Seeds, s.SumUtility.Mean, s.SumUtility.Std)
	}
	// Output:
	// seed 1 fifo: min utility 0.850 (bound 0.850), sum utility 23.419
	// seed 1 edf: min utility 0.850 (bound 0.850), sum utility 24.563
	// seed 2 fifo: min utility 0.850 (bound 0.850), sum utility 23.753
	// seed 2 edf: min utility 0.850 (bound 0.850), sum utility 24.883
	// seed 3 fifo: min utility 0.850 (bound 0.850), sum utility 23.475
	// seed 3 edf: min utility 0.850 (bound 0.850), sum utility 24.587
	// fifo over 3 seeds: sum utility 23.549 ± 0.179
	// edf over 3 seeds: sum utility 24.677 ± 0.178
}
