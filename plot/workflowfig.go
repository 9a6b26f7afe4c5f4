package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// WorkspanBars draws woha.txt Fig. 11: for each workflow along the x axis, one bar per
// policy of its workspan (completion − submission, seconds; NaN: it never completed, no
// bar) and a dashed line across the group at its relative deadline. workspan[p][w] is
// policy p's workspan of workflow w; policy p has the colour of position p
// (PolicyColour).
func WorkspanBars(policies, workflows []string, workspan [][]float64, deadlines []float64, title string) (*Figure, error) {
	if len(policies) == 0 || len(workflows) == 0 || len(workspan) != len(policies) || len(deadlines) != len(workflows) {
		return nil, errors.New("plot: workspan bars need one row per policy and one deadline per workflow")
	}
	p := gplot.New()
	p.Title.Text = title
	p.Y.Label.Text = "workspan (s)"
	p.Y.Tick.Marker = plainTicks{}
	width := vg.Length(min(max(1.2*float64(len(workflows))+2, 6), 20)) * vg.Inch
	f := newFigure(p, width, 4.5*vg.Inch)
	np := len(policies)
	bw := vg.Points(min(70/float64(np), 16))
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
		b, err := plotter.NewBarChart(vals, bw)
		if err != nil {
			return nil, fmt.Errorf("plot: %s: %w", name, err)
		}
		b.Offset = (vg.Length(k) - vg.Length(np-1)/2) * bw
		b.Color = PolicyColour(k)
		b.LineStyle.Width = 0
		p.Add(b)
		f.key(name, b.Color, b)
	}
	half := 0.45
	keyed := false
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
		if !keyed {
			f.key("deadline", l.Color, l)
			keyed = true
		}
	}
	p.NominalX(workflows...)
	p.Y.Min, p.Y.Max = 0, top*1.05
	return f, nil
}
