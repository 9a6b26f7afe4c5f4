package plot

import (
	"image/color"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// palette gives each policy of a run or a sweep its colour by its position in the
// run's policy list (--policies, or the sweep file's policies), the same in every
// figure. It is long enough for every registered policy at once (26) without a
// repeat; past it colours repeat, with other dash patterns on lines. Grey and black are
// not in it: they are the capacity's and the bound's.
var palette = []color.NRGBA{
	rgb(0x1f77b4), rgb(0xd62728), rgb(0x2ca02c), rgb(0xff7f0e), rgb(0x9467bd), rgb(0x8c564b),
	rgb(0xe377c2), rgb(0x17becf), rgb(0xbcbd22), rgb(0x393b79), rgb(0xe7ba52), rgb(0x637939),
	rgb(0xad494a), rgb(0x7b4173), rgb(0x3182bd), rgb(0x843c39), rgb(0x8ca252), rgb(0xbd9e39),
	rgb(0x5254a3), rgb(0xd6616b), rgb(0xa55194), rgb(0x6baed6), rgb(0xe6550d), rgb(0x31a354),
	rgb(0x9c9ede), rgb(0xfdae6b), rgb(0x74c476), rgb(0xce6dbd),
}

func rgb(x uint32) color.NRGBA {
	return color.NRGBA{R: uint8(x >> 16), G: uint8(x >> 8), B: uint8(x), A: 255}
}

// PolicyColour is the colour of the policy at position k of the run's policy list.
func PolicyColour(k int) color.NRGBA { return palette[mod(k, len(palette))] }

func mod(k, n int) int { return (k%n + n) % n }

// LineStyle is how a series is stroked.
type LineStyle struct {
	Colour color.Color
	Width  vg.Length
	Dashes []vg.Length
}

// PolicyLine is the line of the policy at position k: its colour and the k-th dash
// pattern, so overlapping curves stay apart.
func PolicyLine(k int) LineStyle {
	return LineStyle{Colour: PolicyColour(k), Width: vg.Points(1.3), Dashes: plotutil.Dashes(k)}
}

// BoundLine is the offline bound's line: thick, black, solid — no policy's.
var BoundLine = LineStyle{Colour: color.Black, Width: vg.Points(2.2)}

// SumBoundLine is the sum bound's line: the bound's thick black, dashed, so it is told
// from the lexmax bound's.
var SumBoundLine = LineStyle{Colour: color.Black, Width: vg.Points(2.2), Dashes: []vg.Length{vg.Points(7), vg.Points(3)}}

// CapacityLine is the capacity's line: thick light grey, behind the policies.
var CapacityLine = LineStyle{Colour: color.Gray{Y: 170}, Width: vg.Points(3)}

// plainTicks are gonum's default tick positions labelled without trailing zeros
// ("2500", not "2500.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []gplot.Tick {
	ticks := gplot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 10, 64)
		}
	}
	return ticks
}

// rampColour is the colour of item i of n on a sequential ramp (viridis, from dark
// blue-violet to yellow), for charts that colour many items (jobs by arrival) where a
// categorical palette would repeat: neighbours are alike, order is readable.
func rampColour(i, n int) color.NRGBA {
	if n <= 1 {
		return viridis[0]
	}
	x := float64(i) / float64(n-1) * float64(len(viridis)-1)
	k := min(int(x), len(viridis)-2)
	f := x - float64(k)
	a, b := viridis[k], viridis[k+1]
	mix := func(p, q uint8) uint8 { return uint8(float64(p) + f*(float64(q)-float64(p)) + 0.5) }
	return color.NRGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 255}
}

// viridis at 10 evenly spaced points (van der Walt and Smith's matplotlib colormap,
// CC0), interpolated linearly between them.
var viridis = []color.NRGBA{
	rgb(0x440154), rgb(0x482878), rgb(0x3e4989), rgb(0x31688e), rgb(0x26828e),
	rgb(0x1f9e89), rgb(0x35b779), rgb(0x6ece58), rgb(0xb5de2b), rgb(0xfde725),
}
