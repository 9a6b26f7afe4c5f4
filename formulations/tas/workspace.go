package tas

import "github.com/coraopt/coraopt/sched"

// Workspace keeps OnionPeel's arrays from one call to the next (Options.Workspace):
// the problem's demand and capacity rows, the sweep's bounds, heaps, expiry lists and
// per-boundary lists, the levels, the layers and the schedule. An online planner peels
// an instance of about the same size at every decision instant; allocated afresh,
// those arrays are most of what a decision allocates (~100 KB at 100 jobs), and the
// garbage collector cycles they bring about are the slowest decisions
// (docs/performance.md, issue 28). Reusing them changes no result: every array is
// written in full before it is read.
//
// A Result computed with a Workspace — its Deadlines, Levels, Layers and Schedule —
// lives in the workspace's arrays, and is valid only until the next call that uses the
// same workspace. A Workspace is not safe for concurrent use; the zero value is ready.
// Only the sweep's main line and the EDF schedule use it; the layered and events
// engines, the sweeps they run, and the flow schedule allocate as they did.
type Workspace struct {
	problemBufs
	// The sweep with its arrays (runSweepIn).
	sweep sweep
	// The levels (peel) and the layers (groupLayers).
	level  []float64
	out    outcome
	order  []int
	layers []Layer
	res    Result
	// MapToQueues's arrays (MappingOptions.Workspace).
	mapping mappingBufs
	// The schedule (without Options.NoSchedule): its allocation rows in one array.
	sched sched.Schedule
	rows  [][]int
	cells []int
}

// mappingBufs are a Mapping and the scratch of MapToQueues.
type mappingBufs struct {
	m          Mapping
	back       []Task
	occ, order []int
	buf        []int
	tree       occTree
}

// newSchedule is sched.NewSchedule(in) in ws's arrays: every allocation zero.
func (ws *Workspace) newSchedule(in *sched.Instance) *sched.Schedule {
	n, R, T := len(in.Jobs), len(in.Resources), in.Horizon
	ws.cells = resize(ws.cells, n*R*T)
	clear(ws.cells)
	ws.rows = resize(ws.rows, n*R)
	s := &ws.sched
	*s = sched.Schedule{Jobs: resize(s.Jobs, n), Sorted: s.Sorted[:0], Exact: true}
	for i := range n {
		a := ws.rows[i*R : (i+1)*R : (i+1)*R]
		for r := range a {
			k := (i*R + r) * T
			a[r] = ws.cells[k : k+T : k+T]
		}
		s.Jobs[i] = sched.JobSchedule{ID: in.Jobs[i].ID, Alloc: a}
	}
	return s
}

// problemBufs are a problem and its arrays (newProblemIn).
type problemBufs struct {
	prob                problem
	etaRows             [][]int64
	etas                []int64
	release             []int
	maxPar              []int64
	capRows, prefixRows [][]int64
	caps, prefixes      []int64
	fns                 []sched.Utility
	u                   utilities
}

// resize is s with length n, reusing its array when it has room; the contents are
// unspecified (the caller writes all of them).
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
