package plot

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// boundsChart is what the bounds figure plots: per policy, in the run's order, its sum
// and its minimum of utilities, and the two bounds they are held against.
type boundsChart struct {
	names      []string
	sums, mins []float64
	// sumBound is the bound on a run's sum (sim.BoundResult.SumBound); lexmaxMin the
	// lexmax bound's minimum (BoundResult.MinUtility), the most the worst-off job can
	// get. The lexmax vector's sum is no bound on a run's sum and is not drawn.
	sumBound, lexmaxMin float64
	// bars and lines are what the sum and the min panel draw.
	bars  [2]*hbars
	lines [2]*plotter.Line
}

// bounds is the figure of each policy's sum and minimum of utilities against the two
// bounds: the sum bound on the left panel, the lexmax bound's minimum on the right.
func (r *Run) bounds() (*Figure, error) {
	b := r.Bound
	if b == nil || len(r.Policies) == 0 {
		return nil, errors.New("plot: the bounds figure needs a bound and a policy")
	}
	d := &boundsChart{sumBound: b.SumBound, lexmaxMin: b.MinUtility}
	for _, pr := range r.Policies {
		d.names = append(d.names, pr.Metrics.Name)
		d.sums = append(d.sums, pr.Metrics.SumUtility)
		d.mins = append(d.mins, pr.Metrics.MinUtility)
	}
	n := len(d.names)
	sumName := fmt.Sprintf("sum bound (%s, proven): %.4g", b.SumBoundMethod, b.SumBound)
	lexName := fmt.Sprintf("lexmax bound's minimum: %.4g", b.MinUtility)
	if !b.Exact {
		lexName = fmt.Sprintf("lexmax bound's minimum (not proven): %.4g", b.MinUtility)
	}
	left, sumBars, sumLine, err := boundsPanel(d.names, d.sums, d.sumBound, SumBoundLine, true)
	if err != nil {
		return nil, err
	}
	left.Title.Text = "sum of utilities against the sum bound (dashed)"
	left.X.Label.Text = fmt.Sprintf("sum of job utilities (%s, seed %d)", r.Workload.Name, r.Seed)
	right, minBars, minLine, err := boundsPanel(d.names, d.mins, d.lexmaxMin, BoundLine, false)
	if err != nil {
		return nil, err
	}
	right.Title.Text = "minimum utility against the lexmax bound's minimum (solid)"
	right.X.Label.Text = fmt.Sprintf("worst-off job's utility (lexmax bound: slot %g s)", b.SlotSeconds)
	h := vg.Length(max(3.2, 0.3*float64(n)+1.6)) * vg.Inch
	f := newFigure(left, 11*vg.Inch, h)
	f.panels = []*gplot.Plot{right}
	d.bars, d.lines = [2]*hbars{sumBars, minBars}, [2]*plotter.Line{sumLine, minLine}
	f.bounds = d
	for k, name := range d.names {
		f.key(name, PolicyColour(k), swatch{PolicyColour(k)})
	}
	f.key(sumName, SumBoundLine.Colour, sumLine)
	f.key(lexName, BoundLine.Colour, minLine)
	return f, nil
}

// boundsPanel is one panel: a horizontal bar per policy (the first at the top) in its
// colour, its value written at the panel's right edge, and the bound as a vertical
// line across every bar.
func boundsPanel(names []string, values []float64, bound float64, st LineStyle, showNames bool) (*gplot.Plot, *hbars, *plotter.Line, error) {
	n := len(names)
	p := gplot.New()
	p.X.Tick.Marker = stepTicks{}
	bars := &hbars{values: values}
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil // a line through every bar would cross its value
	p.Add(grid, bars)
	line, err := plotter.NewLine(plotter.XYs{{X: bound, Y: -0.5}, {X: bound, Y: float64(n) - 0.5}})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("plot: bound %g: %w", bound, err)
	}
	line.Color, line.Width, line.Dashes = st.Colour, st.Width, st.Dashes
	p.Add(line)
	labels := make([]string, n)
	for k, name := range names {
		if showNames {
			labels[n-1-k] = name
		} else {
			labels[n-1-k] = " "
		}
	}
	p.NominalY(labels...)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	// The values' column needs room right of the longest bar and of the bound.
	lo, hi := min(0, bound), max(0, bound)
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := hi - lo
	if span == 0 {
		span = max(math.Abs(hi), 1)
	}
	p.X.Min, p.X.Max = lo, hi+0.3*span
	bars.style = p.Y.Tick.Label
	return p, bars, line, nil
}

// hbars draws one horizontal bar per value from 0, value k on row n−1−k (the first at
// the top) in policy k's colour, and writes each value at the data area's right edge.
type hbars struct {
	values []float64
	style  text.Style
}

func (h *hbars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = 0, 0
	for _, v := range h.values {
		xmin, xmax = min(xmin, v), max(xmax, v)
	}
	return xmin, xmax, -0.5, float64(len(h.values)) - 0.5
}

func (h *hbars) Plot(c draw.Canvas, p *gplot.Plot) {
	tx, ty := p.Transforms(&c)
	n := len(h.values)
	sty := h.style
	sty.XAlign, sty.YAlign = text.XRight, text.YCenter
	for k, v := range h.values {
		y := float64(n - 1 - k)
		pts := []vg.Point{
			{X: tx(0), Y: ty(y - 0.32)}, {X: tx(v), Y: ty(y - 0.32)},
			{X: tx(v), Y: ty(y + 0.32)}, {X: tx(0), Y: ty(y + 0.32)},
		}
		c.FillPolygon(PolicyColour(k), c.ClipPolygonXY(pts))
		c.FillText(sty, vg.Point{X: c.Max.X - vg.Points(3), Y: ty(y)}, fmt.Sprintf("%.4g", v))
	}
}

// stepTicks label about five evenly spaced values at a step of 1, 2 or 5 × 10^k
// (gonum's default labels as few as two on a bar's axis).
type stepTicks struct{}

func (stepTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(hi > lo) {
		return plainTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / 5
	step := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*step >= raw {
			step *= m
			break
		}
	}
	var ticks []gplot.Tick
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		x := k * step
		ticks = append(ticks, gplot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', 6, 64)})
	}
	return ticks
}
