package tas

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coraopt/coraopt/internal/cputime"
	"github.com/coraopt/coraopt/sched"
)

// sigmoidInstance draws n jobs over T slots on one resource loaded to 90%: demands
// uniform in 1..2m−1, sigmoid utilities with priority in [1, 5), deadline uniform in
// [1, T] and decay in [0.05, 0.5) (so U stays positive over the horizon and values do not
// tie), capacity constant and just large enough for 90% load.
func sigmoidInstance(n, T int, seed uint64) *sched.Instance {
	rng := rand.New(rand.NewPCG(seed, 17))
	const m = 20
	in := &sched.Instance{Name: fmt.Sprintf("sigmoid-%d-%d", n, T), Horizon: T, HorizonSource: "file"}
	total := 0
	for j := range n {
		d := 1 + rng.IntN(2*m-1)
		total += d
		in.Jobs = append(in.Jobs, sched.Job{
			ID: fmt.Sprintf("j%d", j), Demand: []int{d}, Release: 1, TaskSlots: 1,
			Utility: sched.Sigmoid{
				Priority: 1 + 4*rng.Float64(),
				Deadline: 1 + float64(T-1)*rng.Float64(),
				Decay:    0.05 + 0.45*rng.Float64(),
			},
		})
	}
	c := (total*10 + 9*T - 1) / (9 * T)
	capa := make([]int, T)
	for t := range capa {
		capa[t] = c
	}
	in.Resources = []sched.Resource{{Name: "containers", Capacity: capa}}
	return in
}

// BenchmarkOnionPeel times OnionPeel on sigmoid instances loaded to 90%. Besides ns/op
// (wall time, inflated when other processes share the cores) it reports cpu-ns/op (this
// process's CPU time per run, GC included), the layers (distinct levels) and the time per
// layer, and the sweep's work: boundaries that had to decide and utility evaluations.
func BenchmarkOnionPeel(b *testing.B) {
	cases := []struct {
		n, T       int
		noSchedule bool
	}{
		{1000, 1000, false},
		{1000, 1000, true},
		{10000, 1000, true},
		// 10^5 jobs × 10^3 slots: the dense allocation would be 10^8 ints, so only the
		// peeling (deadlines, levels, layers) is timed.
		{100000, 1000, true},
	}
	for _, c := range cases {
		name := fmt.Sprintf("N=%d,T=%d", c.n, c.T)
		switch {
		case c.n == 100000:
			name = fmt.Sprintf("N=%d", c.n)
		case c.noSchedule:
			name += ",peel-only"
		}
		b.Run(name, func(b *testing.B) {
			in := sigmoidInstance(c.n, c.T, 1)
			var res *Result
			cpu0 := cputime.Process()
			for b.Loop() {
				var err error
				res, err = OnionPeel(context.Background(), in, Options{NoSchedule: c.noSchedule})
				if err != nil {
					b.Fatal(err)
				}
			}
			cpu := cputime.Process() - cpu0
			if res.Stats.Engine != "sweep" {
				b.Fatalf("engine %s (%s)", res.Stats.Engine, res.Stats.HandOver)
			}
			layers := float64(len(res.Layers))
			if cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/layers, "cpu-ns/layer")
			}
			b.ReportMetric(layers, "layers")
			b.ReportMetric(float64(res.Stats.BlockingSlots), "deciding-slots")
			b.ReportMetric(float64(res.Stats.Evaluations), "evals")
		})
	}
}

// BenchmarkLayeredEngine times the general engine on the same instances: rush.txt
// Alg. 3's structure, one bisection per layer (made exact), as the reference the sweep is
// measured against in the same run.
func BenchmarkLayeredEngine(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("N=%d,T=1000", n), func(b *testing.B) {
			in := sigmoidInstance(n, 1000, 1)
			p, err := newProblem(in)
			if err != nil {
				b.Fatal(err)
			}
			var st Stats
			var out *outcome
			cpu0 := cputime.Process()
			for b.Loop() {
				st = Stats{}
				if out, err = runLayered(context.Background(), p, DefaultMaxBranches, false, &st); err != nil {
					b.Fatal(err)
				}
			}
			cpu := cputime.Process() - cpu0
			layers := float64(len(groupLayers(out.level)))
			if cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/layers, "cpu-ns/layer")
			}
			b.ReportMetric(layers, "layers")
			b.ReportMetric(float64(st.Probes), "probes")
		})
	}
}

// BenchmarkMapToQueues times Alg. 4's mapping of onion peeling's schedule with task
// lengths R_i in 1..3, with the queue index (index) and with the scan over every queue
// per job that it replaced (scan), on the same instance: the ratio shows what the index
// buys as the number of containers grows with the jobs.
func BenchmarkMapToQueues(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		in := sigmoidInstance(n, 100, 1)
		for j := range in.Jobs {
			in.Jobs[j].TaskSlots = 1 + j%3
		}
		res, err := OnionPeel(context.Background(), in, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, scan := range []bool{false, true} {
			name := fmt.Sprintf("N=%d,T=100,containers=%d/index", n, in.Resources[0].Capacity[0])
			if scan {
				name = name[:len(name)-len("index")] + "scan"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if _, err := mapToQueues(in, res.Schedule, MappingOptions{Rounding: ExactVolume}, scan); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
