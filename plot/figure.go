package plot

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is a chart with its legend in a column to the right of the axes, where it
// covers no data (inside the axes it hid whiskers of box plots and the end of
// utilization curves).
type Figure struct {
	Plot *gplot.Plot
	// Legend is drawn right of Plot, top-aligned; an empty legend takes no room.
	Legend gplot.Legend
	// Width and Height are the chart's size without the legend column.
	Width, Height vg.Length
	// keys are the legend's entries with their colours, in order.
	keys []legendEntry
	// gantt is the chart of SimGantt.
	gantt *simGantt
	// panels are further charts right of Plot, their data areas aligned with its
	// (the bounds figure's min panel); Width covers them all.
	panels []*gplot.Plot
	// bounds is what the bounds figure plots.
	bounds *boundsChart
}

// legendEntry is a legend entry's name and colour.
type legendEntry struct {
	name   string
	colour color.Color
}

// key adds a legend entry drawn by thumb in colour c.
func (f *Figure) key(name string, c color.Color, thumb gplot.Thumbnailer) {
	f.Legend.Add(name, thumb)
	f.keys = append(f.keys, legendEntry{name, c})
}

// NamedFigure is a figure and the file name it is saved under, without extension.
type NamedFigure struct {
	Name string
	*Figure
}

// SaveAll writes each figure into dir as Name.svg and Name.png.
func SaveAll(dir string, figs []NamedFigure) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	for _, f := range figs {
		if err := f.Save(filepath.Join(dir, f.Name)); err != nil {
			return err
		}
	}
	return nil
}

func newFigure(p *gplot.Plot, w, h vg.Length) *Figure {
	l := gplot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font.Size = vg.Points(10)
	l.ThumbnailWidth = vg.Points(24)
	return &Figure{Plot: p, Legend: l, Width: w, Height: h}
}

// legendGap separates the axes from the legend column.
const legendGap = vg.Length(8)

// LegendWidth is the width of the legend column (0 without entries).
func (f *Figure) LegendWidth() vg.Length {
	r := f.Legend.Rectangle(draw.Canvas{})
	if r.Max.Y-r.Min.Y == 0 {
		return 0
	}
	return r.Max.X - r.Min.X + 2*legendGap
}

// Size is the whole image's size: the chart and the legend column.
func (f *Figure) Size() (w, h vg.Length) { return f.Width + f.LegendWidth(), f.Height }

// Draw draws the chart into the left part of c and the legend into the right.
func (f *Figure) Draw(c draw.Canvas) {
	lw := f.LegendWidth()
	plots, areas := f.layout(c)
	for k, p := range plots {
		p.Draw(areas[k])
	}
	if lw == 0 {
		return
	}
	// The legend's top is level with the data area's.
	data := f.Plot.DataCanvas(areas[0])
	f.Legend.Draw(draw.Crop(c, c.Max.X-c.Min.X-lw+legendGap, -legendGap, 0, data.Max.Y-c.Max.Y))
}

// layout is the figure's charts (Plot, then the panels) and the canvas of each, side by
// side left of the legend column, with their data areas aligned.
func (f *Figure) layout(c draw.Canvas) ([]*gplot.Plot, []draw.Canvas) {
	chart := draw.Crop(c, 0, -f.LegendWidth(), 0, 0)
	plots := append([]*gplot.Plot{f.Plot}, f.panels...)
	if len(plots) == 1 {
		return plots, []draw.Canvas{chart}
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(16)}
	return plots, gplot.Align([][]*gplot.Plot{plots}, tiles, chart)[0]
}

// Save writes the figure to base.svg and base.png.
func (f *Figure) Save(base string) error {
	w, h := f.Size()
	for _, ext := range []string{"svg", "png"} {
		c, err := draw.NewFormattedCanvas(w, h, ext)
		if err != nil {
			return fmt.Errorf("plot: %s.%s: %w", base, ext, err)
		}
		f.Draw(draw.New(c))
		if err := writeFile(base+"."+ext, c); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, c vg.CanvasWriterTo) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if _, err := c.WriteTo(out); err != nil {
		out.Close()
		return fmt.Errorf("plot: %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("plot: %s: %w", path, err)
	}
	return nil
}
