package sweep_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/coraopt/coraopt/sweep"
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
