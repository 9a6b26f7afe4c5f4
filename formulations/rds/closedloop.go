package rds

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/coraopt/coraopt/solvers"
)

// Decision is a controller's output for one interval.
type Decision struct {
	Targets   []Alloc   // target allocation u_j(t) per State.Jobs entry
	Forecast  []float64 // the capacity forecast the decision assumed (nil if none)
	Objective float64   // the controller's optimal value (0 if it has none)
}

// Controller decides the allocation of the next interval from the state.
type Controller interface {
	Name() string
	Control(ctx context.Context, s *State) (*Decision, error)
}

// RHCController is RDS's controller: forecast capacity, build the eq. 3 QP, solve it and
// apply the first move (receding horizon).
type RHCController struct {
	Solver    solvers.Solver
	Options   solvers.Options
	Params    Params
	Predictor Predictor
}

// Name implements Controller.
func (c *RHCController) Name() string { return "rds-rhc/" + c.Solver.Name() }

// Control implements Controller.
func (c *RHCController) Control(ctx context.Context, s *State) (*Decision, error) {
	forecast, err := c.Predictor.Forecast(s.CapacityHistory, c.Params.PredictionHorizon)
	if err != nil {
		return nil, fmt.Errorf("rds: forecasting capacity at t = %g: %w", s.Time, err)
	}
	d := &Decision{Targets: make([]Alloc, len(s.Jobs)), Forecast: forecast}
	res, err := SolveRHC(ctx, c.Solver, s, forecast, c.Params, c.Options)
	if errors.Is(err, ErrNoJobs) {
		return d, nil
	}
	if err != nil {
		return nil, fmt.Errorf("rds: control step at t = %g: %w", s.Time, err)
	}
	if res.Status != solvers.Optimal {
		return nil, fmt.Errorf("rds: control step at t = %g: solver %s stopped with status %v", s.Time, c.Solver.Name(), res.Status)
	}
	d.Targets = res.Handles.Allocation(res.Solution.X)
	d.Objective = res.Solution.Objective
	return d, nil
}

// FairController is the Fair scheduler baseline (rds.txt §2.2, §6): every job gets an
// equal share. It asks the same amount for every job; the work-conserving dispatch then
// splits the capacity equally among the jobs that can use it.
type FairController struct{}

// Name implements Controller.
func (FairController) Name() string { return "fair" }

// Control implements Controller.
func (FairController) Control(_ context.Context, s *State) (*Decision, error) {
	d := &Decision{Targets: make([]Alloc, len(s.Jobs))}
	for j := range s.Jobs {
		switch s.Jobs[j].Phase {
		case PhaseMap:
			d.Targets[j] = Alloc{Map: 1}
		case PhaseReduce:
			d.Targets[j] = Alloc{Reduce: 1}
		default:
			d.Targets[j] = Alloc{Map: 1, Reduce: 1}
		}
	}
	return d, nil
}

// SimJob is a job of a closed-loop scenario: what the plant knows (true gains, phase
// lengths) and what the controller starts from (the prior gains).
type SimJob struct {
	ID      string
	Arrival float64
	Work    float64
	// Phased jobs run a map phase over progress [0, MapWork) and then a reduce phase
	// over [MapWork, Work); only the current phase's resources make progress. Jobs that
	// are not phased progress with map and reduce resources at once.
	Phased      bool
	MapWork     float64
	Gain        Gain // the true gains of the plant
	InitialGain Gain // the controller's prior (the RLS starting point)
	Soft, Hard  float64
	Priority    float64
	// MaxMap and MaxReduce cap the job's allocation; 0 means no cap.
	MaxMap, MaxReduce float64
}

// Scenario is a closed-loop experiment: a true capacity trace and jobs.
type Scenario struct {
	Interval float64
	// Capacity[k] is the true r_a of interval k, [k·L, (k+1)·L); the run lasts at most
	// len(Capacity) intervals.
	Capacity []float64
	// History is capacity observed before interval 0, oldest first (for the AR
	// predictor); may be empty.
	History []float64
	Jobs    []SimJob
	// Forgetting is the RLS factor λ (0 means 0.95); PriorCovariance is p0 (0 means 100).
	Forgetting, PriorCovariance float64
	// GainNoise is the relative standard deviation of each job's true gain, drawn
	// afresh every interval (data skew, interference); Seed seeds it.
	GainNoise float64
	Seed      uint64
	// SlotSize > 0 dispatches whole slots of that size with Algorithm 1 (Dispatch);
	// 0 dispatches fluidly (DispatchFluid, the algorithm's small-slot limit).
	SlotSize float64
}

// IntervalRecord is what happened in one interval of a closed-loop run. Slices are
// indexed like Scenario.Jobs.
type IntervalRecord struct {
	Index     int
	Start     float64
	Capacity  float64   // the true r_a
	Forecast  []float64 // the controller's forecast (nil if it used none)
	Objective float64   // the controller's optimal value
	Targets   []Alloc   // the controller's targets (zero for jobs it did not see)
	Alloc     []Alloc   // the applied allocation, averaged over the interval
	Progress  []float64 // progress at the end of the interval
	Estimates []Gain    // RLS estimates after this interval's observation
}

// JobOutcome is a job's result: its completion time (+Inf when it did not finish within
// the trace) and whether it met its soft deadline.
type JobOutcome struct {
	ID         string
	Completion float64
	Soft, Hard float64
	Met        bool
}

// Run is the record of a closed-loop run.
type Run struct {
	Controller string
	Intervals  []IntervalRecord
	Jobs       []JobOutcome
}

// CompletionTol is the plant's resolution of work: a phase (and a job) is over when less
// than this fraction of the job's work is left. Real jobs are made of tasks far larger
// than a millionth of the job; the tolerance absorbs the QP solvers' feasibility
// tolerances and SolveRHC's ShortfallMargin, which would otherwise leave a sliver of
// work that a tracking controller finishes only slowly.
const CompletionTol = 1e-6

// DeadlineTol is the slack Run allows a completion time over its deadline, relative to
// max(1, |deadline|): it absorbs the QP solvers' tolerances, nothing more.
const DeadlineTol = 1e-6

// Simulate runs controller c in closed loop over the scenario (rds.txt Fig. 4): at the
// start of every interval the controller sees the state (progress, the RLS gain
// estimates, the observed capacity history), decides targets, the dispatcher hands out
// the interval's true capacity (Algorithm 1, work-conserving), and the plant advances
// every job with its true gains. Within an interval rates are constant between events
// (a phase or job finishing, a job arriving), and at each event the dispatcher
// reassigns the capacity among the claims that can still use it. At the end of the
// interval each job's RLS estimator is updated with the interval's average allocation
// and the progress it produced. Arrivals are seen by the controller at the next
// interval boundary; until then the job gets only capacity nobody else wants.
func Simulate(ctx context.Context, sc Scenario, c Controller) (*Run, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	lambda, p0 := sc.Forgetting, sc.PriorCovariance
	if lambda == 0 {
		lambda = 0.95
	}
	if p0 == 0 {
		p0 = 100
	}
	nj := len(sc.Jobs)
	rls := make([]*RLS, nj)
	for j, sj := range sc.Jobs {
		r, err := NewRLS(sj.InitialGain, p0, lambda)
		if err != nil {
			return nil, fmt.Errorf("rds: job %q: %w", sj.ID, err)
		}
		rls[j] = r
	}
	rng := rand.New(rand.NewPCG(sc.Seed, 0x7264732d706c616e)) // "rds-plan"
	progress := make([]float64, nj)
	completion := make([]float64, nj)
	for j := range completion {
		completion[j] = math.Inf(1)
	}
	prev := make([]Alloc, nj)
	// Tie-break order for the slotted dispatcher: earlier soft deadline first.
	order := make([]int, nj)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sc.Jobs[a].Soft, sc.Jobs[b].Soft) })

	run := &Run{Controller: c.Name()}
	history := slices.Clone(sc.History)
	for k, capK := range sc.Capacity {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := float64(k) * sc.Interval
		if allDone(completion) {
			break
		}
		// The controller's view.
		st := &State{Time: t, Interval: sc.Interval, CapacityHistory: history}
		var idx []int // state job → scenario job
		for j, sj := range sc.Jobs {
			if sj.Arrival > t || !math.IsInf(completion[j], 1) {
				continue
			}
			g := rls[j].Gain()
			st.Jobs = append(st.Jobs, Job{
				ID: sj.ID, Work: sj.Work, Progress: progress[j], Phase: sj.phaseAt(progress[j]),
				Gain:    Gain{Map: math.Max(0, g.Map), Reduce: math.Max(0, g.Reduce)},
				Arrival: sj.Arrival, Soft: sj.Soft, Hard: sj.Hard, Priority: sj.Priority, Prev: prev[j],
				MaxMap: capOrInf(sj.MaxMap), MaxReduce: capOrInf(sj.MaxReduce),
			})
			idx = append(idx, j)
		}
		rec := IntervalRecord{Index: k, Start: t, Capacity: capK,
			Targets: make([]Alloc, nj), Alloc: make([]Alloc, nj)}
		if len(st.Jobs) > 0 {
			d, err := c.Control(ctx, st)
			if err != nil {
				return nil, err
			}
			if len(d.Targets) != len(st.Jobs) {
				return nil, fmt.Errorf("rds: controller %s returned %d targets for %d jobs", c.Name(), len(d.Targets), len(st.Jobs))
			}
			for i, j := range idx {
				rec.Targets[j] = d.Targets[i]
			}
			rec.Forecast, rec.Objective = d.Forecast, d.Objective
		}

		start := slices.Clone(progress)
		if err := sc.plant(t, capK, rec.Targets, progress, completion, rec.Alloc, rng, order); err != nil {
			return nil, err
		}
		for j := range sc.Jobs {
			if dy := progress[j] - start[j]; rec.Alloc[j].Total() > 0 {
				if _, err := rls[j].Update(rec.Alloc[j], dy); err != nil {
					return nil, fmt.Errorf("rds: job %q: %w", sc.Jobs[j].ID, err)
				}
			}
		}
		rec.Progress = slices.Clone(progress)
		rec.Estimates = make([]Gain, nj)
		for j := range rls {
			rec.Estimates[j] = rls[j].Gain()
		}
		copy(prev, rec.Alloc)
		history = append(history, capK)
		run.Intervals = append(run.Intervals, rec)
	}
	for j, sj := range sc.Jobs {
		run.Jobs = append(run.Jobs, JobOutcome{
			ID: sj.ID, Completion: completion[j], Soft: sj.Soft, Hard: sj.Hard,
			Met: completion[j] <= sj.Soft+DeadlineTol*math.Max(1, math.Abs(sj.Soft)),
		})
	}
	return run, nil
}

func capOrInf(c float64) float64 {
	if c == 0 {
		return math.Inf(1)
	}
	return c
}

func allDone(completion []float64) bool {
	for _, c := range completion {
		if math.IsInf(c, 1) {
			return false
		}
	}
	return true
}

func (sj *SimJob) phaseAt(y float64) Phase {
	if !sj.Phased {
		return PhaseBoth
	}
	if y < sj.MapWork {
		return PhaseMap
	}
	return PhaseReduce
}

// phaseEnd is the progress at which the job's current phase ends.
func (sj *SimJob) phaseEnd(y float64) float64 {
	if sj.Phased && y < sj.MapWork {
		return sj.MapWork
	}
	return sj.Work
}

func (sc *Scenario) check() error {
	bad := func(format string, args ...any) error { return fmt.Errorf("rds: scenario: "+format, args...) }
	if !(sc.Interval > 0) || math.IsInf(sc.Interval, 0) {
		return bad("interval must be finite and > 0, got %g", sc.Interval)
	}
	for k, c := range append(slices.Clone(sc.History), sc.Capacity...) {
		if !(c >= 0) || math.IsInf(c, 0) {
			return bad("capacity entry %d is %g", k, c)
		}
	}
	if !(sc.SlotSize >= 0) || math.IsInf(sc.SlotSize, 0) {
		return bad("slot size must be finite and >= 0, got %g", sc.SlotSize)
	}
	if !(sc.GainNoise >= 0) || math.IsInf(sc.GainNoise, 0) {
		return bad("gain noise must be finite and >= 0, got %g", sc.GainNoise)
	}
	// The jobs must make valid controller states.
	st := State{Interval: sc.Interval}
	for _, sj := range sc.Jobs {
		if sj.Phased && !(sj.MapWork >= 0 && sj.MapWork <= sj.Work) {
			return bad("job %q: map work %g must be in [0, work = %g]", sj.ID, sj.MapWork, sj.Work)
		}
		if !finiteGain(sj.Gain) || sj.Gain.Map < 0 || sj.Gain.Reduce < 0 {
			return bad("job %q: true gains %+v must be finite and >= 0", sj.ID, sj.Gain)
		}
		st.Jobs = append(st.Jobs, Job{ID: sj.ID, Work: sj.Work, Gain: Gain{Map: math.Abs(sj.InitialGain.Map), Reduce: math.Abs(sj.InitialGain.Reduce)},
			Arrival: sj.Arrival, Soft: sj.Soft, Hard: sj.Hard, Priority: sj.Priority,
			MaxMap: capOrInf(sj.MaxMap), MaxReduce: capOrInf(sj.MaxReduce)})
	}
	if err := st.Validate(); err != nil {
		return fmt.Errorf("rds: scenario jobs: %w", err)
	}
	return nil
}

// plant advances every job through the interval [t, t+L) with capacity capK (see
// Simulate), writing the time-averaged allocation of each job to alloc.
func (sc *Scenario) plant(t, capK float64, targets []Alloc, progress, completion []float64,
	alloc []Alloc, rng *rand.Rand, order []int) error {
	nj := len(sc.Jobs)
	L := sc.Interval
	factor := make([]float64, nj)
	for j := range factor {
		factor[j] = 1
		if sc.GainNoise > 0 {
			factor[j] = math.Max(0, 1+sc.GainNoise*rng.NormFloat64())
		}
	}
	end := t + L
	now := t
	adjust := make([]float64, 0, 2*nj)
	capsF := make([]float64, 0, 2*nj)
	claims := make([]int, 0, 2*nj) // claim c = 2j (map) or 2j+1 (reduce)
	rate := make([]float64, nj)
	// Every event finishes a phase or a job, or lets a job arrive, so this bounds the loop.
	for events := 0; now < end; events++ {
		if events > 4*nj+4 {
			return fmt.Errorf("rds: plant: interval at t = %g did not settle after %d events", t, events)
		}
		adjust, capsF, claims = adjust[:0], capsF[:0], claims[:0]
		for _, j := range order {
			sj := &sc.Jobs[j]
			if sj.Arrival > now || !math.IsInf(completion[j], 1) {
				continue
			}
			ph := sj.phaseAt(progress[j])
			if ph != PhaseReduce {
				claims = append(claims, 2*j)
				adjust = append(adjust, targets[j].Map)
				capsF = append(capsF, capOrInf(sj.MaxMap))
			}
			if ph != PhaseMap {
				claims = append(claims, 2*j+1)
				adjust = append(adjust, targets[j].Reduce)
				capsF = append(capsF, capOrInf(sj.MaxReduce))
			}
		}
		give, err := sc.dispatch(adjust, capsF, capK)
		if err != nil {
			return err
		}
		// Rates and the next event.
		clear(rate)
		held := make([]Alloc, nj)
		for i, c := range claims {
			j := c / 2
			if c%2 == 0 {
				held[j].Map = give[i]
				rate[j] += sc.Jobs[j].Gain.Map * factor[j] * give[i] / L
			} else {
				held[j].Reduce = give[i]
				rate[j] += sc.Jobs[j].Gain.Reduce * factor[j] * give[i] / L
			}
		}
		next := end
		for j := range sc.Jobs {
			sj := &sc.Jobs[j]
			if sj.Arrival > now && sj.Arrival < next {
				next = sj.Arrival
			}
			if sj.Arrival <= now && math.IsInf(completion[j], 1) && rate[j] > 0 {
				left := math.Max(0, sj.phaseEnd(progress[j])-CompletionTol*sj.Work-progress[j])
				if at := now + left/rate[j]; at < next {
					next = at
				}
			}
		}
		dt := next - now
		for j := range sc.Jobs {
			if rate[j] == 0 {
				continue
			}
			sj := &sc.Jobs[j]
			pe := sj.phaseEnd(progress[j])
			progress[j] += rate[j] * dt
			// A phase with less than CompletionTol of the job's work left is over.
			if progress[j] >= pe-CompletionTol*sj.Work*(1+1e-9) {
				progress[j] = pe
				if pe >= sj.Work {
					completion[j] = next
				}
			}
			alloc[j].Map += held[j].Map * dt / L
			alloc[j].Reduce += held[j].Reduce * dt / L
		}
		now = next
	}
	return nil
}

// dispatch splits capacity capK among claims: fluidly, or in whole slots with
// Algorithm 1 when SlotSize > 0. In slot mode the targets are first rounded to a
// millionth of a slot, so that a QP solution that differs from a tie only by solver
// rounding is treated as the tie it is (claims are in deadline order for ties).
func (sc *Scenario) dispatch(adjust, caps []float64, capK float64) ([]float64, error) {
	if sc.SlotSize == 0 {
		return DispatchFluid(adjust, caps, capK)
	}
	s := sc.SlotSize
	q := s * 1e-6
	rounded := make([]float64, len(adjust))
	slotCaps := make([]int, len(adjust))
	for i, a := range adjust {
		rounded[i] = math.Round(a/q) * q
		if math.IsInf(caps[i], 1) {
			slotCaps[i] = math.MaxInt32
		} else {
			slotCaps[i] = int(math.Floor(caps[i]/s + 1e-9))
		}
	}
	slots := int(math.Floor(capK/s + 1e-9))
	got, err := Dispatch(rounded, slotCaps, slots, s)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(got))
	for i, n := range got {
		out[i] = float64(n) * s
	}
	return out, nil
}
