package woha

import (
	"fmt"
	"github.com/coraopt/coraopt/workload/hadoop1"
	"math/rand/v2"
	"testing"

	"github.com/coraopt/coraopt/internal/cputime"
)

// BenchmarkAssignTask measures Algorithm 2's AssignTask (woha.txt Fig. 13 a) with n
// workflows queued, each with one ready job that never runs out of map tasks. Each
// workflow's requirement changes every 5-15 s of simulated time (Fig. 3: l > 10 s for
// 99% of intervals) by as many tasks as keeps plans and assignments in balance, so lags
// stay mixed instead of drifting to one side. gap is the simulated time between calls,
// which sets how many requirement changes one call must absorb, n·gap/10 s (§IV-B's
// complexity analysis):
//
//   - gap=1us: calls arrive as fast as Fig. 13 a issues them, a million per second of
//     clock; at 10,000 workflows one call in a thousand meets a change.
//   - gap=1ms: one slot frees per millisecond (§IV-B: "every few milliseconds"); at
//     10,000 workflows every call meets one change on average, the harsher case.
//
// calls/s is per wall-clock second, calls/cpu-s per second of this process's CPU time
// (the machine is shared; CPU time varies less).
func BenchmarkAssignTask(b *testing.B) {
	for _, gap := range []struct {
		name string
		dt   float64
	}{{"1us", 1e-6}, {"1ms", 1e-3}} {
		for _, n := range []int{10, 100, 1000, 10000} {
			for _, o := range []Order{OrderNaive, OrderHeap, OrderDSL, OrderRandomDSL} {
				b.Run(fmt.Sprintf("gap=%s/workflows=%d/order=%s", gap.name, n, o), func(b *testing.B) {
					benchAssignTask(b, n, o, gap.dt)
				})
			}
		}
	}
}

func benchAssignTask(b *testing.B, n int, o Order, dt float64) {
	const interval = 10.0 // mean seconds between requirement changes
	s, err := NewScheduler(SchedulerConfig{Rule: HLF, Slots: 100, Order: o, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	horizon := float64(b.N)*dt + 1
	req := max(1, int(interval/dt/float64(n)+0.5))
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	w := &Workflow{ID: "bench", Deadline: horizon + 1, Jobs: []Job{{ID: "j", Maps: 1 << 40, MapTime: 1}}}
	rank := []int{0}
	for i := 0; i < n; i++ {
		var at []float64
		for x := rng.Float64() * interval; x < horizon; x += interval/2 + rng.Float64()*interval {
			at = append(at, x)
		}
		p := Plan{Cap: 1, Makespan: w.Deadline, Steps: make([]Step, len(at))}
		for k, x := range at {
			p.Steps[k] = Step{TTD: w.Deadline - x, Req: req}
		}
		h, err := s.SubmitPlanned(0, w, rank, p, true)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.JobReady(0, Choice{h, 0}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		if _, ok := s.AssignTask(float64(i)*dt, MapPool); !ok {
			b.Fatal("nothing to assign")
		}
	}
	cpu := cputime.Process() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "calls/cpu-s")
	}
}

// BenchmarkSearchCap is the client-side cost of planning (§IV-A): the binary search over
// caps, each step a GenerateReqs run, for generated workflows with more than 1,400 tasks
// on the paper's 96-slot cluster.
func BenchmarkSearchCap(b *testing.B) {
	cfg := hadoop1.DefaultWOHAConfig()
	cfg.Workflows = 100
	all, err := hadoop1.GenerateWOHA(3, cfg)
	if err != nil {
		b.Fatal(err)
	}
	var ws []Workflow
	var ranks [][]int
	for i := range all {
		if all[i].Tasks() > 1400 {
			ws = append(ws, all[i])
			ranks = append(ranks, Ranks(&all[i], HLF))
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(ws)
		if _, _, err := SearchCap(&ws[k], ranks[k], cfg.Slots); err != nil {
			b.Fatal(err)
		}
	}
}
