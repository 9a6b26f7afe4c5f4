package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sim"
)

// synthTrace writes a seeded SWF trace (the Parallel Workloads Archive's logs may not
// be committed): n job lines on 128 processors, 1–16 processors and 60–360 s each (as
// scripts/swf-synth.sh), exponential inter-arrival times at an offered load of about
// 0.6, and one line in fifty cancelled before it ran or without a runtime.
func synthTrace(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x5f3))
	var b bytes.Buffer
	b.WriteString("; Computer: synthetic\n; MaxProcs: 128\n")
	submit := 0.0
	for i := 1; i <= n; i++ {
		procs := 1 + rng.IntN(16)
		run := float64(60 + rng.IntN(300))
		status := 1
		switch rng.IntN(50) {
		case 0:
			run, status = -1, 5
		case 1:
			run = -1
		}
		fmt.Fprintf(&b, "%d %.0f 0 %.0f %d -1 -1 %d -1 -1 %d 1 1 1 1 -1 -1 -1\n", i, submit, run, procs, procs, status)
		// Mean work per job 8.5 processors × 210 s; at load 0.6 on 128 processors the
		// mean gap is ≈ 23 s.
		submit += rng.ExpFloat64() * 23
	}
	return b.Bytes()
}

// A trace of 10,000 jobs read gzipped, its load scaled to 90%: simulate --bound --slot
// 60 with fifo, edf and fair finishes with both bounds, proven, and no policy beats
// either (issue 29's acceptance, on a generated trace in place of the archive's).
func TestSWFTraceScaledAndBounded(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(synthTrace(10_000, 1))
	zw.Close()
	trace := filepath.Join(dir, "synth.swf.gz")
	if err := os.WriteFile(trace, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, w, errOut := runCLI(context.Background(), "", "gen", "--family", "swf", "--swf", trace, "--load", "0.9", "--decay", "0.5")
	if code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, " of 10,000 jobs on 128 processors") || !strings.Contains(errOut, "for --load 0.9") || !strings.Contains(errOut, "runtime unknown or not positive") {
		t.Fatalf("gen's report: %s", errOut)
	}
	code, out, errOut := runCLI(context.Background(), w, "simulate", "-", "--policies", "fifo,edf,fair", "--bound", "--slot", "60", "-o", "json")
	if code != 0 {
		t.Fatalf("simulate: exit %d: %s", code, errOut)
	}
	var res simulateJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	b := res.Bound
	if b == nil || !b.Exact || b.SumBound <= 0 || len(b.SortedUtilities) < 9_000 {
		t.Fatalf("bound %+v", b)
	}
	for _, m := range res.Policies {
		if u := m.Utilization["processors"]; u < 0.8 || u > 0.95 {
			t.Errorf("%s: utilization %.3f, want about the 0.9 the trace was scaled to", m.Name, u)
		}
		if sim.BeatsBound(m.SortedUtilities, b.SortedUtilities, 1e-9) || m.SumUtility > b.SumBound+1e-9 {
			t.Errorf("%s beats a bound: sum %g against %g", m.Name, m.SumUtility, b.SumBound)
		}
		if m.VsBound == nil || m.VsBound.LexmaxUnproven || m.VsBound.SumGap < 0 {
			t.Errorf("%s: vs bound %+v", m.Name, m.VsBound)
		}
	}
}
