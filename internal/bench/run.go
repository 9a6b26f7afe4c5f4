package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// DefaultMIPGap is the relative MIP gap the harness asks of MIP solvers: far below
// AgreementTol, so that "optimal" answers of different solvers can be compared.
const DefaultMIPGap = 1e-9

// Config controls Run.
type Config struct {
	// Backends are the solver backends to run on every case whose class they solve, in
	// this order (the rows of a case follow it, then the case's own methods).
	Backends []Backend
	// Repeat is the number of timed runs per solver and case (min, median and max are
	// reported); Warmup the untimed runs before them. Repeat < 1 means 1.
	Repeat, Warmup int
	// TimeLimit bounds each run (0: none). A run that hits it is not repeated.
	TimeLimit time.Duration
	// Shift is the shifted geometric mean's shift; 0 means DefaultShift.
	Shift time.Duration
	// MIPGap is passed to MIP solves; 0 means DefaultMIPGap.
	MIPGap float64
	// Clock is where times are read; nil means SystemClock.
	Clock Clock
	// Progress, when set, is called before each case with the number of cases done, the
	// total and the case about to run, and once at the end with done == total.
	Progress func(done, total int, current string)
}

// Row is one solver's (or method's) result on one case.
type Row struct {
	Instance string
	Family   string
	Class    Class
	N        int
	Size     Size
	Solver   string
	Status   string
	// Objective is NaN when the run has none.
	Objective float64
	// Times are the timed runs' wall times; Wall and CPU summarize them (CPU: the
	// process's CPU time over each run).
	Times []time.Duration
	Wall  Spread
	CPU   Spread
	// Metrics of the last timed run (iterations, nodes, layers …).
	Metrics map[string]float64
	// Agree: the run reached a conclusive answer and it agrees with the reference (when
	// the case has one) or else with every other conclusive row of the case; false when
	// it did not reach one or disagrees; nil when there is nothing to compare it with.
	Agree *bool
	// Solved is true when the run counts as solved: conclusive, and not in disagreement.
	Solved bool
	// Ratio is the median time over the fastest solved row's of the case; NaN when this
	// row is not solved.
	Ratio   float64
	Fastest bool
	Note    string
	// Abandoned is set when the run hit the time limit on a backend that cannot be
	// stopped (Backend.TimeoutNote): it keeps a core busy for what runs after it.
	Abandoned bool
}

// Report is the outcome of Run.
type Report struct {
	Rows []Row
	// Summary compares the solvers of each class (see Summarize).
	Summary []Summary
	// Cases is the number of cases in the suite, Finished how many ran to the end.
	Cases, Finished int
	// Interrupted is true when the context was cancelled before the suite finished; the
	// rows are those that finished.
	Interrupted bool
	// Disagreements counts rows whose conclusive answer disagrees with the reference or
	// with another solver's.
	Disagreements int
	// Abandoned counts runs left computing in the background (Row.Abandoned).
	Abandoned int
}

// Run runs every case with every backend that solves its class and with the case's own
// methods, in order, and judges the answers. It returns when the suite is done or ctx is
// cancelled; then Report.Interrupted is set and the rows are those that finished (the run
// in flight is dropped).
func Run(ctx context.Context, cases []Case, cfg Config) *Report {
	if cfg.Clock == nil {
		cfg.Clock = SystemClock{}
	}
	cfg.Repeat = max(cfg.Repeat, 1)
	cfg.Warmup = max(cfg.Warmup, 0)
	if cfg.MIPGap == 0 {
		cfg.MIPGap = DefaultMIPGap
	}
	rep := &Report{Cases: len(cases)}
	for i, c := range cases {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		if cfg.Progress != nil {
			cfg.Progress(i, len(cases), c.Name)
		}
		rows, complete := runCase(ctx, c, cfg)
		judge(rows.rows, rows.ref)
		rep.Rows = append(rep.Rows, rows.rows...)
		if !complete {
			rep.Interrupted = true
			break
		}
		rep.Finished++
	}
	if cfg.Progress != nil && !rep.Interrupted {
		cfg.Progress(len(cases), len(cases), "")
	}
	for _, r := range rep.Rows {
		if r.Agree != nil && !*r.Agree && conclusive(r.Status) {
			rep.Disagreements++
		}
		if r.Abandoned {
			rep.Abandoned++
		}
	}
	rep.Summary = Summarize(rep.Rows, cfg.TimeLimit, cfg.Shift)
	return rep
}

type caseRows struct {
	rows []Row
	ref  *Reference
}

// runner is one solver or method prepared for a case: setup (not timed) returns the
// timed function.
type runner struct {
	name        string
	timeoutNote string
	setup       func() (func(ctx context.Context) (Outcome, error), error)
}

// runCase runs one case; complete is false when ctx was cancelled during it.
func runCase(ctx context.Context, c Case, cfg Config) (caseRows, bool) {
	base := Row{Instance: c.Name, Family: c.Family, Class: c.Class, N: c.N, Objective: math.NaN(), Ratio: math.NaN()}
	inst, err := c.Prepare(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return caseRows{}, false
		}
		r := base
		r.Solver, r.Status, r.Note = "-", "error", fmt.Sprintf("preparing the instance: %v", err)
		return caseRows{rows: []Row{r}}, true
	}
	base.Size = inst.Size
	out := caseRows{ref: inst.Reference}
	rns := runners(inst, cfg)
	if len(rns) == 0 {
		r := base
		r.Solver, r.Status, r.Note = "-", "skipped", fmt.Sprintf("no selected solver solves %s problems", c.Class)
		return caseRows{rows: []Row{r}}, true
	}
	for _, rn := range rns {
		r := base
		r.Solver = rn.name
		if !measure(ctx, rn, cfg, &r) {
			return out, false
		}
		out.rows = append(out.rows, r)
	}
	return out, true
}

// runners lists the backends that can solve the instance's model, then its methods.
func runners(inst *Instance, cfg Config) []runner {
	var out []runner
	if p := inst.Problem; p != nil {
		for _, b := range cfg.Backends {
			if !canSolve(b, p) {
				continue
			}
			opt := solvers.Options{TimeLimit: cfg.TimeLimit}
			if p.HasInteger() {
				opt.MIPGap = cfg.MIPGap
			}
			out = append(out, runner{name: b.Name, timeoutNote: b.TimeoutNote, setup: func() (func(context.Context) (Outcome, error), error) {
				s, err := b.New()
				if err != nil {
					return nil, err
				}
				return func(ctx context.Context) (Outcome, error) { return solveModel(ctx, s, p, opt) }, nil
			}})
		}
	}
	for _, m := range inst.Methods {
		out = append(out, runner{name: m.Name, setup: func() (func(context.Context) (Outcome, error), error) { return m.Run, nil }})
	}
	return out
}

func canSolve(b Backend, p *model.Problem) bool {
	if p.HasQuadratic() && !b.Caps.QP {
		return false
	}
	if p.HasInteger() {
		return b.Caps.MIP
	}
	return b.Caps.LP || (p.HasQuadratic() && b.Caps.QP)
}

func solveModel(ctx context.Context, s solvers.Solver, p *model.Problem, opt solvers.Options) (Outcome, error) {
	sol, err := s.Solve(ctx, p, opt)
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{Status: sol.Status.String(), Objective: math.NaN(),
		Metrics: map[string]float64{"iterations": float64(sol.Iterations)}}
	if p.HasInteger() {
		o.Metrics["nodes"] = float64(sol.Nodes)
	}
	if sol.Status == solvers.Optimal {
		o.Objective = sol.Objective
	}
	return o, nil
}

// measure fills r with the warm-up and timed runs of rn. It returns false when ctx was
// cancelled (r is then incomplete and dropped).
func measure(ctx context.Context, rn runner, cfg Config, r *Row) bool {
	run, err := rn.setup()
	if err != nil {
		r.Status, r.Note = "error", err.Error()
		return true
	}
	once := func() (Outcome, time.Duration, time.Duration, error) {
		rctx, cancel := ctx, context.CancelFunc(func() {})
		if cfg.TimeLimit > 0 {
			rctx, cancel = context.WithTimeout(ctx, cfg.TimeLimit)
		}
		defer cancel()
		cpu0, t0 := cfg.Clock.CPU(), cfg.Clock.Now()
		o, err := safeRun(rctx, run)
		wall, cpu := cfg.Clock.Now().Sub(t0), cfg.Clock.CPU()-cpu0
		if err == nil && o.Status == "" {
			err = errors.New("no status")
		}
		if err == nil && rctx.Err() == context.DeadlineExceeded && !conclusive(o.Status) {
			o.Status = solvers.TimeLimit.String()
		}
		return o, wall, cpu, err
	}
	for range cfg.Warmup {
		o, _, _, err := once()
		if ctx.Err() != nil {
			return false
		}
		if err != nil || !conclusive(o.Status) {
			break
		}
	}
	var cpus []time.Duration
	for i := range cfg.Repeat {
		o, wall, cpu, err := once()
		if ctx.Err() != nil {
			return false
		}
		r.Times = append(r.Times, wall)
		cpus = append(cpus, cpu)
		if err != nil {
			r.Status, r.Note, r.Objective = "error", err.Error(), math.NaN()
			break
		}
		if i == 0 {
			r.Status, r.Objective, r.Note = o.Status, o.Objective, o.Note
		} else if o.Status != r.Status || (conclusive(o.Status) && !sameObjective(o.Objective, r.Objective)) {
			r.Note = joinNote(r.Note, fmt.Sprintf("run %d answered %s %s", i+1, o.Status, fmtObjective(o.Objective)))
		}
		r.Metrics = o.Metrics
		if !conclusive(o.Status) {
			break // a time-out or failure is not repeated
		}
	}
	if r.Status == solvers.TimeLimit.String() && rn.timeoutNote != "" {
		r.Note = joinNote(r.Note, rn.timeoutNote)
		r.Abandoned = true
	}
	r.Wall, r.CPU = SpreadOf(r.Times), SpreadOf(cpus)
	return true
}

// safeRun runs f, turning a panic into an error so that one broken solver does not end
// the benchmark.
func safeRun(ctx context.Context, f func(context.Context) (Outcome, error)) (o Outcome, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	return f(ctx)
}

func sameObjective(a, b float64) bool {
	return (math.IsNaN(a) && math.IsNaN(b)) || Agree(a, b)
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func fmtObjective(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.10g", v)
}

// conclusive says whether a status is an answer: an optimum, a proof of infeasibility or
// unboundedness, or a computed result.
func conclusive(status string) bool {
	switch status {
	case solvers.Optimal.String(), solvers.Infeasible.String(), solvers.Unbounded.String(),
		solvers.InfeasibleOrUnbounded.String(), StatusDone:
		return true
	}
	return false
}

func hasObjective(status string) bool {
	return status == solvers.Optimal.String() || status == StatusDone
}

// consistent says whether two conclusive answers can both be right.
func consistent(s1 string, o1 float64, s2 string, o2 float64) bool {
	switch {
	case hasObjective(s1) && hasObjective(s2):
		return Agree(o1, o2)
	case hasObjective(s1) || hasObjective(s2):
		return false
	case s1 == s2:
		return true
	}
	// infeasible_or_unbounded is consistent with either.
	iou := solvers.InfeasibleOrUnbounded.String()
	return s1 == iou || s2 == iou
}

// judge sets Agree, Solved, Ratio and Fastest on the rows of one case.
func judge(rows []Row, ref *Reference) {
	var refStatus string
	refObj := math.NaN()
	if ref != nil {
		refStatus, refObj = ref.Status.String(), ref.Objective
	}
	for i := range rows {
		r := &rows[i]
		if r.Solver == "-" {
			continue // the case did not run: nothing was answered
		}
		if !conclusive(r.Status) {
			r.Agree = boolPtr(false)
			continue
		}
		if ref != nil {
			ok := consistent(r.Status, r.Objective, refStatus, refObj)
			r.Agree = boolPtr(ok)
			if !ok {
				r.Note = joinNote(r.Note, "disagrees with the reference "+refStatus+" "+fmtObjective(refObj))
			}
			continue
		}
		others := 0
		ok := true
		var against []string
		for j := range rows {
			if j == i || !conclusive(rows[j].Status) {
				continue
			}
			others++
			if !consistent(r.Status, r.Objective, rows[j].Status, rows[j].Objective) {
				ok = false
				against = append(against, rows[j].Solver)
			}
		}
		if others > 0 {
			r.Agree = boolPtr(ok)
			if !ok {
				r.Note = joinNote(r.Note, fmt.Sprintf("disagrees with %v", against))
			}
		}
	}
	fastest := -1
	for i := range rows {
		r := &rows[i]
		r.Solved = conclusive(r.Status) && (r.Agree == nil || *r.Agree)
		if r.Solved && (fastest < 0 || r.Wall.Median < rows[fastest].Wall.Median) {
			fastest = i
		}
	}
	if fastest < 0 {
		return
	}
	best := max(rows[fastest].Wall.Median, time.Nanosecond)
	for i := range rows {
		if rows[i].Solved {
			rows[i].Ratio = float64(max(rows[i].Wall.Median, time.Nanosecond)) / float64(best)
			rows[i].Fastest = rows[i].Wall.Median == rows[fastest].Wall.Median
		}
	}
}

func boolPtr(b bool) *bool { return &b }
