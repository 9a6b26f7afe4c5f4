package rtmr

import (
	"container/heap"
	"math"
)

// This file is a small event-driven stand-in for the simulator (package sim, written
// elsewhere): arrivals and task finishes in time order; after the events of an instant,
// every free slot is offered to the scheduler, workers in index order, map slots before
// reduce slots. True runtimes come from Workload.TaskRuntime.

type runningTask struct {
	end    float64
	seq    int
	job    int
	stage  Stage
	task   int
	worker int
	start  float64
}

type taskHeap []runningTask

func (h taskHeap) Len() int { return len(h) }
func (h taskHeap) Less(i, k int) bool {
	if h[i].end != h[k].end {
		return h[i].end < h[k].end
	}
	return h[i].seq < h[k].seq
}
func (h taskHeap) Swap(i, k int) { h[i], h[k] = h[k], h[i] }
func (h *taskHeap) Push(x any)   { *h = append(*h, x.(runningTask)) }
func (h *taskHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

type jobOutcome struct {
	accepted bool
	finished bool
	finish   float64
	slotTime float64 // map + reduce slot-seconds used
	met      bool
}

type simOutcome struct {
	jobs      []jobOutcome
	accepted  int
	succeeded int
	start     float64 // first arrival
	end       float64 // last finish of an accepted job
	slots     int
}

// AcceptRatio, SuccessRatio and Utilization are §V's metrics. Utilization counts the
// slot time of successful jobs (all jobs for FIFO, as §V does) over slots × the span from
// the first arrival to the last finish.
func (o simOutcome) AcceptRatio() float64 { return float64(o.accepted) / float64(len(o.jobs)) }
func (o simOutcome) SuccessRatio() float64 {
	if o.accepted == 0 {
		return 1
	}
	return float64(o.succeeded) / float64(o.accepted)
}
func (o simOutcome) Utilization(all bool) float64 {
	used := 0.0
	for _, j := range o.jobs {
		if j.accepted && (all || j.met) {
			used += j.slotTime
		}
	}
	span := o.end - o.start
	if span <= 0 {
		return 0
	}
	return used / (float64(o.slots) * span)
}

// deadlineTol absorbs rounding between the scheduler's sums and the driver's.
const deadlineTol = 1e-6

// fataler is what drive needs of *testing.T, *testing.B and *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func drive(t fataler, w *Workload, s Scheduler) simOutcome {
	t.Helper()
	nw := len(w.Cluster.Workers)
	freeMap := make([]int, nw)
	freeRed := make([]int, nw)
	for i, wk := range w.Cluster.Workers {
		freeMap[i], freeRed[i] = wk.MapSlots, wk.ReduceSlots
	}
	index := map[string]int{}
	for i, j := range w.Jobs {
		index[j.ID] = i
	}
	out := simOutcome{jobs: make([]jobOutcome, len(w.Jobs)), slots: w.Cluster.MapSlots() + w.Cluster.ReduceSlots()}
	if len(w.Jobs) > 0 {
		out.start = w.Jobs[0].Arrival
	}
	left := make([]int, len(w.Jobs)) // tasks not finished
	var h taskHeap
	seq := 0
	next := 0
	for next < len(w.Jobs) || h.Len() > 0 {
		now := math.Inf(1)
		if next < len(w.Jobs) {
			now = w.Jobs[next].Arrival
		}
		if h.Len() > 0 && h[0].end <= now {
			now = h[0].end
		}
		for h.Len() > 0 && h[0].end == now {
			rt := heap.Pop(&h).(runningTask)
			j := &w.Jobs[rt.job]
			in := 0.0
			if rt.stage == Map {
				freeMap[rt.worker]++
				in = j.MapSizes[rt.task]
			} else {
				freeRed[rt.worker]++
				in = w.ReduceInput(rt.job, rt.task)
			}
			out.jobs[rt.job].slotTime += now - rt.start
			if err := s.TaskFinished(now, TaskReport{Job: j.ID, Stage: rt.stage, Task: rt.task, Worker: rt.worker, Runtime: now - rt.start, Input: in}); err != nil {
				t.Fatal(err)
			}
			left[rt.job]--
			if left[rt.job] == 0 {
				o := &out.jobs[rt.job]
				o.finished, o.finish = true, now
				o.met = now <= j.AbsDeadline()+deadlineTol
				if o.met {
					out.succeeded++
				}
				out.end = max(out.end, now)
				if err := s.JobFinished(now, j.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		for next < len(w.Jobs) && w.Jobs[next].Arrival == now {
			j := w.Jobs[next]
			ok, err := s.Arrive(now, j.Job)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				out.jobs[next].accepted = true
				out.accepted++
				left[next] = j.M() + j.Reduces
			}
			next++
		}
		for _, pool := range []Stage{Map, Reduce} {
			free := freeMap
			if pool == Reduce {
				free = freeRed
			}
		offer:
			for wi := range nw {
				for free[wi] > 0 {
					a, ok := s.Assign(now, pool, wi)
					if !ok {
						break offer // the state did not change: no other slot gets a task
					}
					ji, known := index[a.Job]
					if !known || !out.jobs[ji].accepted {
						t.Fatalf("%s assigned a task of job %q, which is not admitted", s.Name(), a.Job)
					}
					speed := w.Cluster.Workers[wi].MapSpeed
					if pool == Reduce {
						speed = w.Cluster.Workers[wi].ReduceSpeed
					}
					free[wi]--
					d := w.TaskRuntime(ji, pool, a.Task, speed)
					heap.Push(&h, runningTask{end: now + d, seq: seq, job: ji, stage: pool, task: a.Task, worker: wi, start: now})
					seq++
				}
			}
		}
	}
	for i, o := range out.jobs {
		if o.accepted && !o.finished {
			t.Fatalf("%s: accepted job %s never finished", s.Name(), w.Jobs[i].ID)
		}
	}
	return out
}
