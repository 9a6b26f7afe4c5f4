package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Workflow figures of `coraopt simulate --plots` (woha.txt §VI): workspan bars per
// workflow and policy with each workflow's relative deadline (Fig. 11), and the Gantt
// of SimGantt coloured by workflow with a legend (Figs. 14–19).

// WorkspanBars draws, for each workflow along the x axis, one bar per policy of its
// workspan (completion − submission, seconds; NaN: it never completed, no bar) and a
// dashed line across the group at its relative deadline. workspan[p][w] is policy p's
// workspan of workflow w.
func WorkspanBars(policies, workflows []string, workspan [][]float64, deadlines []float64, title string) (*gplot.Plot, error) {
	if len(policies) == 0 || len(workflows) == 0 || len(workspan) != len(policies) || len(deadlines) != len(workflows) {
		return nil, errors.New("plot: workspan bars need one row per policy and one deadline per workflow")
	}
	p := gplot.New()
	p.Title.Text = title
	p.Y.Label.Text = "workspan (s)"
	p.Legend.Top = true
	np := len(policies)
	width := vg.Points(min(70/float64(np), 16))
	top := 0.0
	for k, name := range policies {
		if len(workspan[k]) != len(workflows) {
			return nil, fmt.Errorf("plot: %s: %d workspans for %d workflows", name, len(workspan[k]), len(workflows))
		}
		vals := make(plotter.Values, len(workflows))
		for w, x := range workspan[k] {
			if math.IsNaN(x) || x < 0 {
				x = 0
			}
			vals[w] = x
			top = max(top, x)
		}
		b, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, fmt.Errorf("plot: %s: %w", name, err)
		}
		b.Offset = (vg.Length(k) - vg.Length(np-1)/2) * width
		b.Color = plotutil.Color(k)
		b.LineStyle.Width = 0
		p.Add(b)
		p.Legend.Add(name, b)
	}
	half := 0.45
	for w, d := range deadlines {
		if math.IsNaN(d) || math.IsInf(d, 0) {
			continue
		}
		top = max(top, d)
		l, err := plotter.NewLine(plotter.XYs{{X: float64(w) - half, Y: d}, {X: float64(w) + half, Y: d}})
		if err != nil {
			return nil, err
		}
		l.Color = color.Black
		l.Width = vg.Points(1.5)
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(l)
		if w == 0 {
			p.Legend.Add("deadline", l)
		}
	}
	p.NominalX(workflows...)
	p.Y.Min, p.Y.Max = 0, top*(1.25+0.07*float64(np)) // room for the legend above the bars
	return p, nil
}

// AddColourLegend adds a legend entry per name in the colours Bar.Job indexes, for a
// Gantt whose bars are coloured by group (workflow) rather than by job.
func AddColourLegend(p *gplot.Plot, names []string) {
	for k, n := range names {
		p.Legend.Add(n, legendSwatch{toRGBA(plotutil.Color(k))})
	}
	p.Legend.Top = true
	// Room on the right so the legend does not cover the last tasks.
	p.X.Max += 0.12 * (p.X.Max - p.X.Min)
}
