package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The simulator's charts: a utility CDF per policy (cora.txt Fig. 6), Δ = response −
// deadline box plots per policy and job class (cora.txt Fig. 4), a Gantt of one run
// (slots over time, as woha.txt Figs. 14–19) and step lines (busy slots over time per
// policy). Each returns a *Figure whose legend sits beside the axes; run.go puts them
// together for a run.

// Series is one policy's values (or the bound's) and how to draw it.
type Series struct {
	Name   string
	Values []float64
	Style  LineStyle // Style.Colour fills a box plot's boxes
}

// UtilityCDF plots, per series, the fraction of jobs whose utility is at most u.
func UtilityCDF(series []Series, title string) (*Figure, error) {
	if len(series) == 0 {
		return nil, errors.New("plot: no series")
	}
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = "job utility"
	p.Y.Label.Text = "fraction of jobs with utility ≤ x"
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Tick.Marker = plainTicks{}
	f := newFigure(p, 7*vg.Inch, 4.5*vg.Inch)
	for _, s := range series {
		v := slices.Clone(s.Values)
		slices.Sort(v)
		pts := make(plotter.XYs, 0, 2*len(v))
		for i, x := range v {
			pts = append(pts, plotter.XY{X: x, Y: float64(i) / float64(len(v))}, plotter.XY{X: x, Y: float64(i+1) / float64(len(v))})
		}
		if err := f.addLine(pts, s.Name, s.Style); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// addLine adds a line in the given style, with a legend entry.
func (f *Figure) addLine(pts plotter.XYs, name string, st LineStyle) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("plot: %s: %w", name, err)
	}
	l.Color, l.Width, l.Dashes = st.Colour, st.Width, st.Dashes
	f.Plot.Add(l)
	f.key(name, st.Colour, l)
	return nil
}

// BoxGroup is one class's values per policy.
type BoxGroup struct {
	Class  string
	Series []Series // one per policy, the same policies in every group
}

// DeltaBoxes draws one box per (class, policy) of Δ = response − deadline (seconds),
// classes along the x axis, policies side by side within a class, each box filled
// with its series' colour; the line at 0 is the deadline.
func DeltaBoxes(groups []BoxGroup, title string) (*Figure, error) {
	if len(groups) == 0 || len(groups[0].Series) == 0 {
		return nil, errors.New("plot: no groups")
	}
	p := gplot.New()
	p.Title.Text = title
	p.Y.Label.Text = "Δ = response − deadline (s)"
	p.Y.Tick.Marker = plainTicks{}
	f := newFigure(p, 7*vg.Inch, 4.5*vg.Inch)
	np := len(groups[0].Series)
	width := vg.Points(min(60/float64(np), 18))
	names := make([]string, len(groups))
	for gi, g := range groups {
		names[gi] = g.Class
		for k, s := range g.Series {
			if len(s.Values) == 0 {
				continue
			}
			b, err := plotter.NewBoxPlot(width, float64(gi), plotter.Values(s.Values))
			if err != nil {
				return nil, fmt.Errorf("plot: %s %s: %w", g.Class, s.Name, err)
			}
			b.Offset = (vg.Length(k) - vg.Length(np-1)/2) * (width + vg.Points(2))
			b.FillColor = s.Style.Colour
			p.Add(b)
		}
	}
	for _, s := range groups[0].Series {
		f.key(s.Name, s.Style.Colour, swatch{s.Style.Colour})
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(groups)) - 0.5, Y: 0}})
	if err != nil {
		return nil, err
	}
	zero.Color = color.Gray{Y: 100}
	zero.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(zero)
	f.key("deadline (Δ = 0)", zero.Color, zero)
	p.NominalX(names...)
	return f, nil
}

// swatch is a filled square for the legend of a box or bar chart.
type swatch struct{ c color.Color }

func (l swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(l.c, pts)
}

// Bar is one task on one slot row of a simulated Gantt chart.
type Bar struct {
	Row        int // slot row, 0 at the top
	Start, End float64
	Colour     color.Color
}

// SimGantt draws a run's tasks: one row per slot (labelled by rows), time left to right
// from 0 to the run's end (the last bar's), each task a bar in its colour.
func SimGantt(bars []Bar, rows []string, title string) (*Figure, error) {
	if len(rows) == 0 {
		return nil, errors.New("plot: no slots")
	}
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = "time (s)"
	p.X.Tick.Marker = plainTicks{}
	end := 0.0
	for _, b := range bars {
		end = max(end, b.End)
	}
	g := &simGantt{bars: bars, rows: len(rows), end: end}
	p.Add(g)
	labels := make([]string, len(rows))
	step := max(1, len(rows)/40) // at most about 40 labels
	for i, r := range rows {
		if i%step == 0 {
			labels[len(rows)-1-i] = r
		}
	}
	p.NominalY(labels...)
	p.X.Min, p.X.Max = 0, math.Max(end, 1)
	p.Y.Min, p.Y.Max = -0.5, float64(len(rows))-0.5
	h := vg.Length(min(max(0.12*float64(len(rows))+1.5, 3), 16)) * vg.Inch
	f := newFigure(p, 10*vg.Inch, h)
	f.gantt = g
	return f, nil
}

type simGantt struct {
	bars []Bar
	rows int
	end  float64
}

func (g *simGantt) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, math.Max(g.end, 1), -0.5, float64(g.rows) - 0.5
}

func (g *simGantt) Plot(c draw.Canvas, p *gplot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, b := range g.bars {
		y := float64(g.rows - 1 - b.Row)
		pts := []vg.Point{
			{X: tx(b.Start), Y: ty(y - 0.42)}, {X: tx(b.End), Y: ty(y - 0.42)},
			{X: tx(b.End), Y: ty(y + 0.42)}, {X: tx(b.Start), Y: ty(y + 0.42)},
		}
		c.FillPolygon(b.Colour, c.ClipPolygonXY(pts))
		c.StrokeLines(draw.LineStyle{Color: color.White, Width: vg.Points(0.3)}, c.ClipLinesXY(append(pts, pts[0]))...)
	}
}

// Steps is a step function: Y[i] from X[i] to X[i+1].
type Steps struct {
	Name  string
	X, Y  []float64
	Style LineStyle
}

// StepLines plots step functions, e.g. utilization over time per policy.
func StepLines(series []Steps, title, xlabel, ylabel string) (*Figure, error) {
	if len(series) == 0 {
		return nil, errors.New("plot: no series")
	}
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Tick.Marker = plainTicks{}
	f := newFigure(p, 9*vg.Inch, 4*vg.Inch)
	for _, s := range series {
		pts := make(plotter.XYs, 0, 2*len(s.X))
		for i := range s.X {
			if i > 0 {
				pts = append(pts, plotter.XY{X: s.X[i], Y: s.Y[i-1]})
			}
			pts = append(pts, plotter.XY{X: s.X[i], Y: s.Y[i]})
		}
		if len(pts) == 0 {
			continue
		}
		if err := f.addLine(pts, s.Name, s.Style); err != nil {
			return nil, err
		}
	}
	return f, nil
}
