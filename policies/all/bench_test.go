package all_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/coraopt/coraopt/internal/cputime"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// benchView is a decision instant with n active jobs on one pool of 40 containers, each
// job of the generated families' shape (a map stage of 20–100 tasks of ~45 s and a
// reduce stage), part-way through its map stage with some tasks finished (what the
// estimators learn from) and one running. Step advances it by one task finish, the
// event that triggers most re-plans.
type benchView struct {
	now      float64
	jobs     []policies.JobInfo
	active   []int
	pending  [][2]int
	done     [][2]int
	finished [][]policies.TaskRecord
	running  [][]policies.TaskRecord
	pools    []workload.Pool
	rng      *rand.Rand
}

func newBenchView(n int) *benchView {
	v := &benchView{now: 3600, pools: []workload.Pool{{Name: "containers", Slots: 40}}, rng: rand.New(rand.NewPCG(1, 2))}
	for j := range n {
		maps := 20 + v.rng.IntN(81)
		info := policies.JobInfo{Index: j, ID: fmt.Sprintf("j%d", j), Arrival: v.rng.Float64() * 3600, Rank: j,
			Priority: 1 + 4*v.rng.Float64(),
			Stages: []policies.StageInfo{{Pool: 0, Tasks: maps, Runtime: &workload.Runtime{Type: "gaussian", Mean: 45, Std: 15}},
				{Pool: 0, Tasks: 10, Runtime: &workload.Runtime{Type: "gaussian", Mean: 60, Std: 20}}}}
		info.Deadline = info.Arrival + 600 + 3000*v.rng.Float64()
		info.Utility = sched.Sigmoid{Priority: info.Priority, Deadline: (info.Deadline - info.Arrival) / 60, Decay: 0.01 + 5*v.rng.Float64()}
		v.jobs = append(v.jobs, info)
		v.active = append(v.active, j)
		fin := v.rng.IntN(maps - 1)
		var recs []policies.TaskRecord
		for k := range fin {
			recs = append(recs, policies.TaskRecord{Stage: 0, Task: k, Start: 0, Finish: 30 + 30*v.rng.Float64()})
		}
		v.finished = append(v.finished, recs)
		v.running = append(v.running, []policies.TaskRecord{{Stage: 0, Task: fin, Start: v.now - 10}})
		v.done = append(v.done, [2]int{fin, 0})
		v.pending = append(v.pending, [2]int{maps - fin - 1, 10})
	}
	return v
}

// Step finishes one task of a random job that has pending map work.
func (v *benchView) Step() {
	v.now += 1
	j := v.rng.IntN(len(v.jobs))
	if v.pending[j][0] > 0 {
		v.pending[j][0]--
		v.done[j][0]++
		v.finished[j] = append(v.finished[j], policies.TaskRecord{Stage: 0, Task: len(v.finished[j]), Start: v.now - 45, Finish: v.now})
	}
}

func (v *benchView) Now() float64           { return v.now }
func (v *benchView) TimeUnit() float64      { return 60 }
func (v *benchView) Pools() []workload.Pool { return v.pools }
func (v *benchView) Capacity(int) int       { return 40 }
func (v *benchView) Busy(int) int           { return len(v.jobs) }
func (v *benchView) CapacityHistory(int) []policies.CapacityPoint {
	return []policies.CapacityPoint{{Slots: 40}}
}
func (v *benchView) Workers() []policies.Worker {
	return []policies.Worker{{Slots: []int{40}, Speed: 1}}
}
func (v *benchView) WorkerBusy(int, int) int              { return 0 }
func (v *benchView) NumJobs() int                         { return len(v.jobs) }
func (v *benchView) Job(j int) *policies.JobInfo          { return &v.jobs[j] }
func (v *benchView) Active() []int                        { return v.active }
func (v *benchView) Ready(int) bool                       { return true }
func (v *benchView) Stage(int) int                        { return 0 }
func (v *benchView) Pending(j, s int) int                 { return v.pending[j][s] }
func (v *benchView) Running(j, s int) int                 { return 1 - s }
func (v *benchView) Done(j, s int) int                    { return v.done[j][s] }
func (v *benchView) Runnable(j, pool int) bool            { return v.pending[j][0] > 0 }
func (v *benchView) Held(j, pool int) int                 { return 1 }
func (v *benchView) Finished(j int) []policies.TaskRecord { return v.finished[j] }
func (v *benchView) RunningTasks(j int) []policies.TaskRecord {
	return v.running[j]
}
func (v *benchView) Completion(int) (float64, bool) { return 0, false }
func (v *benchView) Rejected(int) bool              { return false }

// BenchmarkDecision times one decision instant (StartRound: estimate, solve, targets)
// of the online planners (and the paper variants, the reference of the same run) at
// 100 and 1,000 active jobs, one task finish apart, and
// reports the 99th percentile of the per-decision times (p99-µs) beside the mean, and
// the process's CPU time per decision (cpu-ns/op).
func BenchmarkDecision(b *testing.B) {
	for _, name := range []string{"rush", "rush-paper", "cora", "cora-paper", "rush-alg3", "oracle", "cora-final"} {
		for _, n := range []int{100, 1000} {
			if name == "cora-final" && n > 100 {
				continue // an LP of 4·n·T columns per decision: minutes at 1,000 jobs
			}
			b.Run(fmt.Sprintf("%s/jobs=%d", name, n), func(b *testing.B) {
				v := newBenchView(n)
				p, err := all.New(name)
				if err != nil {
					b.Fatal(err)
				}
				r := p.(policies.Rounder)
				r.StartRound(context.Background(), v) // warm the estimator caches as a run would be
				times := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				cpu0 := cputime.Process()
				for range b.N {
					v.Step()
					start := time.Now()
					r.StartRound(context.Background(), v)
					times = append(times, time.Since(start))
				}
				cpu := cputime.Process() - cpu0
				b.StopTimer()
				slices.Sort(times)
				b.ReportMetric(float64(times[min(len(times)-1, (99*len(times))/100)].Microseconds()), "p99-µs")
				if cpu > 0 {
					// The process's CPU time per decision (its garbage collector's too):
					// less inflated than wall time when other work shares the cores.
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				}
				if c := p.(counter); c.Fallbacks() > 0 {
					b.Fatalf("%d fallbacks", c.Fallbacks())
				}
			})
		}
	}
}
