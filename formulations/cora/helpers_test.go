package cora

import (
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// parse decodes an instance written in the file format.
func parse(t testing.TB, doc string) *sched.Instance {
	t.Helper()
	in, err := sched.Decode(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("decoding the instance: %v\n%s", err, doc)
	}
	return in
}

// bruteForce enumerates every integral allocation of a tiny instance meeting capacity
// (3), demand (4) as equalities, release and max_parallel, and returns the optima of
// two different objectives:
//
//   - exact: the lexmax of the sorted completion-time utilities (CORA, problem (1)),
//   - cells: the lexmax of R-CORA's sorted cell vector F_X (what eq. (6) optimizes).
//
// It is the independent oracle of the tests. It gives up (ok = false) beyond limit
// allocations.
type bruteResult struct {
	exactSorted []float64
	exactAlloc  *sched.Schedule
	cells       []int64
	cellsAlloc  *sched.Schedule
	count       int // feasible allocations seen
}

func bruteForce(in *sched.Instance, u *Utilities, limit int) (res bruteResult, ok bool) {
	N, T, R := len(in.Jobs), in.Horizon, len(in.Resources)
	// Options per (job, resource): every composition of the demand into T slots.
	type key struct{ i, r int }
	options := map[key][][]int{}
	for i, job := range in.Jobs {
		for r := range R {
			var comps [][]int
			cur := make([]int, T)
			var rec func(t, left int)
			rec = func(t, left int) {
				if len(comps) > limit {
					return
				}
				if t == T {
					if left == 0 {
						comps = append(comps, slices.Clone(cur))
					}
					return
				}
				hi := min(left, in.Resources[r].Capacity[t])
				if job.MaxParallel > 0 {
					hi = min(hi, job.MaxParallel)
				}
				if t+1 < job.Release {
					hi = 0
				}
				for v := 0; v <= hi; v++ {
					cur[t] = v
					rec(t+1, left-v)
				}
				cur[t] = 0
			}
			rec(0, job.Demand[r])
			if len(comps) == 0 || len(comps) > limit {
				return res, false
			}
			options[key{i, r}] = comps
		}
	}
	s := sched.NewSchedule(in)
	used := make([][]int, R)
	for r := range used {
		used[r] = make([]int, T)
	}
	var rec func(i, r int) bool
	rec = func(i, r int) bool {
		if i == N {
			res.count++
			if res.count > limit {
				return false
			}
			s.Finalize(in)
			if res.exactAlloc == nil || sched.CompareSorted(s.Sorted, res.exactSorted, 0) > 0 {
				res.exactSorted = slices.Clone(s.Sorted)
				res.exactAlloc = cloneSchedule(s)
			}
			cv := cellVector(u, s)
			if res.cellsAlloc == nil || CompareCells(cv, res.cells) > 0 {
				res.cells = cv
				res.cellsAlloc = cloneSchedule(s)
			}
			return true
		}
		ni, nr := i, r+1
		if nr == R {
			ni, nr = i+1, 0
		}
		for _, comp := range options[key{i, r}] {
			fits := true
			for t, v := range comp {
				if used[r][t]+v > in.Resources[r].Capacity[t] {
					fits = false
					break
				}
			}
			if !fits {
				continue
			}
			for t, v := range comp {
				used[r][t] += v
			}
			copy(s.Jobs[i].Alloc[r], comp)
			okRec := rec(ni, nr)
			for t, v := range comp {
				used[r][t] -= v
			}
			if !okRec {
				return false
			}
		}
		return true
	}
	if !rec(0, 0) {
		return res, false
	}
	return res, res.count > 0
}

func cellVector(u *Utilities, s *sched.Schedule) []int64 {
	lp := &LP{Utilities: u}
	return lp.CellVector(s)
}

func cloneSchedule(s *sched.Schedule) *sched.Schedule {
	c := *s
	c.Sorted = slices.Clone(s.Sorted)
	c.Jobs = make([]sched.JobSchedule, len(s.Jobs))
	for i, j := range s.Jobs {
		j.Alloc = make([][]int, len(s.Jobs[i].Alloc))
		for r := range j.Alloc {
			j.Alloc[r] = slices.Clone(s.Jobs[i].Alloc[r])
		}
		c.Jobs[i] = j
	}
	return &c
}
