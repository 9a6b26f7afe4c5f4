package workload

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/internal/cputime"
	"github.com/coraopt/coraopt/sched"
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
	// Offered load: work 4·100 + 2·50 + 3·40 + 1·20 = 640 over 8 processors × 60 s.
	want := &SWFReport{Lines: 9, Jobs: 4, Slots: 8, Source: "MaxProcs", EdgesDropped: 1, ThinkTimes: 1, Dropped: map[string]int{
		dropCancelled: 1, dropTooWide: 1, dropPartial: 1, dropRuntime: 1, dropFields: 1}, OfferedLoad: 640.0 / 480, ArrivalScale: 1}
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

// The --jobs cap's cut is counted, and Load scales the inter-arrival times so that the
// kept jobs' offered load is the target.
func TestSWFCutAndLoad(t *testing.T) {
	data, err := os.ReadFile("testdata/sample.swf")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opt      SWFOptions
		arrivals []float64
		cut      int
		offered  float64
		scale    float64
	}{
		{SWFOptions{}, []float64{0, 10, 30, 60}, 0, 640.0 / 480, 1},
		// Half the load: arrivals twice as far apart.
		{SWFOptions{Load: 640.0 / 960}, []float64{0, 20, 60, 120}, 0, 640.0 / 480, 2},
		// Load 2: compressed by 1.333/2.
		{SWFOptions{Load: 2}, []float64{0, 10 * 2.0 / 3, 30 * 2.0 / 3, 60 * 2.0 / 3}, 0, 640.0 / 480, 2.0 / 3},
		// The first two usable lines kept (jobs 1 and 2: work 500 over 8 × 10 s); jobs
		// 4, 5 and 7 are cut by the cap, never looked at.
		{SWFOptions{MaxJobs: 2}, []float64{0, 10}, 3, 500.0 / 80, 1},
	} {
		w, rep, err := ReadSWF(bytes.NewReader(data), tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var arr []float64
		for _, j := range w.Jobs {
			arr = append(arr, j.Arrival)
		}
		approx := cmpopts.EquateApprox(1e-12, 0)
		if !cmp.Equal(arr, tc.arrivals, approx) || rep.Cut != tc.cut || !cmp.Equal(rep.OfferedLoad, tc.offered, approx) || !cmp.Equal(rep.ArrivalScale, tc.scale, approx) {
			t.Errorf("%+v: arrivals %v, cut %d, offered load %g, scale %g; want %v, %d, %g, %g", tc.opt, arr, rep.Cut, rep.OfferedLoad, rep.ArrivalScale, tc.arrivals, tc.cut, tc.offered, tc.scale)
		}
	}
	if _, _, err := ReadSWF(bytes.NewReader(data), SWFOptions{Load: -1}); err == nil {
		t.Error("a negative load gave no error")
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
	f.Add([]byte("1 0 0 1e13 1 -1 -1 1 1 -1 1 1 1 1 1 -1 1 1\n2 1e13 0 10 1 -1 -1 1 1 -1 1 1 1 1 1 -1 1 1\n3 0 0 10 1e8 -1 -1 1 1 -1 1 1 1 1 1 -1 1 1\n"))
	f.Add([]byte("; MaxProcs: 100000000000\n1 0 0 10 0.5 -1 -1 1 1 -1 1 1 1 1 1 -1 -1 -1\n"))
	// ReadSWF and the streaming WriteSWF agree on everything, and what they write is a
	// workload file that Parse (simulate) accepts.
	f.Fuzz(func(t *testing.T, data []byte) {
		w, rep, err := ReadSWF(bytes.NewReader(data), SWFOptions{})
		var streamed bytes.Buffer
		rep2, err2 := WriteSWF(bytes.NewReader(data), &streamed, SWFOptions{})
		if (err == nil) != (err2 == nil) {
			t.Fatalf("ReadSWF: %v; WriteSWF: %v", err, err2)
		}
		if diff := cmp.Diff(rep, rep2); diff != "" {
			t.Fatalf("reports differ:\n%s", diff)
		}
		if err != nil {
			if streamed.Len() > 0 {
				t.Fatalf("WriteSWF failed (%v) but wrote %d bytes", err2, streamed.Len())
			}
			return
		}
		if rep.Jobs != len(w.Jobs) {
			t.Fatalf("report says %d jobs, workload has %d", rep.Jobs, len(w.Jobs))
		}
		var encoded bytes.Buffer
		if err := Encode(&encoded, w); err != nil {
			t.Fatal(err)
		}
		if encoded.String() != streamed.String() {
			t.Fatalf("WriteSWF wrote\n%s\nEncode(ReadSWF) writes\n%s", streamed.String(), encoded.String())
		}
		back, err := Parse(streamed.Bytes())
		if err != nil {
			t.Fatalf("the workload file is rejected: %v", err)
		}
		if diff := cmp.Diff(w, back); diff != "" {
			t.Fatalf("round trip:\n%s", diff)
		}
	})
}

// BenchmarkWriteSWF converts a 100,000-line trace to a workload file.
func BenchmarkWriteSWF(b *testing.B) {
	data := swfLines(100_000)
	for b.Loop() {
		if _, err := WriteSWF(bytes.NewReader(data), io.Discard, SWFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// appendSWFJob renders every job swfTrace.jobs can make exactly as the general
// jobWriter.job does: floats of every magnitude (exponent forms included), step and
// sigmoid utilities, with and without an after edge or a deadline (the runtime is > 0:
// scanSWF drops the others).
func TestSWFJobRendering(t *testing.T) {
	anyFloat := rapid.OneOf(
		rapid.Float64Range(0, 1e12),
		rapid.Float64Range(0, 1e-5),
		rapid.SampledFrom([]float64{0, 1, 1e-6, 9.999999999999999e-7, 1e-7, 1e20, 1e21, 1.5e-300, 5e-324, 1e12, 123456789.123}),
	)
	rapid.Check(t, func(t *rapid.T) {
		id := rapid.Float64Range(-1e30, 1e30).Draw(t, "id")
		j := &Job{ID: swfID(id), Arrival: anyFloat.Draw(t, "arrival"), Priority: 1, Deadline: anyFloat.Draw(t, "deadline"),
			Stages: []Stage{{Pool: "processors", Tasks: rapid.IntRange(1, 10_000_000).Draw(t, "tasks"),
				Runtime: &Runtime{Type: "fixed", Value: anyFloat.Filter(func(v float64) bool { return v > 0 }).Draw(t, "runtime")}}}}
		if rapid.Bool().Draw(t, "sigmoid") {
			j.Utility = sched.Sigmoid{Priority: 1, Deadline: anyFloat.Draw(t, "u.deadline"), Decay: anyFloat.Draw(t, "decay")}
		} else {
			j.Utility = sched.Step{Value: 1, Deadline: anyFloat.Draw(t, "u.deadline")}
		}
		if rapid.Bool().Draw(t, "after") {
			j.After = []string{swfID(rapid.Float64Range(0, 1e30).Draw(t, "prev"))}
		}
		var general bytes.Buffer
		jw, err := startJobs(&general, &Workload{Cluster: Cluster{Pools: []Pool{{Name: "processors", Slots: 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		jw.out.Flush()
		start := general.Len()
		if err := jw.job(j); err != nil {
			t.Fatal(err)
		}
		jw.out.Flush()
		want := strings.TrimPrefix(general.String()[start:], "\n  ")
		if got := string(appendSWFJob(nil, j)); got != want {
			t.Fatalf("appendSWFJob:\n%s\njobWriter.job:\n%s", got, want)
		}
	})
}
