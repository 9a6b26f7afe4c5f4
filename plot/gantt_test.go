package plot

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

func testSchedule(t *testing.T) (*sched.Instance, *sched.Schedule) {
	t.Helper()
	in := &sched.Instance{Name: "demo", Horizon: 4,
		Resources: []sched.Resource{{Name: "containers", Capacity: []int{4, 4, 4, 4}}},
		Jobs: []sched.Job{
			{ID: "alpha", Demand: []int{8}, Release: 1, TaskSlots: 1, Utility: sched.Step{Value: 2, Deadline: 4}},
			{ID: "beta", Demand: []int{4}, Release: 1, TaskSlots: 1, Utility: sched.Constant{Value: 1}},
		}}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	s := sched.NewSchedule(in)
	copy(s.Jobs[0].Alloc[0], []int{2, 2, 4, 0})
	copy(s.Jobs[1].Alloc[0], []int{2, 2, 0, 0})
	s.Finalize(in)
	return in, s
}

func TestWriteGanttSVG(t *testing.T) {
	in, s := testSchedule(t)
	var buf bytes.Buffer
	if err := WriteGantt(&buf, "svg", in, s, GanttOptions{}); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	for _, want := range []string{"<svg", "alpha", "beta", "demo: allocation over 4 slots", "slot"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// Five allocated cells; the four at half the capacity are translucent, alpha's slot 3
	// (the whole capacity) is opaque.
	if n := strings.Count(svg, "fill-opacity"); n != 4 {
		t.Errorf("%d translucent fills, want the 4 half-capacity cells", n)
	}
}

func TestSaveGanttPNG(t *testing.T) {
	in, s := testSchedule(t)
	path := filepath.Join(t.TempDir(), "g.PNG")
	if err := SaveGantt(path, in, s, GanttOptions{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	w, h := Size(in)
	if b := img.Bounds(); b.Dx() != int(w.Dots(96)+0.5) || b.Dy() != int(h.Dots(96)+0.5) {
		t.Errorf("image %v, want %v×%v at 96 dpi", b, w.Dots(96), h.Dots(96))
	}
}

func TestGanttErrors(t *testing.T) {
	in, s := testSchedule(t)
	if err := SaveGantt(filepath.Join(t.TempDir(), "g.bmp"), in, s, GanttOptions{}); err == nil {
		t.Error("unknown extension accepted")
	}
	if err := WriteGantt(&bytes.Buffer{}, "gif", in, s, GanttOptions{}); err == nil {
		t.Error("unknown format accepted")
	}
	if _, err := Gantt(in, &sched.Schedule{}, GanttOptions{}); err == nil {
		t.Error("mismatched schedule accepted")
	}
	if _, err := Gantt(nil, s, GanttOptions{}); err == nil {
		t.Error("nil instance accepted")
	}
}
