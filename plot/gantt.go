package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/coraopt/coraopt/sched"
)

// formatList names the formats SaveGantt and WriteGantt accept, for messages.
const formatList = "svg, png, pdf, eps, jpg, jpeg, tif, tiff"

// GanttOptions control a Gantt chart.
type GanttOptions struct {
	// Title defaults to the instance name and its horizon.
	Title string
}

// Deadline is the slot a utility names as its deadline: a sigmoid's or step's deadline,
// a linear utility's budget, an RDS utility's soft deadline. Tables, piecewise and
// constant utilities name none.
func Deadline(u sched.Utility) (float64, bool) {
	switch u := u.(type) {
	case sched.Sigmoid:
		return u.Deadline, true
	case sched.Step:
		return u.Deadline, true
	case sched.Linear:
		return u.Budget, true
	case sched.RDS:
		return u.Soft, true
	}
	return 0, false
}

// Gantt builds the allocation chart of s, a schedule of in: job rows top to bottom in
// instance order, slots 1..T left to right. A cell is filled when the job holds any
// resource in that slot, darker the larger its share of the slot's capacity (averaged
// over the resources it uses). A black bar marks the end of the slot a job's utility
// names as its deadline (see Deadline), a grey triangle the middle of the job's
// completion slot.
func Gantt(in *sched.Instance, s *sched.Schedule, opts GanttOptions) (*gplot.Plot, error) {
	if in == nil || s == nil {
		return nil, errors.New("plot: Gantt needs an instance and a schedule")
	}
	if len(s.Jobs) != len(in.Jobs) {
		return nil, fmt.Errorf("plot: schedule has %d jobs, instance %d", len(s.Jobs), len(in.Jobs))
	}
	if len(in.Jobs) == 0 {
		return nil, errors.New("plot: no jobs to draw")
	}
	p := gplot.New()
	p.Title.Text = opts.Title
	if p.Title.Text == "" {
		p.Title.Text = fmt.Sprintf("%s: allocation over %d slots", cmpOr(in.Name, "schedule"), in.Horizon)
	}
	p.X.Label.Text = "slot"
	g := &gantt{in: in, s: s}
	p.Add(g)
	names := make([]string, len(in.Jobs))
	for i := range in.Jobs {
		names[g.row(i)] = in.Jobs[i].ID
	}
	p.NominalY(names...)
	p.X.Min, p.X.Max = 0, float64(in.Horizon)
	p.Y.Min, p.Y.Max = -0.5, float64(len(in.Jobs))-0.5
	p.X.Tick.Marker = slotTicks{T: in.Horizon}
	return p, nil
}

// Size is a chart size that keeps cells readable: about 0.25 in per slot (5–16 in wide)
// and 0.3 in per job plus margins (3–24 in high).
func Size(in *sched.Instance) (w, h vg.Length) {
	w = vg.Length(min(max(0.25*float64(in.Horizon)+2, 5), 16)) * vg.Inch
	h = vg.Length(min(max(0.3*float64(len(in.Jobs))+1.5, 3), 24)) * vg.Inch
	return w, h
}

// FormatOf returns the image format a file name's extension names ("svg", "png", …), or
// an error for an extension SaveGantt cannot write.
func FormatOf(path string) (string, error) {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if !isFormat(format) {
		return "", fmt.Errorf("plot: %s: unknown image format %q (want one of %s)", path, format, formatList)
	}
	return format, nil
}

// SaveGantt writes the chart of s to path, in the format its extension names.
func SaveGantt(path string, in *sched.Instance, s *sched.Schedule, opts GanttOptions) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if err := WriteGantt(f, format, in, s, opts); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// WriteGantt writes the chart of s to w in the given format ("svg", "png", …).
func WriteGantt(w io.Writer, format string, in *sched.Instance, s *sched.Schedule, opts GanttOptions) error {
	format = strings.ToLower(format)
	if !isFormat(format) {
		return fmt.Errorf("plot: unknown image format %q (want one of %s)", format, formatList)
	}
	p, err := Gantt(in, s, opts)
	if err != nil {
		return err
	}
	wd, ht := Size(in)
	wt, err := p.WriterTo(wd, ht, format)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("plot: writing the chart: %w", err)
	}
	return nil
}

func isFormat(f string) bool {
	switch f {
	case "svg", "png", "pdf", "eps", "jpg", "jpeg", "tif", "tiff":
		return true
	}
	return false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// gantt is the gonum/plot Plotter that draws the cells and markers.
type gantt struct {
	in *sched.Instance
	s  *sched.Schedule
}

// row is the y position of job i: the first job on top.
func (g *gantt) row(i int) int { return len(g.in.Jobs) - 1 - i }

// share is the fraction of slot t's capacity job i holds, averaged over the resources
// it holds anything of; 0 when it holds nothing.
func (g *gantt) share(i, t int) float64 {
	var sum float64
	var n int
	for r, row := range g.s.Jobs[i].Alloc {
		if t >= len(row) || row[t] == 0 || r >= len(g.in.Resources) {
			continue
		}
		c := g.in.Resources[r].Capacity
		n++
		if t < len(c) && c[t] > 0 {
			sum += min(float64(row[t])/float64(c[t]), 1)
		} else {
			sum++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func (g *gantt) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(g.in.Horizon), -0.5, float64(len(g.in.Jobs)) - 0.5
}

func (g *gantt) Plot(c draw.Canvas, p *gplot.Plot) {
	tx, ty := p.Transforms(&c)
	const half = 0.4
	for i := range g.in.Jobs {
		y := float64(g.row(i))
		base := toRGBA(plotutil.Color(i))
		for t := range g.in.Horizon {
			sh := g.share(i, t)
			if sh == 0 {
				continue
			}
			// At least 35% opacity so a small share stays visible.
			a := 0.35 + 0.65*sh
			fill := color.NRGBA{R: base.R, G: base.G, B: base.B, A: uint8(255 * a)}
			pts := []vg.Point{
				{X: tx(float64(t)), Y: ty(y - half)}, {X: tx(float64(t + 1)), Y: ty(y - half)},
				{X: tx(float64(t + 1)), Y: ty(y + half)}, {X: tx(float64(t)), Y: ty(y + half)},
			}
			c.FillPolygon(fill, c.ClipPolygonXY(pts))
		}
		if x, ok := Deadline(g.in.Jobs[i].Utility); ok {
			if x >= 0 && x <= float64(g.in.Horizon) {
				ls := draw.LineStyle{Color: color.Black, Width: vg.Points(2)}
				c.StrokeLine2(ls, tx(x), ty(y-0.48), tx(x), ty(y+0.48))
			}
		}
		if done := g.s.Jobs[i].Completion; done > 0 {
			sty := draw.GlyphStyle{Color: color.Gray{Y: 60}, Radius: vg.Points(3), Shape: draw.PyramidGlyph{}}
			c.DrawGlyph(sty, vg.Point{X: tx(float64(done) - 0.5), Y: ty(y)})
		}
	}
}

func toRGBA(c color.Color) color.NRGBA {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 255}
}

// slotTicks labels slot t at the middle of its cell [t−1, t], thinning the labels on
// long horizons.
type slotTicks struct{ T int }

func (s slotTicks) Ticks(min, max float64) []gplot.Tick {
	step := 1
	for s.T/step > 24 {
		step *= 2
	}
	var ticks []gplot.Tick
	for t := 1; t <= s.T; t++ {
		label := ""
		if t == 1 || t%step == 0 {
			label = fmt.Sprint(t)
		}
		ticks = append(ticks, gplot.Tick{Value: float64(t) - 0.5, Label: label})
	}
	return ticks
}
