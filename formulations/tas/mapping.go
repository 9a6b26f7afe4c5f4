package tas

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/coraopt/coraopt/sched"
)

// Rounding says how a job's demand η_i (container-slots) becomes tasks of R_i slots.
type Rounding int

const (
	// RoundUpTasks makes ⌈η_i/R_i⌉ tasks of R_i slots each: the job may get up to R_i − 1
	// container-slots more than it asked for. This is the reading of Alg. 4 in which every
	// task holds a container for R_i slots.
	RoundUpTasks Rounding = iota
	// ExactVolume makes ⌊η_i/R_i⌋ tasks of R_i slots and, when R_i does not divide η_i, one
	// shorter task of η_i mod R_i slots, so the job gets exactly η_i.
	ExactVolume
)

func (r Rounding) String() string {
	switch r {
	case RoundUpTasks:
		return "round-up-tasks"
	case ExactVolume:
		return "exact-volume"
	}
	return fmt.Sprintf("Rounding(%d)", int(r))
}

// MappingOptions control MapToQueues.
type MappingOptions struct {
	Resource int // index of the container resource in Instance.Resources
	Rounding Rounding
	// Workspace, when set, holds the mapping's arrays and keeps them for the next call;
	// the Mapping returned then lives in it, valid until that call (see Workspace).
	Workspace *Workspace
}

// Task is one task's occupation of a container in continuous time: it holds the
// container from time Start to End, i.e. in slots Start+1..End.
type Task struct {
	Job        int
	Start, End int
}

// Mapping is an assignment of every job's tasks to container queues.
type Mapping struct {
	// Queues[k] lists the tasks of container k in time order.
	Queues [][]Task
	// Per job: the target completion T_i (the schedule's completion slot), the number of
	// tasks, their total length (container-slots received) and the end of the last task
	// (0 for a job with no demand of this resource).
	Target, Tasks, Volume, Completion []int
	// Late lists the jobs that finish after T_i + R_i, Theorem 3's bound; BoundHolds is
	// true when there is none.
	Late       []int
	BoundHolds bool
}

// MapToQueues turns a schedule into whole tasks on containers — rush.txt §III-C,
// Alg. 4, continuous time-slot mapping. Container k of the chosen resource is open in
// slot t when k ≤ C_t (beyond the horizon the last slot's capacity continues). Jobs are
// taken in order of target completion T_i (the schedule's completion slot; ties by
// index) and their tasks placed, each at the earliest time it fits on its queue after
// the queue's last task:
//
//  1. Alg. 4 as printed, in consistent units: queues 1, 2, … in turn, each taking tasks
//     while the next one still ends by T_i.
//  2. The rule of the prose ("until the current queue occupation is larger than T_i"):
//     queues 1, 2, … in turn, each taking tasks while the queue is occupied up to T_i at
//     most — a task may overrun T_i by up to R_i slots.
//  3. Anything left (only when Theorem 3's conditions fail) goes, task by task, to the
//     queue where it ends earliest; the job is then reported Late.
//
// Units. Alg. 4 assigns A = min(⌊(T_i − O_k)/R_i⌋, η_i) and subtracts A from both η_i and
// O_k's headroom, mixing tasks (A) with container-slots (η_i, O_k). Here A counts tasks
// of R_i slots, η_i container-slots, and occupations are times; MappingOptions.Rounding
// says how η_i becomes tasks.
//
// Theorem 3 (every job finishes by T_i + R_i) holds when the capacity is constant and the
// tasks carry exactly η_i (ExactVolume, or R_i dividing η_i): if step 2 ran out of
// queues, every queue would be occupied beyond T_i, so the jobs up to i would need more
// than C·T_i container-slots, while meeting the targets they take at most C·T_i. With tasks rounded up, or with capacity that varies over time, the volume
// argument breaks and the bound can fail; the tests exhibit both.
func MapToQueues(inst *sched.Instance, s *sched.Schedule, opts MappingOptions) (*Mapping, error) {
	return mapToQueues(inst, s, opts, false)
}

// mapToQueues is MapToQueues; scan forces the O(N·C) scan over every queue even when
// the capacity is constant, as the reference the faster queue index is tested against.
func mapToQueues(inst *sched.Instance, s *sched.Schedule, opts MappingOptions, scan bool) (*Mapping, error) {
	ws := opts.Workspace
	var pb *problemBufs
	if ws != nil {
		pb = &ws.problemBufs
	}
	p, err := newProblemIn(inst, pb)
	if err != nil {
		return nil, err
	}
	r := opts.Resource
	if r < 0 || r >= p.R {
		return nil, fmt.Errorf("tas: mapping: resource %d out of range [0, %d)", r, p.R)
	}
	if s == nil || len(s.Jobs) != p.n {
		return nil, fmt.Errorf("tas: mapping: schedule does not match the instance's %d jobs", p.n)
	}
	capAt := func(t int) int64 { return p.cap[r][min(t, p.T)-1] } // t ≥ 1
	var C int64
	for _, c := range p.cap[r] {
		C = max(C, c)
	}
	var m *Mapping
	if ws != nil {
		// Every array as a fresh one would be: zero, the queues empty.
		mb := &ws.mapping
		mb.m = Mapping{Queues: resize(mb.m.Queues, int(C)), Target: resize(mb.m.Target, p.n),
			Tasks: resize(mb.m.Tasks, p.n), Volume: resize(mb.m.Volume, p.n),
			Completion: resize(mb.m.Completion, p.n), Late: mb.m.Late[:0]}
		m = &mb.m
		clear(m.Queues)
		clear(m.Target)
		clear(m.Tasks)
		clear(m.Volume)
		clear(m.Completion)
	} else {
		m = &Mapping{
			Queues: make([][]Task, C),
			Target: make([]int, p.n), Tasks: make([]int, p.n), Volume: make([]int, p.n), Completion: make([]int, p.n),
		}
	}
	// One backing array sized for an even spread of the tasks: a queue that outgrows its
	// share reallocates alone. (An online planner maps at every decision; growing 40
	// queues from empty was most of its allocation.)
	var tasks int
	for j := range p.n {
		if R := int64(max(inst.Jobs[j].TaskSlots, 1)); p.eta[j][r] > 0 {
			tasks += int((p.eta[j][r] + R - 1) / R)
		}
	}
	if share := tasks/max(int(C), 1) + 2; C > 0 {
		var back []Task
		if ws != nil {
			ws.mapping.back = resize(ws.mapping.back, share*int(C))
			back = ws.mapping.back
		} else {
			back = make([]Task, share*int(C))
		}
		for k := range m.Queues {
			m.Queues[k] = back[k*share : k*share : (k+1)*share]
		}
	}
	var occ []int // end time of each queue's last task
	if ws != nil {
		ws.mapping.occ = resize(ws.mapping.occ, int(C))
		occ = ws.mapping.occ
		clear(occ)
	} else {
		occ = make([]int, C)
	}
	var tree *occTree // with constant capacity every queue is always open: fitStart = occ
	if !scan && !slices.ContainsFunc(p.cap[r], func(c int64) bool { return c != C }) {
		if ws != nil {
			tree = ws.mapping.tree.reset(int(C))
		} else {
			tree = newOccTree(int(C))
		}
	}
	// fitStart is the earliest start ≥ occ[k] at which queue k is open for length slots.
	fitStart := func(k, length int) int {
		start := occ[k]
		for t := start + 1; t <= start+length; t++ {
			if int64(k) >= capAt(t) { // queue k (0-based) is closed in slot t
				if t > p.T {
					return -1 // and for ever after
				}
				start = t
			}
		}
		return start
	}
	place := func(j, k, length int) {
		start := fitStart(k, length)
		m.Queues[k] = append(m.Queues[k], Task{Job: j, Start: start, End: start + length})
		occ[k] = start + length
		if tree != nil {
			tree.set(k, occ[k])
		}
		m.Volume[j] += length
		m.Completion[j] = max(m.Completion[j], start+length)
	}
	var order []int
	if ws != nil {
		ws.mapping.order = resize(ws.mapping.order, p.n)
		order = ws.mapping.order
	} else {
		order = make([]int, p.n)
	}
	for j := range order {
		order[j] = j
		m.Target[j] = s.Jobs[j].Completion
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(m.Target[a], m.Target[b]) })
	var buf []int
	if ws != nil {
		buf = ws.mapping.buf[:0]
		defer func() { ws.mapping.buf = buf[:0] }()
	}
	for _, j := range order {
		eta := int(p.eta[j][r])
		if eta == 0 {
			continue
		}
		R := max(inst.Jobs[j].TaskSlots, 1)
		lengths := buf[:0] // remaining tasks, placed from the front
		for range eta / R {
			lengths = append(lengths, R)
		}
		if rest := eta % R; rest > 0 {
			if opts.Rounding == ExactVolume {
				lengths = append(lengths, rest)
			} else {
				lengths = append(lengths, R)
			}
		}
		m.Tasks[j] = len(lengths)
		buf = lengths[:0]
		Ti := m.Target[j]
		if tree != nil {
			// Steps 1 and 2 as below: from queue k on, the first queue where the next task
			// ends by T_i (starts by T_i), i.e. whose occupation is at most T_i − length
			// (T_i); step 3 the queue that frees earliest.
			for step := 1; step <= 2; step++ {
				for k := 0; len(lengths) > 0; {
					x := Ti
					if step == 1 {
						x -= lengths[0]
					}
					if k = tree.firstAtMost(k, x); k < 0 {
						break
					}
					place(j, k, lengths[0])
					lengths = lengths[1:]
				}
			}
			for ; len(lengths) > 0; lengths = lengths[1:] {
				k := tree.argmin()
				if k < 0 {
					return nil, fmt.Errorf("tas: mapping: no container of %q is ever open for a task of %d slots", inst.Resources[r].Name, lengths[0])
				}
				place(j, k, lengths[0])
			}
		}
		// Step 1: whole tasks that end by T_i. Step 2: tasks that start before T_i.
		for _, ok := range []func(start, length int) bool{
			func(start, length int) bool { return start+length <= Ti },
			func(start, length int) bool { return start <= Ti },
		} {
			for k := 0; k < int(C) && len(lengths) > 0; k++ {
				for len(lengths) > 0 {
					st := fitStart(k, lengths[0])
					if st < 0 || !ok(st, lengths[0]) {
						break
					}
					place(j, k, lengths[0])
					lengths = lengths[1:]
				}
			}
		}
		// Step 3: the earliest end anywhere.
		for len(lengths) > 0 {
			best, bestEnd := -1, 0
			for k := range int(C) {
				if st := fitStart(k, lengths[0]); st >= 0 && (best < 0 || st+lengths[0] < bestEnd) {
					best, bestEnd = k, st+lengths[0]
				}
			}
			if best < 0 {
				return nil, fmt.Errorf("tas: mapping: no container of %q is ever open for a task of %d slots", inst.Resources[r].Name, lengths[0])
			}
			place(j, best, lengths[0])
			lengths = lengths[1:]
		}
		if m.Completion[j] > Ti+R {
			m.Late = append(m.Late, j)
		}
	}
	slices.Sort(m.Late)
	m.BoundHolds = len(m.Late) == 0
	return m, nil
}
