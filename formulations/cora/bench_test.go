package cora

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// paperInstance draws an instance shaped like cora.txt §III-C: n jobs on one resource of
// capacity c over T slots, sigmoid utilities (eq. 11) with priority p ~ U[1, 5] and decay
// μ from the three classes (20% CT-critical μ ~ U[4, 6], 60% CT-sensitive μ ~ U[0.01, 1],
// 20% CT-insensitive μ = 0), deadlines d ~ U[1, T] and demands drawn so that the total
// fits c·T. The same seed gives the same instance.
func paperInstance(t testing.TB, seed uint64, n, T, c int) *sched.Instance {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x636f7261))
	capacity := make([]int, T)
	for s := range capacity {
		capacity[s] = c
	}
	in := &sched.Instance{Name: fmt.Sprintf("paper-%d-%d-%d-%d", n, T, c, seed), Horizon: T, HorizonSource: "file",
		Resources: []sched.Resource{{Name: "containers", Capacity: capacity}}}
	room := c * T
	maxDemand := max(1, 2*room/n-1) // mean about room/n
	total := 0
	for i := range n {
		var decay float64
		switch x := rng.Float64(); {
		case x < 0.2:
			decay = 4 + 2*rng.Float64()
		case x < 0.8:
			decay = 0.01 + 0.99*rng.Float64()
		}
		d := 1 + rng.IntN(maxDemand)
		d = min(d, room-total-(n-1-i)) // leave at least 1 unit for every later job
		total += d
		in.Jobs = append(in.Jobs, sched.Job{
			ID: fmt.Sprintf("j%d", i+1), Demand: []int{d}, Release: 1, TaskSlots: 1,
			Utility: sched.Sigmoid{Priority: 1 + 4*rng.Float64(), Deadline: float64(1 + rng.IntN(T)), Decay: decay},
		})
	}
	if err := in.Validate(); err != nil {
		t.Fatalf("paperInstance: %v", err)
	}
	return in
}

// BenchmarkBuildFinal builds and compiles FINAL for the paper's size, 100 jobs × 40
// slots × 1 resource (16,000 columns); BuildOnly stops before Compile. Target ≤ 50 ms.
func BenchmarkBuildFinal(b *testing.B) {
	in := paperInstance(b, 1, 100, 40, 40)
	b.Run("BuildOnly", func(b *testing.B) {
		for b.Loop() {
			if _, err := BuildFinal(in, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("BuildAndCompile", func(b *testing.B) {
		for b.Loop() {
			lp, err := BuildFinal(in, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := lp.Model.Compile(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
