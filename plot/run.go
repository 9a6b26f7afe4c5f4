package plot

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// Run is one seed of `coraopt simulate` to draw.
type Run struct {
	Workload *workload.Workload
	Seed     uint64
	// Policies are the runs in the order the run lists its policies: a policy's colour
	// and dash pattern are those of its position here, in every figure.
	Policies []PolicyRun
	// Bound is the offline bound of the seed, or nil.
	Bound *sim.BoundResult
}

// PolicyRun is one policy's run.
type PolicyRun struct {
	Metrics *sim.Metrics
	// Placements are the run's tasks in start order (sim.Options.Record), for the
	// Gantt chart and the utilization curves.
	Placements []sim.Placement
}

// RunOptions control WriteRun.
type RunOptions struct {
	// GanttTasks caps the tasks a Gantt chart draws, the first by start time; 0 draws
	// every task.
	GanttTasks int
	// GanttMore says how to draw every task; a chart that stops short says it in its
	// title.
	GanttMore string
}

// UtilizationWindows is how many equal windows a utilization curve averages over.
const UtilizationWindows = 60

// RunFigures are a run's figures: utility-cdf (with the bound), bounds (each policy's
// sum and minimum of utilities against the sum bound and the lexmax bound's minimum,
// with a bound), delta-box (Δ =
// response − deadline per job class, when jobs have deadlines), gantt-<policy> (tasks
// on slots), utilization-<pool> (busy share over time per policy, with the capacity)
// and, for a workload with workflows, workspan.
func RunFigures(r *Run, opt RunOptions) ([]NamedFigure, error) {
	var figs []NamedFigure
	add := func(name string, f *Figure, err error) error {
		if err != nil {
			return fmt.Errorf("plot: %s: %w", name, err)
		}
		figs = append(figs, NamedFigure{name, f})
		return nil
	}
	w := r.Workload
	f, err := UtilityCDF(r.cdfSeries(), fmt.Sprintf("%s: utility CDF (seed %d)", w.Name, r.Seed))
	if err := add("utility-cdf", f, err); err != nil {
		return nil, err
	}
	if r.Bound != nil {
		f, err := r.bounds()
		if err := add("bounds", f, err); err != nil {
			return nil, err
		}
	}
	if groups := r.deltaGroups(); len(groups) > 0 {
		f, err := DeltaBoxes(groups, fmt.Sprintf("%s: response − deadline by job class (seed %d)", w.Name, r.Seed))
		if err := add("delta-box", f, err); err != nil {
			return nil, err
		}
	}
	for _, pr := range r.Policies {
		f, err := r.gantt(pr, opt)
		if err := add("gantt-"+pr.Metrics.Name, f, err); err != nil {
			return nil, err
		}
	}
	for pool, pl := range w.Cluster.Pools {
		f, err := r.utilization(pool)
		if err := add("utilization-"+pl.Name, f, err); err != nil {
			return nil, err
		}
	}
	if len(r.Policies) > 0 && r.Policies[0].Metrics.WorkflowMetrics != nil {
		f, err := r.workspans()
		if err := add("workspan", f, err); err != nil {
			return nil, err
		}
	}
	return figs, nil
}

// WriteRun writes RunFigures into dir, as SVG and PNG.
func WriteRun(dir string, r *Run, opt RunOptions) error {
	figs, err := RunFigures(r, opt)
	if err != nil {
		return err
	}
	return SaveAll(dir, figs)
}

// cdfSeries are the policies' sorted utilities in their colours, then the bound's.
func (r *Run) cdfSeries() []Series {
	var out []Series
	for k, pr := range r.Policies {
		out = append(out, Series{Name: pr.Metrics.Name, Values: pr.Metrics.SortedUtilities, Style: PolicyLine(k)})
	}
	if b := r.Bound; b != nil {
		out = append(out, Series{Name: fmt.Sprintf("lexmax bound (slot %g s)", b.SlotSeconds), Values: b.SortedUtilities, Style: BoundLine})
	}
	return out
}

// classOrder orders the completion-time classes (workload.CTClass) in the box plot.
var classOrder = []string{"critical", "sensitive", "insensitive", "all jobs"}

// deltaGroups are Δ = completion − deadline per job class and policy, of the jobs with a
// deadline that completed.
func (r *Run) deltaGroups() []BoxGroup {
	w := r.Workload
	var classes []string
	for _, j := range w.Jobs {
		if c := workload.CTClass(j.Utility); !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
	}
	slices.SortFunc(classes, func(a, b string) int { return cmp.Compare(slices.Index(classOrder, a), slices.Index(classOrder, b)) })
	var groups []BoxGroup
	any := false
	for _, c := range classes {
		g := BoxGroup{Class: c}
		for k, pr := range r.Policies {
			s := Series{Name: pr.Metrics.Name, Style: PolicyLine(k)}
			for i, jm := range pr.Metrics.Jobs {
				if workload.CTClass(w.Jobs[i].Utility) == c && jm.Deadline != nil && jm.Completion != nil {
					s.Values = append(s.Values, *jm.Completion-*jm.Deadline)
				}
			}
			any = any || len(s.Values) > 0
			g.Series = append(g.Series, s)
		}
		groups = append(groups, g)
	}
	if !any || len(r.Policies) == 0 {
		return nil
	}
	return groups
}

// gantt is one policy's tasks on the cluster's slots, up to opt.GanttTasks of them.
func (r *Run) gantt(pr PolicyRun, opt RunOptions) (*Figure, error) {
	w := r.Workload
	rows, rowOf := ganttRows(w)
	shown := pr.Placements
	if opt.GanttTasks > 0 && len(shown) > opt.GanttTasks {
		shown = shown[:opt.GanttTasks]
	}
	colour, legend, by := ganttColours(w)
	bars := make([]Bar, len(shown))
	for k, pl := range shown {
		bars[k] = Bar{Row: rowOf[[3]int{pl.Worker, pl.Pool, pl.Slot}], Start: pl.Start, End: pl.Finish, Colour: colour(pl.Job)}
	}
	name := pr.Metrics.Name
	title := fmt.Sprintf("%s under %s: all %d tasks on slots (colour = %s, seed %d)", w.Name, name, len(shown), by, r.Seed)
	if len(shown) < len(pr.Placements) {
		title = fmt.Sprintf("%s under %s: the first %d of %d tasks (colour = %s, seed %d)", w.Name, name, len(shown), len(pr.Placements), by, r.Seed)
		if opt.GanttMore != "" {
			title += "; " + opt.GanttMore
		}
	}
	f, err := SimGantt(bars, rows, title)
	if err != nil {
		return nil, err
	}
	for _, e := range legend {
		f.key(e.name, e.colour, swatch{e.colour})
	}
	return f, nil
}

// ganttRows names one row per slot: worker, pool, slot.
func ganttRows(w *workload.Workload) ([]string, map[[3]int]int) {
	var rows []string
	rowOf := map[[3]int]int{}
	wk := 0
	for _, spec := range w.Cluster.Workers {
		for range spec.Count {
			for p, pool := range w.Cluster.Pools {
				for s := range spec.Slots[pool.Name] {
					rowOf[[3]int{wk, p, s}] = len(rows)
					if len(w.Cluster.Workers) == 1 && spec.Count == 1 {
						rows = append(rows, fmt.Sprintf("%s %d", pool.Name, s+1))
					} else {
						rows = append(rows, fmt.Sprintf("w%d %s %d", wk+1, pool.Name, s+1))
					}
				}
			}
			wk++
		}
	}
	return rows, rowOf
}

// ganttColours colours Gantt bars by workflow when the workload has workflows (a job of
// none gets the colour of a workflow of its own) and by job otherwise. A few groups get
// the categorical palette and one legend entry each; many (jobs, mostly) get a
// sequential ramp in workload order — every job its own colour, neighbours alike — and
// a legend of five points along it.
func ganttColours(w *workload.Workload) (colour func(job int) color.Color, legend []legendEntry, by string) {
	var names []string
	group := make([]int, len(w.Jobs))
	if len(w.Workflows) > 0 || slices.ContainsFunc(w.Jobs, func(j workload.Job) bool { return j.Workflow != "" }) {
		by = "workflow"
		index := map[string]int{}
		for _, wf := range w.Workflows {
			index[wf.ID] = len(names)
			names = append(names, wf.ID)
		}
		for i, j := range w.Jobs {
			id := j.Workflow
			if id == "" {
				id = "job " + j.ID
			}
			k, ok := index[id]
			if !ok {
				k = len(names)
				index[id] = k
				names = append(names, id)
			}
			group[i] = k
		}
	} else {
		by = "job, in workload order"
		for i, j := range w.Jobs {
			group[i] = i
			names = append(names, j.ID)
		}
	}
	n := len(names)
	colours := make([]color.Color, n)
	if n <= len(palette) {
		for k := range n {
			colours[k] = PolicyColour(k)
			legend = append(legend, legendEntry{names[k], colours[k]})
		}
	} else {
		for k := range n {
			colours[k] = rampColour(k, n)
		}
		for q := range 5 {
			k := int(math.Round(float64(q) * float64(n-1) / 4))
			legend = append(legend, legendEntry{names[k], colours[k]})
		}
	}
	return func(job int) color.Color { return colours[group[job]] }, legend, by
}

// utilization is one pool's busy share of its slots over time per policy, each curve
// ending with its own run, beside the capacity.
func (r *Run) utilization(pool int) (*Figure, error) {
	w := r.Workload
	end := 1.0
	for _, pr := range r.Policies {
		end = max(end, pr.Metrics.Makespan)
	}
	width := end / UtilizationWindows
	slots := float64(w.Cluster.Pools[pool].Slots)
	series := []Steps{capacitySteps(w, pool, end)}
	for k, pr := range r.Policies {
		s := busyWindows(pr.Placements, pool, slots, width, max(pr.Metrics.Makespan, width/2))
		s.Name, s.Style = pr.Metrics.Name, PolicyLine(k)
		series = append(series, s)
	}
	f, err := StepLines(series, fmt.Sprintf("%s: %s utilization over time, windows of %.4g s (seed %d)", w.Name, w.Cluster.Pools[pool].Name, width, r.Seed), "time (s)", "busy / slots")
	if err != nil {
		return nil, err
	}
	f.Plot.Y.Min, f.Plot.Y.Max = 0, 1.05
	f.Plot.X.Min, f.Plot.X.Max = 0, end
	return f, nil
}

// busyWindows is the mean busy fraction of a pool's slots in windows of the given width
// from 0 to the run's end, the last window cut there: a run's curve stops where the run
// did, instead of falling to 0 until the slowest policy's end.
func busyWindows(placements []sim.Placement, pool int, slots, width, end float64) Steps {
	n := max(1, int(math.Ceil(end/width*(1-1e-12)))) // not a sliver of a window past the end
	bounds := func(k int) (lo, hi float64) {
		if k == n-1 {
			return float64(k) * width, end
		}
		return float64(k) * width, float64(k+1) * width
	}
	busy := make([]float64, n)
	for _, pl := range placements {
		if pl.Pool != pool {
			continue
		}
		for k := min(int(pl.Start/width), n-1); k < n; k++ {
			lo, hi := bounds(k)
			if lo >= pl.Finish {
				break
			}
			busy[k] += max(0, min(pl.Finish, hi)-max(pl.Start, lo))
		}
	}
	var s Steps
	for k := range n {
		lo, hi := bounds(k)
		s.X = append(s.X, lo)
		s.Y = append(s.Y, busy[k]/((hi-lo)*slots))
	}
	s.X = append(s.X, end)
	s.Y = append(s.Y, s.Y[n-1])
	return s
}

// capacitySteps is the pool's capacity in force as a share of its slots, to end.
func capacitySteps(w *workload.Workload, pool int, end float64) Steps {
	p := w.Cluster.Pools[pool]
	slots := float64(p.Slots)
	s := Steps{Name: "capacity", X: []float64{0}, Y: []float64{1}, Style: CapacityLine}
	for _, st := range w.Cluster.Capacity {
		if c, ok := st.Slots[p.Name]; ok && st.Time <= end {
			if st.Time == 0 {
				s.X, s.Y = s.X[:0], s.Y[:0]
			}
			s.X = append(s.X, st.Time)
			s.Y = append(s.Y, float64(min(c, p.Slots))/slots)
		}
	}
	s.X = append(s.X, end)
	s.Y = append(s.Y, s.Y[len(s.Y)-1])
	return s
}

// workspans are woha.txt Fig. 11's bars: each workflow's workspan per policy.
func (r *Run) workspans() (*Figure, error) {
	var names, wfs []string
	var deadlines []float64
	for _, o := range r.Policies[0].Metrics.Workflows {
		wfs = append(wfs, o.ID)
		d := math.NaN()
		if o.Deadline != nil {
			d = *o.Deadline - o.Arrival
		}
		deadlines = append(deadlines, d)
	}
	spans := make([][]float64, len(r.Policies))
	for k, pr := range r.Policies {
		names = append(names, pr.Metrics.Name)
		for _, o := range pr.Metrics.Workflows {
			x := math.NaN()
			if o.Workspan != nil {
				x = *o.Workspan
			}
			spans[k] = append(spans[k], x)
		}
	}
	return WorkspanBars(names, wfs, spans, deadlines, fmt.Sprintf("%s: workflow workspans and deadlines (seed %d)", r.Workload.Name, r.Seed))
}
