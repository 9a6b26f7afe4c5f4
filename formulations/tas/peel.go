package tas

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/coraopt/coraopt/sched"
)

// DefaultMaxBranches is the stall-branch budget used when Options.MaxBranches is 0.
const DefaultMaxBranches = 10000

// Options control OnionPeel. The zero value is ready to use.
type Options struct {
	// MaxBranches bounds how many stall branches the layered engine explores in all (each
	// is one choice of the job kept at a stalled level, solved to the end and memoized on
	// the fixed set). 0 means DefaultMaxBranches; a negative value means never branch.
	// Once the budget is spent, stalls are decided by a fixed rule: the jobs at the level
	// are offered their next value one at a time, smallest demand first, and those that no
	// longer fit stay (see Result.Exact).
	MaxBranches int
	// NoSchedule skips building Result.Schedule, whose allocation holds n·R·T integers;
	// Deadlines, Levels and Layers are still computed.
	NoSchedule bool
	// Layered runs the layered engine even where a faster engine applies: the reference
	// the fast engines are tested and benchmarked against. The result is the same.
	Layered bool
	// ResourceRelease[j][r], when given, is the first slot job j may use resource r
	// (at least its release; a per-resource release the instance format cannot state):
	// the job can then complete no earlier than the latest of those over the resources
	// it demands, and Horn's windows of each resource start at its own releases.
	ResourceRelease [][]int
	// AsGiven peels on the utilities exactly as their At methods return them, even
	// where a sigmoid underflows to a 0 that ties it with others and its logarithm
	// (sched.LogUtility) would keep them apart (see the package documentation, "Ties
	// at 0 from underflow"). It is the reference for what that changes.
	AsGiven bool
	// Progress, when set, is called as the layered and events engines fix jobs or
	// explore stall branches (the sweep, linear in the instance, does not report): how
	// many of the jobs are settled so far and how many branches were explored, never
	// fewer than the last call said. It runs on the solving goroutine and
	// should return quickly.
	Progress func(Progress)
	// Workspace, when set, holds the arrays of the call and keeps them for the next
	// one; the Result then lives in it (see Workspace). For callers that peel at every
	// decision instant and read each result before the next call.
	Workspace *Workspace
}

// Progress is what Options.Progress is told: Fixed of Jobs jobs are settled at their
// levels for good (a stall's branches fix more only tentatively, and are counted in
// Branches), by Engine ("layers" or "events").
type Progress struct {
	Fixed, Jobs, Branches int
	Engine                string
}

// Result is the lexicographically max-min optimal completion of every job.
type Result struct {
	// Schedule is the integral allocation (EDF filling, or max-flow when some job has
	// MaxParallel) meeting Deadlines; nil with Options.NoSchedule. Its utilities are those
	// of the actual completion slots, which may be earlier than the deadlines and are
	// then at least as good.
	Schedule *sched.Schedule
	// Deadlines[j] is job j's target completion slot: the latest slot at its level.
	Deadlines []int
	// Levels[j] = U_j(Deadlines[j]), the level job j was peeled at. When the peeling
	// ordered underflowed utilities by their logarithms (Stats.Domain "log"), jobs of
	// different layers may share the level 0 here: their ln U differ.
	Levels []float64
	// Layers groups the jobs by level, lowest first.
	Layers []Layer
	// Exact is false when a stalled layer was decided by the keep rule after the branch
	// budget ran out: the vector is then feasible but not proven lexmax.
	Exact bool
	Stats Stats
}

// Layer is one level of the onion and the jobs peeled at it.
type Layer struct {
	Level float64
	Jobs  []int // indices into Instance.Jobs, increasing
}

// Stats says how a Result was computed.
type Stats struct {
	// Domain is "log" when the engines ordered the utilities that underflow to 0 by
	// their logarithms (some job's utility offers one, sched.LogUtility, none is
	// negative, and Options.AsGiven was not set), else "".
	Domain string
	// Engine is "sweep" (the backward boundary sweep), "events" (the level-ordered
	// engine for parallelism caps) or "layers" (one bisection per layer). Oracle is the
	// feasibility test: for the sweep "" (eq. 12) or "windows" (Horn's condition, with
	// release times); for the layered engine "prefix", "edf" or "flow"; for the
	// events engine "flow" (incremental max-flow).
	Engine, Oracle string
	// HandOver says why the sweep passed the instance to the layered engine, or why the
	// events engine passed it a stalled layer.
	HandOver string
	// Layered engine: feasibility tests, stalled layers, branches explored, stalls decided
	// by the keep rule. Decided counts stalled layers settled without branching: exactly
	// one job's keeping let the rest rise (see keepAlone). The events engine counts its tentative moves as Probes and its
	// utility evaluations in Evaluations; a stall it hands over adds the layered engine's.
	Probes, Stalls, Branches, RuleChoices, Decided int
	// Sweep: boundaries where not every arriving job fit, utility evaluations there,
	// rollbacks because a job stopped inside a flat stretch of its utility, and such
	// stops withdrawn on re-checking.
	BlockingSlots int
	Evaluations   int64
	Rollbacks     int
	Withdrawn     int
	// Resumed counts the times the sweep finished the peeling after the layered engine
	// decided a stalled layer (in the main line or a stall branch); Pruned the stall
	// branches dropped because they must leave more jobs at the stalled level than an
	// outcome already found.
	Resumed, Pruned int
}

// OnionPeel computes the lexicographic max-min of the sorted utility vector of TAS
// (rush.txt §III-B): the completion slot of every job such that the lowest utility is as
// high as possible, then the second lowest, and so on, where every job receives its full
// demand of every resource by the horizon. See the package documentation for the method.
//
// It returns an error wrapping ErrInfeasible when the demand cannot be met within the
// horizon, and the context's error when ctx is cancelled.
func OnionPeel(ctx context.Context, inst *sched.Instance, opts Options) (*Result, error) {
	ws := opts.Workspace
	var pb *problemBufs
	if ws != nil {
		pb = &ws.problemBufs
	}
	p, err := newProblemIn(inst, pb)
	if err != nil {
		return nil, err
	}
	if v := p.totalViolation(); v != nil {
		return nil, fmt.Errorf("%w: %v", ErrInfeasible, v)
	}
	budget := opts.MaxBranches
	if budget == 0 {
		budget = DefaultMaxBranches
	}
	if err := p.setResourceReleases(opts.ResourceRelease); err != nil {
		return nil, err
	}
	p.progress = opts.Progress
	var st Stats
	if !opts.AsGiven && p.useUnderflowLogs() {
		st.Domain = "log"
	}
	out, err := peel(ctx, p, budget, opts.Layered, &st, ws)
	if err != nil {
		return nil, err
	}
	if p.logs {
		// The engines' levels are keys (ln U below the underflow); report U itself.
		lv := make([]float64, p.n)
		for j := range lv {
			lv[j] = p.values.at(j, out.deadline[j])
		}
		out = &outcome{deadline: out.deadline, level: lv, exact: out.exact}
	}
	var res *Result
	if ws != nil {
		ws.res = Result{Deadlines: out.deadline, Levels: out.level, Exact: out.exact, Stats: st}
		res = &ws.res
		res.Layers = groupLayersIn(out.level, &ws.order, &ws.layers)
	} else {
		res = &Result{Deadlines: out.deadline, Levels: out.level, Exact: out.exact, Stats: st}
		res.Layers = groupLayers(out.level)
	}
	if !opts.NoSchedule {
		s, err := p.schedule(out.deadline, ws)
		if err != nil {
			return nil, err
		}
		s.Exact = out.exact
		res.Schedule = s
	}
	return res, nil
}

// peel runs the sweep where it applies (no parallelism caps) and the layered engine
// otherwise, or when layered asks for it.
// With ws the sweep runs in ws's arrays and the outcome is ws's.
func peel(ctx context.Context, p *problem, budget int, layered bool, st *Stats, ws *Workspace) (*outcome, error) {
	if !p.hasCap && !layered {
		st.Engine = "sweep"
		if p.general {
			st.Oracle = "windows"
		}
		var sw *sweep
		var out *outcome
		var lv []float64
		if ws != nil {
			sw, out, lv = &ws.sweep, &ws.out, ws.level
		} else {
			sw, out = &sweep{}, &outcome{}
		}
		d, err := runSweepIn(ctx, p, st, sw)
		var ho *errHandOver
		switch {
		case err == nil:
			lv = resize(lv, p.n)
			if ws != nil {
				ws.level = lv
			}
			for j := range lv {
				lv[j] = p.u.at(j, d[j])
			}
			*out = outcome{deadline: d, level: lv, exact: true}
			return out, nil
		case errors.As(err, &ho):
			st.HandOver = ho.reason
		default:
			return nil, err
		}
	}
	if p.hasCap && !layered {
		return runEvents(ctx, p, budget, st)
	}
	return runLayered(ctx, p, budget, !layered && !p.hasCap, st)
}

// runLayered runs the layered engine with the oracle the instance needs.
//
// With fast, a stalled layer's branches are seeded and cut, and the sweep finishes the
// peeling once a stall is decided (see layers.go); without, the engine runs as the
// reference the faster paths are tested against.
func runLayered(ctx context.Context, p *problem, budget int, fast bool, st *Stats) (*outcome, error) {
	st.Engine = "layers"
	p.u.cache()
	var or oracle
	switch {
	case p.hasCap:
		st.Oracle = "flow"
		or = &flowOracle{p: p}
	case p.general:
		st.Oracle = "edf"
		or = edfOracle{p: p}
	default:
		st.Oracle = "prefix"
		or = newPrefixOracle(p)
	}
	e := newLayered(ctx, p, or, budget, st)
	e.resume, e.prune = fast && !p.hasCap, fast
	e.oneByOne = p.oneByOne
	return e.run()
}

// schedule builds the integral allocation meeting deadlines d, which must be feasible.
//
// With ws the schedule is built in ws's arrays (see Workspace).
func (p *problem) schedule(d []int, ws *Workspace) (*sched.Schedule, error) {
	var s *sched.Schedule
	if ws != nil {
		s = ws.newSchedule(p.inst)
	} else {
		s = sched.NewSchedule(p.inst)
	}
	var v *Violation
	switch {
	case p.hasCap:
		var fs *sched.Schedule
		fs, v = p.flowSchedule(d)
		if v == nil {
			s = fs
		}
	case p.general:
		v = p.fillSlots(s, d)
	default:
		if v = p.prefixViolation(d); v == nil {
			p.fillSequential(s, d)
		}
	}
	if v != nil {
		return nil, fmt.Errorf("tas: internal error: peeled deadlines are infeasible: %w", v)
	}
	s.Finalize(p.inst)
	for j := range s.Jobs {
		if c := s.Jobs[j].Completion; c == 0 || c > d[j] {
			return nil, fmt.Errorf("tas: internal error: job %q completes in slot %d, deadline %d", s.Jobs[j].ID, c, d[j])
		}
	}
	return s, nil
}

// groupLayers groups job indices by level, lowest level first.
func groupLayers(level []float64) []Layer {
	var order []int
	var out []Layer
	return groupLayersIn(level, &order, &out)
}

// groupLayersIn is groupLayers in the arrays *order and *layers (grown when short): the
// layers returned share them.
func groupLayersIn(level []float64, orderBuf *[]int, layersBuf *[]Layer) []Layer {
	*orderBuf = resize(*orderBuf, len(level))
	order := *orderBuf
	for j := range order {
		order[j] = j
	}
	// By level, ties by index: the order a stable sort by level gives, without its
	// insertion sorts and merges.
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case level[a] < level[b]:
			return -1
		case level[a] > level[b]:
			return 1
		}
		return a - b
	})
	// Each layer's jobs are a run of order: one array for all of them. The layers are
	// counted first so that out is allocated once (grown by append it allocated about
	// twice its size, per decision of the online planners).
	layers := 0
	for i := range order {
		if i == 0 || level[order[i]] != level[order[i-1]] {
			layers++
		}
	}
	if layers == 0 {
		return nil // as before: no layers is nil, not empty
	}
	if cap(*layersBuf) < layers {
		*layersBuf = make([]Layer, 0, layers)
	}
	out := (*layersBuf)[:0]
	for i := 0; i < len(order); {
		k := i + 1
		for k < len(order) && level[order[k]] == level[order[i]] {
			k++
		}
		out = append(out, Layer{Level: level[order[i]], Jobs: order[i:k:k]})
		i = k
	}
	return out
}
