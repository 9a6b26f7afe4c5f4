package rds

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/coraopt/coraopt/model"
)

// ErrNoJobs is returned by BuildRHC and BuildShortfall when no job of the state needs
// resources (every job is finished or has not arrived): there is nothing to optimize
// and the allocation is 0.
var ErrNoJobs = errors.New("rds: no job needs resources")

// Handles locate the parts of a model built by BuildRHC or BuildShortfall and turn a
// solution vector x (one value per model column) back into the controller's terms.
type Handles struct {
	Hp, Hc int
	// Jobs[m] is the index in State.Jobs of the m-th modelled job: every job that has
	// arrived by State.Time and has work left.
	Jobs []int
	// Map[m][k] and Reduce[m][k] are u^m and u^r of modelled job m at control step k
	// (the interval starting at t + k·L), k < H_c.
	Map, Reduce [][]model.Var
	// Deadline[m] is job m's deadline row, progress at t_soft in percent of the work
	// ≥ 100 − allowed shortfall; invalid (zero) when t_soft is not inside the prediction
	// window, the job cannot progress, or deadlines are off (in BuildRHC).
	Deadline []model.Constr
	// Slack[m] is the shortfall variable σ_m of BuildShortfall's deadline row (invalid in
	// BuildRHC's model, whose rows are hard).
	Slack []model.Var
	// Capacity[k] is the row Σ_j (u^m_j + u^r_j)(t+k) ≤ CapacityBound[k].
	Capacity      []model.Constr
	CapacityBound []float64
	// Forecast is r̂_a(t+i), i = 0 … H_p−1, as given.
	Forecast []float64
	// KindCapacity[0][k] and [1][k] are the rows Σ_j u^m_j(t+k) ≤ KindBound[0][k] and
	// Σ_j u^r_j(t+k) ≤ KindBound[1][k] when the state has MapCapacity and
	// ReduceCapacity (nil otherwise); KindBound is +Inf for a kind without a forecast.
	KindCapacity [2][]model.Constr
	KindBound    [2][]float64

	nJobs int
	y0    []float64    // y_j(t) per modelled job
	work  []float64    // W_j per modelled job
	gain  []Gain       // the gains the model uses (0 for a phase that cannot progress)
	ref   [][]float64  // y^ref per modelled job and step, work units
	dcoef [][]float64  // deadline row coefficients per block column (percent per resource unit)
	ub    [][2]float64 // per modelled job: the bounds of u^m and u^r in every interval
}

// Allocation returns the control action, the allocation of the first interval
// u_j(t) = (u^m_j(t), u^r_j(t)), one per State.Jobs entry (zero for jobs not modelled).
// Values within rounding of 0 below are returned as 0.
func (h *Handles) Allocation(x []float64) []Alloc {
	out := make([]Alloc, h.nJobs)
	for m, j := range h.Jobs {
		out[j] = Alloc{Map: math.Max(0, x[h.Map[m][0].Index()]), Reduce: math.Max(0, x[h.Reduce[m][0].Index()])}
	}
	return out
}

// Plan returns the whole planned control sequence u_j(t+k), k < H_c, per State.Jobs entry.
func (h *Handles) Plan(x []float64) [][]Alloc {
	out := make([][]Alloc, h.nJobs)
	for j := range out {
		out[j] = make([]Alloc, h.Hc)
	}
	for m, j := range h.Jobs {
		for k := range h.Hc {
			out[j][k] = Alloc{Map: math.Max(0, x[h.Map[m][k].Index()]), Reduce: math.Max(0, x[h.Reduce[m][k].Index()])}
		}
	}
	return out
}

// Trajectory returns the predicted progress y_j(t+i), i = 1 … H_p, in work units, per
// State.Jobs entry, under the model's linear progress law with the control held after
// H_c. It is not clipped at W_j (see the package documentation); jobs not modelled stay
// at their progress.
func (h *Handles) Trajectory(x []float64, s *State) [][]float64 {
	out := h.flat(s)
	for m, j := range h.Jobs {
		y := h.y0[m]
		for i := range h.Hp {
			k := min(i, h.Hc-1)
			y += h.gain[m].Map*x[h.Map[m][k].Index()] + h.gain[m].Reduce*x[h.Reduce[m][k].Index()]
			out[j][i] = y
		}
	}
	return out
}

// Reference returns y^ref_j(t+i), i = 1 … H_p, per State.Jobs entry (work units).
func (h *Handles) Reference(s *State) [][]float64 {
	out := h.flat(s)
	for m, j := range h.Jobs {
		copy(out[j], h.ref[m])
	}
	return out
}

func (h *Handles) flat(s *State) [][]float64 {
	out := make([][]float64, h.nJobs)
	for j := range out {
		out[j] = make([]float64, h.Hp)
		for i := range out[j] {
			out[j][i] = s.Jobs[j].Progress
		}
	}
	return out
}

// Shortfall returns, per State.Jobs entry, how far the plan x leaves each job short of
// its work at t_soft, in percent of the work (0 for jobs whose t_soft is not inside
// the prediction window, or that finish in time) — with deadlines off as well. It is
// computed from the allocations, not from a slack.
func (h *Handles) Shortfall(x []float64) []float64 {
	out := make([]float64, h.nJobs)
	for m, j := range h.Jobs {
		if h.dcoef[m] == nil {
			continue
		}
		y := 100 * h.y0[m] / h.work[m]
		for c, v := range h.dcoef[m] {
			y += v * x[h.col(m, c).Index()]
		}
		out[j] = math.Max(0, 100-y)
	}
	return out
}

// AllowShortfall relaxes the deadline rows of a BuildRHC model m to progress at t_soft
// ≥ 100 − shortfall[j] percent of the work (shortfall per State.Jobs entry; entries of
// jobs without a row are ignored). SolveRHC passes the least achievable shortfall.
func (h *Handles) AllowShortfall(m *model.Model, shortfall []float64) error {
	if len(shortfall) != h.nJobs {
		return fmt.Errorf("rds: %d shortfalls for %d jobs", len(shortfall), h.nJobs)
	}
	for mi, j := range h.Jobs {
		if !h.Deadline[mi].Valid() {
			continue
		}
		sf := shortfall[j]
		if math.IsNaN(sf) || sf < 0 {
			return fmt.Errorf("rds: shortfall of job %d is %g", j, sf)
		}
		m.SetConstrBounds(h.Deadline[mi], 100-100*h.y0[mi]/h.work[mi]-sf, model.Inf)
	}
	return m.Err()
}

// col is block column c (2k for u^m_k, 2k+1 for u^r_k) of modelled job m.
func (h *Handles) col(m, c int) model.Var {
	if c%2 == 0 {
		return h.Map[m][c/2]
	}
	return h.Reduce[m][c/2]
}

// Active reports whether job j of the state arrived by s.Time and has work left, i.e.
// whether BuildRHC models it.
func Active(s *State, j int) bool {
	job := &s.Jobs[j]
	return job.Arrival <= s.Time && job.Remaining() > 0
}

// BuildRHC builds the receding-horizon control problem of rds.txt eq. 3 for the state
// and the capacity forecast r̂_a(t), …, r̂_a(t+H_p−1): a convex QP in the map and reduce
// allocations of every active job over the control horizon, minimizing
//
//	Σ_{i=1..H_p} Σ_j ω_j δ_j(t+i) (y%_j(t+i) − y%ref_j(t+i))²
//	  + Σ_{k<H_c} Σ_j (P_k (Δu^m_j(t+k))² + Q_k (Δu^r_j(t+k))²)
//
// subject to the capacity rows, the bounds, and (unless p.Deadlines is DeadlinesOff) a
// hard row per job whose t_soft falls inside the window: progress at t_soft ≥ 100% of
// the work. Those rows can make the model infeasible; SolveRHC first computes the least
// achievable shortfall (BuildShortfall) and relaxes them to it with
// Handles.AllowShortfall. The package documentation states every modelling decision.
// The objective follows model.AddQuadObj's convention (cᵀx + ½xᵀQx + offset after
// Compile); its optimal value is eq. 3's J(t).
func BuildRHC(s *State, forecast []float64, p Params) (*model.Model, *Handles, error) {
	return build(s, forecast, p, false)
}

// BuildShortfall builds the first stage of SolveRHC, a linear program: the least
// weighted deadline shortfall inside the prediction window — the goal of rds.txt eq. 1,
// a penalty ω_j per percent of job j's work still left at t_soft —
//
//	minimize  Σ_j ω_j σ_j
//	s.t.      progress_j(t_soft) + σ_j ≥ 100%,  σ_j ≥ 0,  the capacity rows and bounds,
//
// over the jobs whose t_soft falls inside the window. Only its optimal σ matters; the
// allocation part is not unique and is discarded.
func BuildShortfall(s *State, forecast []float64, p Params) (*model.Model, *Handles, error) {
	return build(s, forecast, p, true)
}

func build(s *State, forecast []float64, p Params, stage1 bool) (*model.Model, *Handles, error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	hp, hc := p.PredictionHorizon, p.ControlHorizon
	if cells := len(s.Jobs) * 4 * hc * hc; cells > MaxHessianCells {
		return nil, nil, fmt.Errorf("rds: %d jobs with a control horizon of %d need %d Hessian cells, at most %d allowed",
			len(s.Jobs), hc, cells, MaxHessianCells)
	}
	if len(forecast) < hp {
		return nil, nil, fmt.Errorf("rds: forecast has %d intervals, the prediction horizon needs %d", len(forecast), hp)
	}
	rmax := 0.0
	for i, r := range forecast[:hp] {
		if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
			return nil, nil, fmt.Errorf("rds: forecast[%d] = %g: capacities must be finite and >= 0", i, r)
		}
		rmax = math.Max(rmax, r)
	}
	h := &Handles{Hp: hp, Hc: hc, nJobs: len(s.Jobs), Forecast: append([]float64(nil), forecast[:hp]...)}
	var shapes []jobShape
	for j := range s.Jobs {
		if !Active(s, j) {
			continue
		}
		sh := shapeOf(&s.Jobs[j], s, p)
		if stage1 && sh.dcoef == nil {
			continue // no deadline inside the window: no part in the shortfall LP
		}
		h.Jobs = append(h.Jobs, j)
		shapes = append(shapes, sh)
	}
	if len(h.Jobs) == 0 {
		return nil, nil, ErrNoJobs
	}
	nm := len(h.Jobs)
	name := "rds-rhc"
	if stage1 {
		name = "rds-shortfall"
	}
	m := model.New(name + "-t" + strconv.FormatFloat(s.Time, 'g', -1, 64))
	h.Map, h.Reduce = make([][]model.Var, nm), make([][]model.Var, nm)
	h.Slack, h.Deadline = make([]model.Var, nm), make([]model.Constr, nm)
	h.y0, h.work, h.gain = make([]float64, nm), make([]float64, nm), make([]Gain, nm)
	h.ref, h.dcoef, h.ub = make([][]float64, nm), make([][]float64, nm), make([][2]float64, nm)

	nb := 2 * hc
	blocks := make([]jobBlock, nm)
	var obj model.Expr
	for mi, j := range h.Jobs {
		job := &s.Jobs[j]
		b := &blocks[mi]
		b.init(nb)
		sh := &shapes[mi]
		g, ubM, ubR := sh.g, sh.ubM, sh.ubR
		h.ub[mi] = [2]float64{ubM, ubR}
		h.gain[mi], h.y0[mi], h.work[mi] = g, job.Progress, job.Work
		h.Map[mi], h.Reduce[mi] = make([]model.Var, hc), make([]model.Var, hc)
		for k := range hc {
			ks := strconv.Itoa(k)
			um, ur := ubM, ubR
			if stage1 {
				// An allocation after t_soft is worth nothing in the shortfall LP.
				if sh.dcoef[2*k] == 0 {
					um = 0
				}
				if sh.dcoef[2*k+1] == 0 {
					ur = 0
				}
			}
			h.Map[mi][k] = m.Continuous(0, um, "um["+job.ID+","+ks+"]")
			h.Reduce[mi][k] = m.Continuous(0, ur, "ur["+job.ID+","+ks+"]")
			b.ub[2*k], b.ub[2*k+1] = math.Min(um, rmax), math.Min(ur, rmax)
		}
		h.ref[mi] = Reference(job, s.Time, s.Interval, hp)
		if !stage1 {
			// Tracking: Σ_i ω_j δ_j(t+i) (y%_j(t+i) − y%ref_j(t+i))², progress in percent.
			scale := 100 / job.Work
			a := make([]float64, nb)
			for i := range hp {
				k := min(i, hc-1) // the control in force during step i
				a[2*k] += scale * g.Map
				a[2*k+1] += scale * g.Reduce
				w := job.Priority * Decay(job, s.Time+float64(i+1)*s.Interval, s.Interval)
				if w != 0 {
					b.addSquare(w, a, scale*(job.Progress-h.ref[mi][i]))
				}
			}
		}
		// Control penalties: P_k (Δu^m_j(t+k))² + Q_k (Δu^r_j(t+k))² (eq. 3 only).
		for k := 0; k < hc && !stage1; k++ {
			for kind, pen := range []float64{penaltyAt(p.MapPenalty, k), penaltyAt(p.ReducePenalty, k)} {
				if pen == 0 {
					continue
				}
				col := 2*k + kind
				if k == 0 {
					prev := job.Prev.Map
					if kind == 1 {
						prev = job.Prev.Reduce
					}
					b.addDiff(pen, col, -1, prev)
				} else {
					b.addDiff(pen, col, col-2, 0)
				}
			}
		}
		// Terms of a column fixed at 0 (a kind the job cannot use) are 0 at every
		// feasible point; only the constants they produced (in c0) remain, and a
		// diagonal entry, which changes nothing at 0 but keeps the Hessian positive
		// definite (HiGHS's QP solver is several times slower without it).
		fixed := func(c int) bool {
			if c%2 == 0 {
				return h.ub[mi][0] == 0 || (stage1 && sh.dcoef[c] == 0)
			}
			return h.ub[mi][1] == 0 || (stage1 && sh.dcoef[c] == 0)
		}
		for r := range nb {
			if fixed(r) {
				if !stage1 { // the shortfall model is an LP
					m.AddQuadObj(h.col(mi, r), h.col(mi, r), math.Max(b.quad[r*nb+r], 1))
				}
				continue
			}
			if b.lin[r] != 0 {
				obj.AddTerm(h.col(mi, r), b.lin[r])
			}
			if b.quad[r*nb+r] != 0 {
				m.AddQuadObj(h.col(mi, r), h.col(mi, r), b.quad[r*nb+r])
			}
			for c := r + 1; c < nb; c++ {
				if q := b.quad[r*nb+c]; q != 0 && !fixed(c) {
					m.AddQuadObj(h.col(mi, r), h.col(mi, c), 2*q)
				}
			}
		}
		obj.AddConst(b.c0)
		h.dcoef[mi] = sh.dcoef
	}

	// Deadline rows: progress at t_soft, in percent, ≥ 100 (+ σ_j in stage 1).
	for mi, j := range h.Jobs {
		coef := h.dcoef[mi]
		if coef == nil || (p.Deadlines == DeadlinesOff && !stage1) {
			continue
		}
		job := &s.Jobs[j]
		var e model.Expr
		for c, v := range coef {
			if v != 0 {
				e.AddTerm(h.col(mi, c), v)
			}
		}
		if stage1 {
			sv := m.Continuous(0, model.Inf, "short["+job.ID+"]")
			e.AddTerm(sv, 1)
			h.Slack[mi] = sv
			obj.AddTerm(sv, job.Priority)
		}
		h.Deadline[mi] = m.AddGe(e, 100-100*job.Progress/job.Work, "deadline["+job.ID+"]")
	}
	m.Minimize(obj)

	// Capacity: Σ_j (u^m_j + u^r_j)(t+k) ≤ r̂_a(t+k) for k < H_c−1; the last move is held
	// for the rest of the prediction window, so it must fit every interval from t+H_c−1 on.
	h.Capacity, h.CapacityBound = make([]model.Constr, hc), make([]float64, hc)
	for k := range hc {
		bound := forecast[k]
		if k == hc-1 {
			for i := k; i < hp; i++ {
				bound = math.Min(bound, forecast[i])
			}
		}
		var e model.Expr
		for mi := range h.Jobs {
			e.AddTerm(h.Map[mi][k], 1)
			e.AddTerm(h.Reduce[mi][k], 1)
		}
		h.CapacityBound[k] = bound
		h.Capacity[k] = m.AddLe(e, bound, "capacity["+strconv.Itoa(k)+"]")
	}
	// Per-kind capacity (State.MapCapacity, ReduceCapacity), held like the total.
	for kind, kf := range [2][]float64{s.MapCapacity, s.ReduceCapacity} {
		h.KindBound[kind] = make([]float64, hc)
		for k := range hc {
			h.KindBound[kind][k] = math.Inf(1)
		}
		if kf == nil {
			continue
		}
		if len(kf) < hp {
			return nil, nil, fmt.Errorf("rds: %s capacity forecast has %d intervals, the prediction horizon needs %d",
				[2]string{"map", "reduce"}[kind], len(kf), hp)
		}
		h.KindCapacity[kind] = make([]model.Constr, hc)
		for k := range hc {
			bound := kf[k]
			if k == hc-1 {
				bound = slices.Min(kf[k:hp])
			}
			var e model.Expr
			for mi := range h.Jobs {
				if kind == 0 {
					e.AddTerm(h.Map[mi][k], 1)
				} else {
					e.AddTerm(h.Reduce[mi][k], 1)
				}
			}
			h.KindBound[kind][k] = bound
			h.KindCapacity[kind][k] = m.AddLe(e, bound, [2]string{"map", "reduce"}[kind]+"-capacity["+strconv.Itoa(k)+"]")
		}
	}
	if err := m.Err(); err != nil {
		return nil, nil, fmt.Errorf("rds: building the RHC model: %w", err)
	}
	return m, h, nil
}

// jobShape is what the model makes of one job before any variable exists: the gains it
// uses (0 for a kind the phase or a zero cap rules out), the per-interval upper bounds,
// and the deadline row's coefficients (nil without a row).
type jobShape struct {
	g        Gain
	ubM, ubR float64
	dcoef    []float64
}

func shapeOf(job *Job, s *State, p Params) jobShape {
	g := Gain{Map: math.Max(0, job.Gain.Map), Reduce: math.Max(0, job.Gain.Reduce)}
	ubM, ubR := upperBounds(job, g)
	switch job.Phase {
	case PhaseMap:
		g.Reduce, ubR = 0, 0
	case PhaseReduce:
		g.Map, ubM = 0, 0
	}
	// A kind of resource the job cannot hold (cap 0) does not move its progress: its
	// column is fixed at 0 and takes no part in the tracking term or a deadline row.
	if ubM == 0 {
		g.Map = 0
	}
	if ubR == 0 {
		g.Reduce = 0
	}
	// The coefficients are kept with deadlines off too: Handles.Shortfall reports them.
	return jobShape{g: g, ubM: ubM, ubR: ubR,
		dcoef: deadlineCoef(job, s.Time, s.Interval, p.PredictionHorizon, p.ControlHorizon, g)}
}

// HasDeadlines reports whether some modelled job has a deadline row.
func (h *Handles) HasDeadlines() bool {
	for _, d := range h.Deadline {
		if d.Valid() {
			return true
		}
	}
	return false
}

// upperBounds caps a job's map and reduce allocation in one interval: the state's caps,
// and never more than would finish the remaining work within the interval (more cannot
// be useful).
func upperBounds(job *Job, g Gain) (ubM, ubR float64) {
	ubM, ubR = job.MaxMap, job.MaxReduce
	if rem := job.Remaining(); rem > 0 {
		if g.Map > 0 {
			ubM = math.Min(ubM, rem/g.Map)
		}
		if g.Reduce > 0 {
			ubR = math.Min(ubR, rem/g.Reduce)
		}
	}
	return ubM, ubR
}

// jobBlock accumulates one job's part of the objective, xᵀAx + lᵀx + c0 over its 2·H_c
// variables (u^m_0, u^r_0, u^m_1, …), and a bound on its gradient over the box.
type jobBlock struct {
	n    int
	quad []float64 // A, row-major, symmetric
	lin  []float64
	c0   float64
	ub   []float64 // effective upper bounds, for the gradient bound
	gb   []float64 // |∂/∂x_c| ≤ gb[c] over 0 ≤ x ≤ ub
}

func (b *jobBlock) init(n int) {
	b.n = n
	b.quad = make([]float64, n*n)
	b.lin = make([]float64, n)
	b.ub = make([]float64, n)
	b.gb = make([]float64, n)
}

// addSquare adds w·(aᵀx + c)².
func (b *jobBlock) addSquare(w float64, a []float64, c float64) {
	emax := math.Abs(c) // bound on |aᵀx + c| over 0 ≤ x ≤ ub
	for r, ar := range a {
		if ar == 0 {
			continue
		}
		emax += math.Abs(ar) * b.ub[r]
		b.lin[r] += 2 * w * c * ar
		for q, aq := range a {
			if aq != 0 {
				b.quad[r*b.n+q] += w * ar * aq
			}
		}
	}
	b.c0 += w * c * c
	for r, ar := range a {
		b.gb[r] += 2 * w * math.Abs(ar) * emax
	}
}

// addDiff adds w·(x_col − x_other)², or w·(x_col − c)² when other is −1.
func (b *jobBlock) addDiff(w float64, col, other int, c float64) {
	b.quad[col*b.n+col] += w
	dmax := b.ub[col] + math.Abs(c)
	if other >= 0 {
		b.quad[other*b.n+other] += w
		b.quad[col*b.n+other] -= w
		b.quad[other*b.n+col] -= w
		dmax += b.ub[other]
		b.gb[other] += 2 * w * dmax
	} else {
		b.lin[col] -= 2 * w * c
		b.c0 += w * c * c
	}
	b.gb[col] += 2 * w * dmax
}

// gradBound bounds |∂f/∂x| over the block's box.
func (b *jobBlock) gradBound() float64 {
	g := 0.0
	for _, v := range b.gb {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			g = math.Max(g, v)
		}
	}
	return g
}

// deadlineCoef expresses the progress at t_soft in percent of the work as coefficients
// on the job's block, interpolating linearly inside the interval that contains t_soft
// (the rate is constant within an interval). It is nil when t_soft is not inside the
// prediction window (t, t + H_p·L] or the job cannot progress.
func deadlineCoef(job *Job, t, interval float64, hp, hc int, g Gain) []float64 {
	tau := (job.Soft - t) / interval
	if !(tau > 0) || tau > float64(hp)+1e-9 || (g.Map == 0 && g.Reduce == 0) {
		return nil
	}
	id := int(math.Ceil(tau - 1e-9)) // the step whose interval contains t_soft, 1-based
	id = max(1, min(id, hp))
	frac := math.Min(1, tau-float64(id-1))
	scale := 100 / job.Work
	coef := make([]float64, 2*hc)
	for i := range id {
		k := min(i, hc-1)
		f := 1.0
		if i == id-1 {
			f = frac
		}
		coef[2*k] += f * scale * g.Map
		coef[2*k+1] += f * scale * g.Reduce
	}
	return coef
}
