package workload

import (
	"container/heap"
	"math"
)

// StandaloneRuntime is job j's response time (seconds) when it runs alone on the whole
// cluster under runtime seed `seed`: the papers' "benchmarked running time" (cora.txt
// §III-C, rush.txt §V-B), measured rather than estimated, so stragglers count.
//
// It replays the simulator's rules (package sim) for one job with every slot free and
// each free slot taken: the job arrives at j.Arrival; its stages run in order (a slow
// start f opens the next stage once ⌈f·n⌉ of the previous stage's n tasks have
// finished, and a task started early holds its slot until that stage ends); at every
// instant at which a task ends, the free slots are filled pool by pool in cluster
// order, worker by worker in cluster order, with the lowest-numbered unstarted task of
// the current stage first; a task of base runtime r on a worker of speed v ends r/v
// later, r = TaskRuntime(JobStream(seed, j.ID), …). The capacity trace is ignored (the
// job has "all the resources available in the cluster", rush.txt) and so are j's
// `after` edges. The result equals sim.Run's completion − arrival for the job alone in
// a workload with the same cluster under FIFO and Options.Seed = seed, to the bit
// (pinned by a test in this package's external tests).
//
// c may come before or after Validate: a cluster of pools only is one speed-1 worker
// holding them. It returns +Inf when a stage's pool has no slot.
func StandaloneRuntime(c *Cluster, j *Job, seed uint64) float64 {
	np := len(c.Pools)
	workers := c.Workers
	if len(workers) == 0 {
		slots := map[string]int{}
		for _, p := range c.Pools {
			slots[p.Name] = p.Slots
		}
		workers = []Worker{{Count: 1, Slots: slots, Speed: 1}}
	}
	var speed []float64
	var free [][]int // [worker][pool] free slots
	for _, wk := range workers {
		for range max(1, wk.Count) {
			f := make([]int, np)
			for name, n := range wk.Slots {
				if p := c.PoolIndex(name); p >= 0 {
					f[p] = n
				}
			}
			free = append(free, f)
			speed = append(speed, cmpOr(wk.Speed, 1))
		}
	}
	ns := len(j.Stages)
	pool := make([]int, ns)
	threshold := make([]int, ns) // previous-stage tasks done before this stage may start
	for s, st := range j.Stages {
		pool[s] = c.PoolIndex(st.Pool)
		if pool[s] < 0 {
			return math.Inf(1)
		}
		if s > 0 {
			prev := float64(j.Stages[s-1].Tasks)
			threshold[s] = int(math.Ceil(st.SlowStart*prev - 1e-9))
			if st.SlowStart == 0 || st.SlowStart >= 1 {
				threshold[s] = int(prev)
			}
		}
	}
	stream := JobStream(seed, j.ID)
	started, done := make([]int, ns), make([]int, ns)
	stage := 0 // the first stage not yet done
	var running taskHeap
	var parked []standaloneTask // work done, waiting for the previous stage to end
	now := j.Arrival
	start := func(s, wk int) {
		rt := TaskRuntime(stream, &j.Stages[s], s, started[s])
		started[s]++
		free[wk][pool[s]]--
		heap.Push(&running, standaloneTask{finish: now + rt/speed[wk], stage: s, worker: wk, seq: running.seq})
		running.seq++
	}
	// next is the stage whose task a free slot of pool p gets, or -1: the current stage
	// first, then the next one when slow start has opened it (the engine's Runnable).
	next := func(p int) int {
		if stage < ns && pool[stage] == p && started[stage] < j.Stages[stage].Tasks {
			return stage
		}
		if s := stage + 1; s < ns && pool[s] == p && started[s] < j.Stages[s].Tasks && done[stage] >= threshold[s] {
			return s
		}
		return -1
	}
	release := func(t standaloneTask) {
		free[t.worker][pool[t.stage]]++
		done[t.stage]++
	}
	for {
		for p := range np {
			for wk := range free {
				for free[wk][p] > 0 {
					s := next(p)
					if s < 0 {
						break
					}
					start(s, wk)
				}
			}
		}
		if running.Len() == 0 {
			return math.Inf(1) // nothing runs and nothing can start: a pool without slots
		}
		now = running.tasks[0].finish
		for running.Len() > 0 && running.tasks[0].finish == now {
			t := heap.Pop(&running).(standaloneTask)
			if t.stage > stage {
				parked = append(parked, t)
				continue
			}
			release(t)
			// A stage that ends releases the next stage's tasks that finished early,
			// at this instant (they may in turn end that stage).
			for stage < ns && done[stage] == j.Stages[stage].Tasks {
				stage++
				kept := parked[:0]
				for _, w := range parked {
					if w.stage == stage {
						release(w)
					} else {
						kept = append(kept, w)
					}
				}
				parked = kept
			}
		}
		if stage == ns {
			return now - j.Arrival
		}
	}
}

func cmpOr(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

type standaloneTask struct {
	finish        float64
	stage, worker int
	seq           int
}

// taskHeap orders running tasks by finish time (then start order, which only keeps
// the order deterministic: tasks ending at one instant are applied together).
type taskHeap struct {
	tasks []standaloneTask
	seq   int
}

func (h *taskHeap) Len() int { return len(h.tasks) }
func (h *taskHeap) Less(a, b int) bool {
	x, y := h.tasks[a], h.tasks[b]
	if x.finish != y.finish {
		return x.finish < y.finish
	}
	return x.seq < y.seq
}
func (h *taskHeap) Swap(a, b int) { h.tasks[a], h.tasks[b] = h.tasks[b], h.tasks[a] }
func (h *taskHeap) Push(x any)    { h.tasks = append(h.tasks, x.(standaloneTask)) }
func (h *taskHeap) Pop() any {
	t := h.tasks[len(h.tasks)-1]
	h.tasks = h.tasks[:len(h.tasks)-1]
	return t
}
