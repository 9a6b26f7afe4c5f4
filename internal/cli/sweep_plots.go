package cli

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/coraopt/coraopt/plot"
	"github.com/coraopt/coraopt/sweep"
)

// writeSweepPlots draws one figure per aggregated metric into dir (sweep-<metric>.svg
// and .png): for each workload a cluster of policies, each a point at the mean over
// the seeds with a bar over its 95% confidence interval.
func writeSweepPlots(dir string, m *sweep.Merged) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usageErr(err)
	}
	if len(m.Groups) == 0 {
		return nil
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
	P := len(policies)
	for k, x := range sweepMetrics(&m.Groups[0]) {
		p := gplot.New()
		seeds := m.Groups[0].Seeds
		p.Title.Text = fmt.Sprintf("%s: mean and 95%% CI over %d seeds", x.title, seeds)
		p.Y.Label.Text = x.title
		p.Legend.Top = true
		p.Add(plotter.NewGrid())
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
					st := sweepMetrics(g)[k].st
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
				return fmt.Errorf("plot %s: %w", x.key, err)
			}
			bars.Color, bars.LineStyle.Width, bars.CapWidth = plotutil.Color(pi), vg.Points(1.5), vg.Points(8)
			dots, err := plotter.NewScatter(pts)
			if err != nil {
				return fmt.Errorf("plot %s: %w", x.key, err)
			}
			dots.Color, dots.Shape, dots.Radius = plotutil.Color(pi), draw.CircleGlyph{}, vg.Points(4)
			p.Add(bars, dots)
			if len(workloads) > 1 {
				p.Legend.Add(pol, dots)
			}
		}
		// Room around the intervals (and above them for the legend), so no cap sits on
		// the frame.
		r := yhi - ylo
		if r == 0 {
			r = max(math.Abs(yhi), 1) / 10
		}
		p.Y.Min, p.Y.Max = ylo-0.08*r, yhi+0.08*r
		if len(workloads) > 1 {
			p.Y.Max += 0.08 * r * float64(P)
		}
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
		width := vg.Length(max(6, 1.2*float64(len(workloads)*P)+2)) * vg.Inch
		base := filepath.Join(dir, "sweep-"+strings.ReplaceAll(x.key, ".", "-"))
		if err := plot.SaveAll(p, base, min(width, 24*vg.Inch), 4*vg.Inch); err != nil {
			return err
		}
	}
	return nil
}
