package cli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot/vg"

	"github.com/coraopt/coraopt/plot"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// maxGanttTasks caps the tasks one Gantt chart draws.
const maxGanttTasks = 5_000

// jobClass is a job's completion-time class (workload.CTClass).
func jobClass(u sched.Utility) string { return workload.CTClass(u) }

// writeSimPlots draws the figures of the first seed into o.plots: utility-cdf,
// delta-box, gantt-<policy> and utilization-<pool>, each as SVG and PNG. The Gantt and busy
// curves come from re-running each policy with placements recorded (the same seed
// gives the same run).
func writeSimPlots(ctx context.Context, s Streams, o *simulateOptions, w *workload.Workload, specs []policySpec, out *simulateJSON) error {
	if err := os.MkdirAll(o.plots, 0o755); err != nil {
		return usageErr(err)
	}
	base := func(name string) string { return filepath.Join(o.plots, name) }
	var cdf []plot.Series
	for _, m := range out.Policies {
		cdf = append(cdf, plot.Series{Name: m.Name, Values: m.SortedUtilities})
	}
	if out.Bound != nil {
		cdf = append(cdf, plot.Series{Name: fmt.Sprintf("bound (slot %g s)", out.Bound.SlotSeconds), Values: out.Bound.SortedUtilities})
	}
	p, err := plot.UtilityCDF(cdf, fmt.Sprintf("%s: utility CDF (seed %d)", w.Name, out.Seed))
	if err != nil {
		return err
	}
	if err := plot.SaveAll(p, base("utility-cdf"), 7*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	// Δ per class and policy.
	var classes []string
	for _, j := range w.Jobs {
		if c := jobClass(j.Utility); !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
	}
	order := []string{"critical", "sensitive", "insensitive", "all jobs"}
	slices.SortFunc(classes, func(a, b string) int { return cmp.Compare(slices.Index(order, a), slices.Index(order, b)) })
	var groups []plot.BoxGroup
	for _, c := range classes {
		g := plot.BoxGroup{Class: c}
		for _, m := range out.Policies {
			sr := plot.Series{Name: m.Name}
			for i, jm := range m.Jobs {
				if jobClass(w.Jobs[i].Utility) == c && jm.Deadline != nil && jm.Completion != nil {
					sr.Values = append(sr.Values, *jm.Completion-*jm.Deadline)
				}
			}
			g.Series = append(g.Series, sr)
		}
		groups = append(groups, g)
	}
	if p, err := plot.DeltaBoxes(groups, fmt.Sprintf("%s: response − deadline by job class (seed %d)", w.Name, out.Seed)); err == nil {
		if err := plot.SaveAll(p, base("delta-box"), 7*vg.Inch, 4.5*vg.Inch); err != nil {
			return err
		}
	}
	// Gantt and busy slots per policy.
	rows, rowOf := ganttRows(w)
	busy := make([][]plot.Steps, len(w.Cluster.Pools))
	end := 0.0
	for _, m := range out.Policies {
		end = max(end, m.Makespan)
	}
	stderr := &external.SyncWriter{W: s.Err}
	for _, spec := range specs {
		name := spec.name
		var r *sim.Result
		err := spec.run(ctx, stderr, w, func(pol policies.Policy) error {
			var err error
			r, err = sim.Run(ctx, w, pol, sim.Options{Seed: o.seed, Record: true})
			return err
		})
		if err != nil {
			return failed(err)
		}
		// Placements are in start order; past maxGanttTasks the chart shows the start of
		// the run only (a chart of millions of bars is neither readable nor small).
		shown := r.Placements[:min(len(r.Placements), maxGanttTasks)]
		colour, legend, by := ganttColours(w)
		bars := make([]plot.Bar, len(shown))
		for k, pl := range shown {
			bars[k] = plot.Bar{Row: rowOf[[3]int{pl.Worker, pl.Pool, pl.Slot}], Start: pl.Start, End: pl.Finish, Job: colour(pl.Job)}
		}
		title := fmt.Sprintf("%s under %s: tasks on slots (colour = %s, seed %d)", w.Name, name, by, o.seed)
		if len(shown) < len(r.Placements) {
			title = fmt.Sprintf("%s under %s: the first %d of %d tasks (colour = %s, seed %d)", w.Name, name, len(shown), len(r.Placements), by, o.seed)
		}
		g, err := plot.SimGantt(bars, rows, title)
		if err != nil {
			return err
		}
		if legend != nil {
			plot.AddColourLegend(g, legend)
		}
		h := vg.Length(min(max(0.12*float64(len(rows))+1.5, 3), 16)) * vg.Inch
		if err := plot.SaveAll(g, base("gantt-"+name), 10*vg.Inch, h); err != nil {
			return err
		}
		for pool := range w.Cluster.Pools {
			busy[pool] = append(busy[pool], utilizationWindows(r, w, pool, name, max(end, 1), 60))
		}
	}
	for pool, series := range busy {
		pn := w.Cluster.Pools[pool].Name
		series = append([]plot.Steps{capacitySteps(w, pool, out)}, series...)
		p, err := plot.StepLines(series, fmt.Sprintf("%s: %s utilization over time, 60 windows (seed %d)", w.Name, pn, o.seed), "time (s)", "busy / slots")
		if err != nil {
			return err
		}
		p.Y.Min, p.Y.Max = 0, 1.05
		if err := plot.SaveAll(p, base("utilization-"+pn), 9*vg.Inch, 4*vg.Inch); err != nil {
			return err
		}
	}
	if err := writeWorkflowPlots(w, out, base); err != nil {
		return err
	}
	fmt.Fprintf(s.Err, "coraopt: figures written to %s\n", o.plots)
	return nil
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

// utilizationWindows is the pool's mean busy fraction of its slots in each of n equal
// windows of [0, end]: instantaneous busy counts jump with every task and hide the
// trend.
func utilizationWindows(r *sim.Result, w *workload.Workload, pool int, name string, end float64, n int) plot.Steps {
	width := end / float64(n)
	busy := make([]float64, n)
	for _, pl := range r.Placements {
		if pl.Pool != pool {
			continue
		}
		for k := int(pl.Start / width); k < n && float64(k)*width < pl.Finish; k++ {
			lo, hi := max(pl.Start, float64(k)*width), min(pl.Finish, float64(k+1)*width)
			busy[k] += max(0, hi-lo)
		}
	}
	s := plot.Steps{Name: name}
	slots := float64(w.Cluster.Pools[pool].Slots)
	for k := range n {
		s.X = append(s.X, float64(k)*width)
		s.Y = append(s.Y, busy[k]/(width*slots))
	}
	s.X = append(s.X, end)
	s.Y = append(s.Y, s.Y[n-1])
	return s
}

func capacitySteps(w *workload.Workload, pool int, out *simulateJSON) plot.Steps {
	end := 0.0
	for _, m := range out.Policies {
		end = max(end, m.Makespan)
	}
	slots := float64(w.Cluster.Pools[pool].Slots)
	s := plot.Steps{Name: "capacity", X: []float64{0}, Y: []float64{1}}
	for _, st := range w.Cluster.Capacity {
		if c, ok := st.Slots[w.Cluster.Pools[pool].Name]; ok && st.Time <= end {
			if st.Time == 0 {
				s.X, s.Y = s.X[:0], s.Y[:0]
			}
			s.X = append(s.X, st.Time)
			s.Y = append(s.Y, float64(min(c, w.Cluster.Pools[pool].Slots))/slots)
		}
	}
	s.X = append(s.X, end)
	s.Y = append(s.Y, s.Y[len(s.Y)-1])
	return s
}
