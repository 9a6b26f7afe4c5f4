package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/workload"
)

const sampleSWF = "../../workload/testdata/sample.swf"

// swfLine is one SWF job line: job 1 submitted at submit, running run seconds on procs
// processors (other fields unknown or neutral).
func swfLine(id int, submit, run, procs string) string {
	return strconv.Itoa(id) + " " + submit + " 0 " + run + " " + procs + " -1 -1 " + procs + " 100 -1 1 1 1 1 1 -1 -1 -1\n"
}

// Every way gen --family swf used to panic (a nil workload reached the encoder whenever
// the reader failed) is now exit 2 with a message naming the problem.
func TestGenSWFBadInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(swfLine(1, "0", "10", "1")))
	zw.Close()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"header only", []string{"--swf", write("header.swf", []byte("; MaxProcs: 8\n"))}, "no job line"},
		{"empty", []string{"--swf", write("empty.swf", nil)}, "no job line"},
		{"all non-numeric", []string{"--swf", write("words.swf", []byte("a b c\nhello world\n"))}, "2 not 18 numeric fields"},
		{"directory", []string{"--swf", dir}, "is a directory"},
		{"line over 1 MiB", []string{"--swf", write("long.swf", bytes.Repeat([]byte("1 "), 600_000))}, "line 1 is longer than 1048576 bytes"},
		{"processors 0.5", []string{"--swf", write("half.swf", []byte(swfLine(1, "0", "10", "0.5")))}, "1 processors not a whole number"},
		{"processors 1e30", []string{"--swf", write("wide.swf", []byte(swfLine(1, "0", "10", "1e30")))}, "1 more than 10000000 processors"},
		{"header MaxProcs 1e11", []string{"--swf", write("maxprocs.swf", []byte("; MaxProcs: 100000000000\n"+swfLine(1, "0", "10", "1")))}, "header MaxProcs: 100000000000 is more than a workload pool may have"},
		{"truncated gzip", []string{"--swf", write("cut.swf.gz", gz.Bytes()[:gz.Len()-9])}, "decompressing"},
		{"not gzip", []string{"--swf", write("plain.swf.gz", []byte(swfLine(1, "0", "10", "1")))}, "read as gzip"},
		{"--deadline-factor -1", []string{"--swf", sampleSWF, "--deadline-factor", "-1"}, "--deadline-factor -1"},
		{"--deadline-factor NaN", []string{"--swf", sampleSWF, "--deadline-factor", "NaN"}, "--deadline-factor NaN"},
		{"--decay -1", []string{"--swf", sampleSWF, "--decay", "-1"}, "--decay -1"},
		{"--decay Inf", []string{"--swf", sampleSWF, "--decay", "Inf"}, "--decay +Inf"},
		{"--jobs -1", []string{"--swf", sampleSWF, "--jobs", "-1"}, "--jobs -1"},
		{"no --swf", nil, "--swf"},
		{"missing file", []string{"--swf", filepath.Join(dir, "missing.swf")}, "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(context.Background(), "", append([]string{"gen", "--family", "swf"}, c.args...)...)
			if code != ExitBadUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 saying %q", code, errOut, c.want)
			}
			if out != "" {
				t.Errorf("wrote a workload on a bad input:\n%.200s", out)
			}
		})
	}
	// A .swf.gz is decompressed: the same workload as the plain file.
	plain := write("one.swf", []byte(swfLine(1, "0", "10", "1")))
	var packed bytes.Buffer
	zw = gzip.NewWriter(&packed)
	zw.Write([]byte(swfLine(1, "0", "10", "1")))
	zw.Close()
	gzPath := write("one.swf.gz", packed.Bytes())
	code1, out1, err1 := runCLI(context.Background(), "", "gen", "--family", "swf", "--swf", plain)
	code2, out2, err2 := runCLI(context.Background(), "", "gen", "--family", "swf", "--swf", gzPath)
	if code1 != 0 || code2 != 0 || out1 != out2 {
		t.Errorf(".swf.gz: exit %d and %d, same output %v:\n%s\n%s", code1, code2, out1 == out2, err1, err2)
	}
}

// gen --family swf writes only what simulate reads: jobs beyond the workload file's
// limits (runtime, deadline, width, arrival) are dropped and counted per reason.
func TestGenSWFRespectsFileLimits(t *testing.T) {
	trace := swfLine(1, "0", "10", "1") +
		swfLine(2, "0", "1e13", "1") + // runtime over the limit
		swfLine(3, "1e13", "10", "1") + // arrives 1e13 s after job 1
		swfLine(4, "5", "10", "100000000") + // 1e8 processors
		swfLine(5, "6", "4e11", "1") + // deadline 3 × 4e11 = 1.2e12 s
		swfLine(6, "7", "20", "2")
	path := filepath.Join(t.TempDir(), "limits.swf")
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(context.Background(), "", "gen", "--family", "swf", "--swf", path, "--jobs", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"kept 2 of 6 jobs on 2 processors",
		"1 runtime over 1e+12 s, the workload file's limit",
		"1 submitted more than 1e+12 s after the first kept job",
		"1 more than 10000000 processors",
		"1 deadline (deadline factor × runtime) over 1e+12 s",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	w, err := workload.Parse([]byte(out))
	if err != nil {
		t.Fatalf("simulate would reject what gen wrote: %v", err)
	}
	if len(w.Jobs) != 2 || w.Jobs[0].ID != "swf1" || w.Jobs[1].ID != "swf6" {
		t.Fatalf("kept %d jobs: %+v", len(w.Jobs), w.Jobs)
	}
	code, _, errOut = runCLI(context.Background(), out, "simulate", "-", "--policies", "fifo")
	if code != 0 {
		t.Fatalf("simulate: exit %d: %s", code, errOut)
	}
}

// The report says how many lines were dropped for each reason, one reason a line, in
// words, and when --jobs cut the trace short (job 5, too wide, comes after the third
// kept job and is not reached).
func TestGenSWFReport(t *testing.T) {
	code, _, errOut := runCLI(context.Background(), "", "gen", "--family", "swf", "--swf", sampleSWF, "--jobs", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Kept jobs 1, 2 and 4; jobs 5 and 7 cut; four lines dropped: 3 + 2 + 4 = 9. The
	// kept jobs' work, 4·100 + 2·50 + 3·40, over 8 processors × 30 s is 2.58.
	want := "coraopt: " + sampleSWF + ": kept 3 of 9 jobs on 8 processors (from MaxProcs); cut 2 by --jobs 3 (--jobs 0 keeps the whole trace); dropped 4:\n" +
		"  1 cancelled before it ran (status 5, runtime ≤ 0)\n" +
		"  1 not 18 numeric fields\n" +
		"  1 partial-execution record (status 2, 3 or 4; the job's summary line is kept)\n" +
		"  1 runtime unknown or not positive\n" +
		"coraopt: " + sampleSWF + ": offered load 2.58 as traced\n" +
		"coraopt: " + sampleSWF + ": 0 preceding-job links to dropped jobs removed; 1 think times not modelled (the trace's submit times stand)\n"
	if errOut != want {
		t.Errorf("report:\n%s\nwant:\n%s", errOut, want)
	}
}

// A workload larger than simulate reads is refused, exit 2, naming the size and --jobs.
func TestWriteWorkloadTooLarge(t *testing.T) {
	var out, errOut bytes.Buffer
	s := Streams{Out: &out, Err: &errOut}
	err := writeWorkload(s, 100, func(w io.Writer) error {
		_, err := w.Write(bytes.Repeat([]byte("x"), 101))
		return err
	})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != ExitBadUsage || !strings.Contains(err.Error(), "101 bytes, more than simulate reads (100)") || !strings.Contains(err.Error(), "--jobs") {
		t.Fatalf("got %v", err)
	}
	if err := writeWorkload(s, 100, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err }); err != nil {
		t.Fatal(err)
	}
}

// FuzzGenSWF runs gen --family swf on fuzzed trace contents and flags: never a panic
// (exit 3), exit 0 only with a workload simulate accepts, exit 2 with a message.
func FuzzGenSWF(f *testing.F) {
	sample, err := os.ReadFile(sampleSWF)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample, 0, 3.0, 0.0)
	f.Add(sample, 2, 1.5, 0.5)
	f.Add([]byte(swfLine(1, "0", "1e13", "1")+swfLine(2, "1e13", "10", "1")+swfLine(3, "0", "10", "1e8")), 0, 3.0, 0.0)
	f.Add([]byte("; MaxProcs: 100000000000\n"+swfLine(1, "0", "10", "1")), 0, 3.0, 0.0)
	f.Add([]byte(swfLine(1, "0", "10", "0.5")), 0, 3.0, 0.0)
	f.Add([]byte("; MaxProcs: 8\n"), 0, 3.0, 0.0)
	f.Add(sample, -1, -1.0, -1.0)
	f.Fuzz(func(t *testing.T, data []byte, jobs int, factor, decay float64) {
		code, out, errOut := runCLI(context.Background(), string(data), "gen", "--family", "swf", "--swf", "-",
			"--jobs", strconv.Itoa(jobs), "--deadline-factor", strconv.FormatFloat(factor, 'g', -1, 64),
			"--decay", strconv.FormatFloat(decay, 'g', -1, 64))
		switch code {
		case 0:
			if _, err := workload.Parse([]byte(out)); err != nil {
				t.Fatalf("exit 0, but simulate rejects the workload: %v\nstderr: %s", err, errOut)
			}
		case ExitBadUsage:
			if !strings.HasPrefix(errOut, "coraopt: ") {
				t.Fatalf("exit 2 without a message: %q", errOut)
			}
		default:
			t.Fatalf("exit %d: %s", code, errOut)
		}
	})
}

// heapSampler is an output that records the largest live heap seen at any write.
type heapSampler struct {
	n    int64
	peak uint64
}

func (h *heapSampler) Write(p []byte) (int, error) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	h.peak = max(h.peak, m.HeapAlloc)
	h.n += int64(len(p))
	return len(p), nil
}

// gen --family swf streams: the heap while it writes stays within a few hundred bytes
// per job line (the trace's numbers and the kept job numbers), not the kilobytes per
// job of a whole workload and its JSON document in memory (3.8 GB for 10^6 lines before;
// scripts/swf-synth.sh and the README give the measured peak).
func TestGenSWFStreams(t *testing.T) {
	const lines = 50_000
	var trace bytes.Buffer
	trace.WriteString("; MaxProcs: 128\n")
	for i := 1; i <= lines; i++ {
		trace.WriteString(swfLine(i, strconv.Itoa(i*13), strconv.Itoa(60+i%300), strconv.Itoa(1+i%16)))
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	out := &heapSampler{}
	var errOut bytes.Buffer
	code := Main(context.Background(), []string{"gen", "--family", "swf", "--swf", "-", "--jobs", "0"},
		Streams{In: bytes.NewReader(trace.Bytes()), Out: out, Err: &errOut})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	grown := int64(out.peak) - int64(base.HeapAlloc)
	t.Logf("%d lines, %d bytes written, heap %d bytes above the start at its peak (%d per line)", lines, out.n, grown, grown/lines)
	if perLine := grown / lines; perLine > 600 {
		t.Errorf("the heap grew by %d bytes per job line while writing; want at most 600", perLine)
	}
}
