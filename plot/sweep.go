package plot

import (
	"fmt"
	"math"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/coraopt/coraopt/sweep"
)

// SweepFigures are the figures of a merged sweep, one per aggregated metric
// (sweep-<metric>): for each workload a cluster of policies, each a point at the mean
// over the seeds with a bar over its 95% confidence interval. A policy has the colour of
// its position among the sweep's policies (in cell order) in every figure.
func SweepFigures(m *sweep.Merged) ([]NamedFigure, error) {
	if len(m.Groups) == 0 {
		return nil, nil
	}
	var workloads, policies []string
	for _, g := range m.Groups {
		if !slices.Contains(workloads, g.Workload) {
			workloads = append(workloads, g.Workload)
		}
		if !slices.Contains(policies, g.Policy) {
			policies = append(policies, g.Policy)
		}
	}
	var figs []NamedFigure
	for k, x := range m.Groups[0].Metrics() {
		f, err := sweepFigure(m, k, x, workloads, policies)
		if err != nil {
			return nil, err
		}
		figs = append(figs, NamedFigure{"sweep-" + strings.ReplaceAll(x.Key, ".", "-"), f})
	}
	return figs, nil
}

// WriteSweep writes SweepFigures into dir, as SVG and PNG.
func WriteSweep(dir string, m *sweep.Merged) error {
	figs, err := SweepFigures(m)
	if err != nil {
		return err
	}
	return SaveAll(dir, figs)
}

// sweepFigure is the figure of the k-th metric.
func sweepFigure(m *sweep.Merged, k int, x sweep.GroupMetric, workloads, policies []string) (*Figure, error) {
	P := len(policies)
	p := gplot.New()
	p.Title.Text = fmt.Sprintf("%s: mean and 95%% CI over %d seeds", x.Title, m.Groups[0].Seeds)
	p.Y.Label.Text = x.Title
	p.Y.Tick.Marker = plainTicks{}
	p.Add(plotter.NewGrid())
	width := vg.Length(min(max(6, 1.2*float64(len(workloads)*P)+2), 24)) * vg.Inch
	f := newFigure(p, width, 4*vg.Inch)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for pi, pol := range policies {
		var pts plotter.XYs
		var errs plotter.YErrors
		for wi, wl := range workloads {
			for gi := range m.Groups {
				g := &m.Groups[gi]
				if g.Workload != wl || g.Policy != pol {
					continue
				}
				st := g.Metrics()[k].Stat
				lo, hi := st.Mean, st.Mean
				if st.CI95 != nil {
					lo, hi = st.CI95[0], st.CI95[1]
				}
				ylo, yhi = min(ylo, lo), max(yhi, hi)
				pts = append(pts, plotter.XY{X: float64(wi*(P+1) + pi), Y: st.Mean})
				errs = append(errs, struct{ Low, High float64 }{Low: st.Mean - lo, High: hi - st.Mean})
			}
		}
		if len(pts) == 0 {
			continue
		}
		data := struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs}
		bars, err := plotter.NewYErrorBars(data)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", x.Key, err)
		}
		bars.Color, bars.LineStyle.Width, bars.CapWidth = PolicyColour(pi), vg.Points(1.5), vg.Points(8)
		dots, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", x.Key, err)
		}
		dots.Color, dots.Shape, dots.Radius = PolicyColour(pi), draw.CircleGlyph{}, vg.Points(4)
		p.Add(bars, dots)
		f.key(pol, dots.Color, dots)
	}
	// Room around the intervals, so no cap sits on the frame.
	r := yhi - ylo
	if r == 0 {
		r = max(math.Abs(yhi), 1) / 10
	}
	p.Y.Min, p.Y.Max = ylo-0.08*r, yhi+0.08*r
	var ticks []gplot.Tick
	if len(workloads) == 1 {
		for pi, pol := range policies {
			ticks = append(ticks, gplot.Tick{Value: float64(pi), Label: pol})
		}
		p.X.Label.Text = "policy (" + workloads[0] + ")"
	} else {
		for wi, wl := range workloads {
			ticks = append(ticks, gplot.Tick{Value: float64(wi*(P+1)) + float64(P-1)/2, Label: wl})
		}
		p.X.Label.Text = "workload"
	}
	p.X.Tick.Marker = gplot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.6, float64(len(workloads)*(P+1)-2)+0.6
	return f, nil
}
