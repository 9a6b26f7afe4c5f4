package workload

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/internal/cputime"
)

func TestReadSWF(t *testing.T) {
	f, err := os.Open("testdata/sample.swf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, rep, err := ReadSWF(f, SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &SWFReport{Lines: 9, Jobs: 4, Slots: 8, Source: "MaxProcs", EdgesDropped: 1, ThinkTimes: 1, Dropped: map[string]int{
		dropCancelled: 1, dropTooWide: 1, dropPartial: 1, dropRuntime: 1, dropFields: 1}}
	if diff := cmp.Diff(want, rep); diff != "" {
		t.Fatalf("report:\n%s", diff)
	}
	var ids []string
	for _, j := range w.Jobs {
		ids = append(ids, fmt.Sprintf("%s@%g×%d/%g dl%g after%v", j.ID, j.Arrival, j.Stages[0].Tasks, j.Stages[0].Runtime.Value, j.Deadline, j.After))
	}
	// Job 4 has no allocated processors but requested 3; job 2 (failed, status 0) ran
	// and is kept after job 1; job 7's predecessor 3 was dropped.
	wantIDs := []string{"swf1@0×4/100 dl300 after[]", "swf2@10×2/50 dl150 after[swf1]", "swf4@30×3/40 dl120 after[]", "swf7@60×1/20 dl60 after[]"}
	if diff := cmp.Diff(wantIDs, ids); diff != "" {
		t.Fatal(diff)
	}
	if _, _, err := ReadSWF(strings.NewReader("; nothing\n"), SWFOptions{}); err == nil {
		t.Fatal("an empty trace gave no error")
	}
}

// swfLines writes n synthetic SWF job lines.
func swfLines(n int) []byte {
	var b bytes.Buffer
	b.WriteString("; MaxProcs: 128\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 %d %d -1 1 %d 1 1 1 -1 -1 -1\n", i, i*13, i%7, 60+i%300, 1+i%16, 1+i%16, 600, i%50)
	}
	return b.Bytes()
}

// BenchmarkReadSWF reads a 100,000-line trace; the issue asks for well under a second.
func BenchmarkReadSWF(b *testing.B) {
	data := swfLines(100_000)
	cpu0 := cputime.Process()
	for b.Loop() {
		if _, _, err := ReadSWF(bytes.NewReader(data), SWFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
}

func FuzzReadSWF(f *testing.F) {
	data, err := os.ReadFile("testdata/sample.swf")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(swfLines(3))
	f.Add([]byte("1 0 0 1e400 1 -1 -1 1 1 -1 1 1 1 1 1 -1 1 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, rep, err := ReadSWF(bytes.NewReader(data), SWFOptions{})
		if err != nil {
			return
		}
		if rep.Jobs != len(w.Jobs) {
			t.Fatalf("report says %d jobs, workload has %d", rep.Jobs, len(w.Jobs))
		}
		if err := w.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}
