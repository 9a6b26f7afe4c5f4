package tas

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/coraopt/coraopt/sched"
)

// ErrInfeasible is wrapped by OnionPeel's error when no schedule gives every job its full
// demand by the horizon.
var ErrInfeasible = errors.New("tas: infeasible")

// problem is the instance as the algorithms read it: demands per job and resource, prefix
// capacities per resource, and utility access. It is built once per call and never
// mutated.
type problem struct {
	inst    *sched.Instance
	n, T, R int
	eta     [][]int64 // eta[j][r]: demand of job j for resource r
	cap     [][]int64 // cap[r][t-1]: capacity of resource r in slot t
	prefix  [][]int64 // prefix[r][t]: capacity of resource r in slots 1..t (prefix[r][0] = 0)
	release []int     // first slot the job can complete in: its release, ≥ 1 (the latest of its per-resource releases)
	// resRel[j][r] is the first slot job j may use resource r (Options.ResourceRelease);
	// nil when every resource opens at the job's release.
	resRel [][]int
	// relByR[r] and relOrder[r]: every job's first slot of resource r and the jobs in
	// that order, filled by releaseOrder.
	relByR, relOrder [][]int
	// oneByOne makes the layered engine ask its oracle one question at a time (tests
	// and benchmarks only: the reference for the one-pass answers, raiseall.go).
	oneByOne bool
	// windows: the one-pass questions' arrays (raiseall.go), allocated on first use.
	windows *windowScratch
	maxPar  []int64 // per-slot cap of any one resource; 0 = none
	u       *utilities
	// logs is true when u holds the underflow keys (useUnderflowLogs); the levels the
	// caller sees are then U_j itself, from values.
	logs   bool
	values *utilities
	// general is true when some job has release > 1 or max_parallel: the prefix test
	// (rush.txt eq. 12) is then only necessary, not sufficient.
	general bool
	hasCap  bool // some job has max_parallel
	// progress is Options.Progress; told the fixed and branch counts last reported.
	progress       func(Progress)
	told, toldBrch int
}

// report tells Options.Progress that fixed of the n jobs are settled and branches
// stall branches explored, when either grew since it was last told.
func (p *problem) report(fixed, branches int, engine string) {
	if p.progress == nil || (fixed <= p.told && branches <= p.toldBrch) {
		return
	}
	p.told, p.toldBrch = max(p.told, fixed), max(p.toldBrch, branches)
	p.progress(Progress{Fixed: p.told, Jobs: p.n, Branches: p.toldBrch, Engine: engine})
}

// newProblem checks what the algorithms rely on (sched.Validate checks more) and
// precomputes demands and prefix capacities. It never panics on a malformed instance.
func newProblem(inst *sched.Instance) (*problem, error) {
	return newProblemIn(inst, nil)
}

// newProblemIn is newProblem building in ws's arrays (fresh ones when ws is nil).
func newProblemIn(inst *sched.Instance, ws *problemBufs) (*problem, error) {
	if inst == nil {
		return nil, errors.New("tas: nil instance")
	}
	T := inst.Horizon
	if T < 1 {
		return nil, fmt.Errorf("tas: horizon %d: must be at least 1", T)
	}
	R := len(inst.Resources)
	if R == 0 {
		return nil, errors.New("tas: instance has no resources")
	}
	n := len(inst.Jobs)
	if ws == nil {
		ws = &problemBufs{}
	}
	ws.prob = problem{inst: inst, n: n, T: T, R: R}
	p := &ws.prob
	ws.capRows, ws.prefixRows = resize(ws.capRows, R), resize(ws.prefixRows, R)
	ws.caps, ws.prefixes = resize(ws.caps, R*T), resize(ws.prefixes, R*(T+1))
	p.cap, p.prefix = ws.capRows, ws.prefixRows
	for r, res := range inst.Resources {
		if len(res.Capacity) != T {
			return nil, fmt.Errorf("tas: resource %q: %d capacities for horizon %d", res.Name, len(res.Capacity), T)
		}
		p.cap[r] = ws.caps[r*T : (r+1)*T : (r+1)*T]
		p.prefix[r] = ws.prefixes[r*(T+1) : (r+1)*(T+1) : (r+1)*(T+1)]
		p.prefix[r][0] = 0
		for t, c := range res.Capacity {
			if c < 0 {
				return nil, fmt.Errorf("tas: resource %q: capacity %d in slot %d is negative", res.Name, c, t+1)
			}
			p.cap[r][t] = int64(c)
			p.prefix[r][t+1] = p.prefix[r][t] + int64(c)
		}
	}
	ws.etaRows, ws.etas = resize(ws.etaRows, n), resize(ws.etas, n*R)
	ws.release, ws.maxPar = resize(ws.release, n), resize(ws.maxPar, n)
	p.eta, p.release, p.maxPar = ws.etaRows, ws.release, ws.maxPar
	etas := ws.etas // every job's row, one array
	for j := range inst.Jobs {
		job := &inst.Jobs[j]
		if len(job.Demand) != R {
			return nil, fmt.Errorf("tas: job %q: %d demands for %d resources", job.ID, len(job.Demand), R)
		}
		if job.Utility == nil {
			return nil, fmt.Errorf("tas: job %q: no utility", job.ID)
		}
		row := etas[j*R : (j+1)*R : (j+1)*R]
		var total int64
		for r, d := range job.Demand {
			if d < 0 {
				return nil, fmt.Errorf("tas: job %q: demand %d for %q is negative", job.ID, d, inst.Resources[r].Name)
			}
			row[r] = int64(d)
			total += int64(d)
		}
		if total == 0 {
			return nil, fmt.Errorf("tas: job %q: demand is 0 for every resource", job.ID)
		}
		p.eta[j] = row
		rel := max(job.Release, 1)
		if rel > T {
			return nil, fmt.Errorf("tas: job %q: release %d is after the horizon %d", job.ID, rel, T)
		}
		p.release[j] = rel
		if job.MaxParallel < 0 {
			return nil, fmt.Errorf("tas: job %q: max_parallel %d is negative", job.ID, job.MaxParallel)
		}
		p.maxPar[j] = int64(job.MaxParallel)
		if rel > 1 || job.MaxParallel > 0 {
			p.general = true
		}
		if job.MaxParallel > 0 {
			p.hasCap = true
		}
	}
	ws.fns = resize(ws.fns, n)
	for j := range inst.Jobs {
		ws.fns[j] = inst.Jobs[j].Utility
	}
	ws.u = utilities{fns: ws.fns, T: T}
	p.u = &ws.u
	p.values = p.u
	return p, nil
}

// relOf is the first slot job j may use resource r.
func (p *problem) relOf(j, r int) int {
	if p.resRel != nil {
		return p.resRel[j][r]
	}
	return p.release[j]
}

// setResourceReleases gives every job its own first slot per resource (rr[j][r], at
// least the job's release); the job's release becomes the latest of those over the
// resources it demands, the first slot it can complete in.
func (p *problem) setResourceReleases(rr [][]int) error {
	if rr == nil {
		return nil
	}
	if len(rr) != p.n {
		return fmt.Errorf("tas: %d rows of resource releases for %d jobs", len(rr), p.n)
	}
	p.resRel = make([][]int, p.n)
	p.relByR, p.relOrder = nil, nil // releases change: releaseOrder recomputes
	for j, row := range rr {
		if len(row) != p.R {
			return fmt.Errorf("tas: job %q: %d resource releases for %d resources", p.inst.Jobs[j].ID, len(row), p.R)
		}
		p.resRel[j] = make([]int, p.R)
		for r, x := range row {
			if x > p.T {
				return fmt.Errorf("tas: job %q: release %d of %q is after the horizon %d", p.inst.Jobs[j].ID, x, p.inst.Resources[r].Name, p.T)
			}
			p.resRel[j][r] = max(x, p.release[j])
		}
		for r := range p.R {
			if p.eta[j][r] > 0 {
				p.release[j] = max(p.release[j], p.resRel[j][r])
			}
		}
		if p.release[j] > 1 {
			p.general = true
		}
	}
	return nil
}

// useUnderflowLogs makes the engines peel on sched.UnderflowKeys: U itself where it is
// positive, ln U where a sigmoid underflows to 0 (see the package documentation, "Ties
// at 0 from underflow"). It reports whether it did.
func (p *problem) useUnderflowLogs() bool {
	keys, ok := sched.UnderflowKeys(p.inst)
	if !ok {
		return false
	}
	p.u = &utilities{fns: keys, T: p.T}
	p.logs = true
	return true
}

// totalViolation reports the first resource whose total demand exceeds its capacity over
// the whole horizon (then no deadlines at all can be met), or nil.
func (p *problem) totalViolation() *Violation {
	for r := range p.R {
		var d int64
		for j := range p.n {
			d += p.eta[j][r]
		}
		if d > p.prefix[r][p.T] {
			return &Violation{Slot: p.T, Resource: r, Demand: d, Capacity: p.prefix[r][p.T], Job: -1}
		}
	}
	return nil
}

// utilities evaluates U_j(t), from a precomputed table when the instance is small enough
// (the layered engine evaluates the same points many times) and through the Utility
// interface otherwise.
type utilities struct {
	fns   []sched.Utility // one per job, packed (a Job is large; this stays in cache)
	T     int
	table []float64 // n*T values, row-major by job, or nil
}

// tableLimit bounds the cached utility table (8 bytes per entry: 32 MiB).
const tableLimit = 1 << 22

// cache precomputes the whole table when it is small enough.
func (u *utilities) cache() {
	n := len(u.fns)
	if u.table != nil || n*u.T > tableLimit || n == 0 {
		return
	}
	tab := make([]float64, n*u.T)
	for j := range n {
		f := u.fns[j]
		row := tab[j*u.T : (j+1)*u.T]
		for t := range row {
			row[t] = f.At(t + 1)
		}
	}
	u.table = tab
}

// at is U_j(t) for 1 ≤ t ≤ T.
func (u *utilities) at(j, t int) float64 {
	if u.table != nil {
		return u.table[j*u.T+t-1]
	}
	return u.fns[j].At(t)
}

// lastAtLeast is d_j(L) = max{t ∈ 1..T : U_j(t) ≥ L}, or 0 when U_j(1) < L. Utilities are
// non-increasing, so the slots with U_j(t) ≥ L form a prefix of 1..T.
func (u *utilities) lastAtLeast(j int, L float64) int {
	if math.IsInf(L, -1) {
		return u.T
	}
	return sort.Search(u.T, func(k int) bool { return !(u.at(j, k+1) >= L) })
}

// lastAbove is max{t ∈ 1..T : U_j(t) > L}, or 0 when none: the latest deadline at which
// job j does strictly better than L.
func (u *utilities) lastAbove(j int, L float64) int {
	if math.IsInf(L, -1) {
		return u.T
	}
	return sort.Search(u.T, func(k int) bool { return !(u.at(j, k+1) > L) })
}
