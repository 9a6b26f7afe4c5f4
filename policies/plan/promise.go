package plan

import (
	"fmt"
	"math"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
)

// Promises is what a solved plan commits to, in absolute seconds.
type Promises struct {
	// Part[i] is the time by which part i is to complete.
	Part []float64
	// Job maps each planned job to the time by which it is to complete: the latest
	// over its parts of the part's promise plus its tail.
	Job map[int]float64
}

// LevelDeadline is the latest slot t in [1, T] with u(t) ≥ L (1 when there is none):
// the completion a job peeled at level L may take.
func LevelDeadline(u sched.Utility, L float64, T int) int {
	if u.At(1) < L {
		return 1
	}
	lo, hi := 1, T
	for lo < hi {
		m := (lo + hi + 1) / 2
		if u.At(m) >= L {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return lo
}

// Promise reads the plan's commitments from a solve of p.Instance. With the layers of
// a lexmax (onion peeling, exact CORA) a part's promise is the end of the latest slot
// at its level — the deadline the lexmax proved feasible for every part at once; a
// schedule without layers (FINAL's rounded x) promises its own completion slots. With
// layers the schedule is not read, and may be left out (solve.Request.LevelsOnly).
func (p *Problem) Promise(res *solve.Result) (*Promises, error) {
	levels := res != nil && len(res.Layers) > 0
	if res == nil || !levels && (res.Schedule == nil || len(res.Schedule.Jobs) != len(p.Job)) {
		return nil, fmt.Errorf("plan: the solve did not schedule the %d parts", len(p.Job))
	}
	var slot []int
	if p.ws != nil {
		p.ws.slot = resize(p.ws.slot, len(p.Job))
		slot = p.ws.slot
	} else {
		slot = make([]int, len(p.Job))
	}
	if levels {
		seen := 0
		for _, l := range res.Layers {
			for _, id := range l.Jobs {
				i, ok := p.Part(id)
				if !ok {
					return nil, fmt.Errorf("plan: the solve's layers name part %q, not in the problem", id)
				}
				slot[i] = LevelDeadline(p.Instance.Jobs[i].Utility, l.Level, p.Instance.Horizon)
				seen++
			}
		}
		if seen != len(p.Job) {
			return nil, fmt.Errorf("plan: the solve's layers hold %d of %d parts", seen, len(p.Job))
		}
	} else {
		for i := range slot {
			slot[i] = res.Schedule.Jobs[i].Completion
		}
	}
	return p.PromiseSlots(slot), nil
}

// PromiseSlots is the plan that completes part i in slot[i]. For a problem built in a
// Workspace the promises are the workspace's, valid until its next Build.
func (p *Problem) PromiseSlots(slot []int) *Promises {
	var out *Promises
	if ws := p.ws; ws != nil {
		out = &ws.promises
		out.Part = resize(out.Part, len(p.Job))
		if out.Job == nil {
			out.Job = make(map[int]float64, len(p.Job))
		}
		clear(out.Job)
	} else {
		out = &Promises{Part: make([]float64, len(p.Job)), Job: make(map[int]float64, len(p.Job))}
	}
	for i, t := range slot {
		out.Part[i] = p.Start + float64(max(t, 1))*p.Slot
		j := p.Job[i]
		c, ok := out.Job[j]
		if !ok {
			c = math.Inf(-1)
		}
		out.Job[j] = max(c, out.Part[i]+p.Tail[i])
	}
	return out
}

// FirstSlot adds each part's allocation in slot 1 to its job's target on the part's
// pool: the papers' hand-over from plan to cluster (DispatchTargets). targets(pool)
// returns the pool's target vector, indexed by job; the planned jobs' entries are
// reset first.
func (p *Problem) FirstSlot(s *sched.Schedule, targets func(pool int) []float64) {
	for i, j := range p.Job {
		for r := range s.Jobs[i].Alloc {
			targets(r)[j] = 0
		}
	}
	for i, j := range p.Job {
		for r, row := range s.Jobs[i].Alloc {
			if len(row) > 0 {
				targets(r)[j] += float64(row[0])
			}
		}
	}
}
