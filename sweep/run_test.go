package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/internal/workpool"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// loadTiny is a small grid: one 12-job cora workload (generator) and one file, three
// policies, three seeds; extra adds top-level fields.
func loadTiny(t testing.TB, extra string) *Sweep {
	t.Helper()
	dir := t.TempDir()
	w, err := workload.RUSHWorkload(8, 5, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := workload.Encode(&buf, w); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "r8.json"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := `{"workloads": [{"family": "cora", "jobs": 12, "seed": 2}, "r8.json"], "policies": ["fifo", "edf", "fair"], "seeds": [4, 1, 9]`
	if extra != "" {
		doc += ", " + extra
	}
	doc += "}"
	path := filepath.Join(dir, "s.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCellOrder(t *testing.T) {
	s := loadTiny(t, "")
	if s.NumCells() != 18 {
		t.Fatalf("%d cells", s.NumCells())
	}
	// The documented order: seeds fastest, then policies, then workloads.
	for i := range s.NumCells() {
		c := s.Cell(i)
		if want := (c.Workload*3+c.Policy)*3 + c.SeedAt; want != i {
			t.Fatalf("cell %d decodes to %+v", i, c)
		}
	}
	if c := s.Cell(4); c.Workload != 0 || c.Policy != 1 || c.SeedAt != 1 {
		t.Fatalf("cell 4 = %+v, want workload 0, policy edf, seed 1", c)
	}
	rapid.Check(t, func(t *rapid.T) {
		W, P, S := rapid.IntRange(1, 5).Draw(t, "W"), rapid.IntRange(1, 5).Draw(t, "P"), rapid.IntRange(1, 9).Draw(t, "S")
		n := rapid.IntRange(1, 20).Draw(t, "N")
		g := &Sweep{File: File{Workloads: make([]WorkloadSpec, W), Policies: make([]PolicySpec, P), Seeds: make([]uint64, S)}}
		seen := make([]int, g.NumCells())
		for k := range n {
			for _, i := range g.ShardCells(k, n) {
				if i%n != k {
					t.Fatalf("cell %d in shard %d/%d", i, k, n)
				}
				seen[i]++
			}
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("cell %d in %d shards", i, c)
			}
			cl := g.Cell(i)
			if cl.Workload >= W || cl.Policy >= P || cl.SeedAt >= S || (cl.Workload*P+cl.Policy)*S+cl.SeedAt != i {
				t.Fatalf("cell %d = %+v", i, cl)
			}
		}
	})
}

// A cell is exactly what `coraopt simulate` measures for that policy and seed.
func TestRunCellIsSimMeasure(t *testing.T) {
	s := loadTiny(t, `"bound": true, "slot": 120, "metrics": ["sorted_utilities", "makespan"]`)
	for _, i := range []int{0, 5, 16} {
		rec, err := s.RunCell(t.Context(), i)
		if err != nil || rec.Error != "" {
			t.Fatal(err, rec.Error)
		}
		c := s.Cell(i)
		pol, _ := all.New(s.Policies[c.Policy].Name)
		m, err := sim.Measure(t.Context(), s.Workload[c.Workload], pol, s.Seeds[c.SeedAt], false)
		if err != nil {
			t.Fatal(err)
		}
		b, err := sim.Bound(t.Context(), s.Workload[c.Workload], s.Seeds[c.SeedAt], 120, m.Makespan)
		if err != nil {
			t.Fatal(err)
		}
		m.CompareToBound(b.SortedUtilities, 1e-12)
		for k, raw := range map[string]any{"sum_utility": m.SumUtility, "min_utility": m.MinUtility, "sorted_utilities": m.SortedUtilities, "vs_bound": m.VsBound, "makespan": m.Makespan} {
			want, _ := json.Marshal(raw)
			if !bytes.Equal(rec.Metrics[k], want) {
				t.Errorf("cell %d %s: %s, simulate %s", i, k, rec.Metrics[k], want)
			}
		}
		if rec.Seed != s.Seeds[c.SeedAt] || rec.Policy != s.Policies[c.Policy].Name || rec.Bound.SumUtility != b.SumUtility {
			t.Errorf("cell %d: record %+v", i, rec)
		}
		// The bound holds: no policy beats it.
		var sorted []float64
		json.Unmarshal(rec.Metrics["sorted_utilities"], &sorted)
		if sim.BeatsBound(sorted, b.SortedUtilities, 1e-9) {
			t.Errorf("cell %d beats its bound", i)
		}
	}
}

// runAll runs the given shard into memory and returns the lines.
func runAll(t *testing.T, s *Sweep, opt RunOptions) [][]byte {
	t.Helper()
	var lines [][]byte
	err := s.Run(t.Context(), opt, func(r *Record) error {
		l, err := MarshalLine(r)
		lines = append(lines, l)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func withoutTiming(t *testing.T, lines [][]byte) string {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		var r Record
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		if r.Timing == nil && r.Error == "" {
			t.Fatalf("a record without timing: %s", l)
		}
		r.Timing = nil
		out, _ := MarshalLine(&r)
		b.Write(out)
	}
	return b.String()
}

func mergeLines(t *testing.T, s *Sweep, parts ...[][]byte) ([]byte, error) {
	t.Helper()
	var srcs []Source
	for k, lines := range parts {
		p, err := ReadPart(bytes.NewReader(bytes.Join(lines, nil)), "part")
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, Source{Name: "part" + string(rune('0'+k)), Part: p})
	}
	recs, err := s.Join(srcs)
	if err != nil {
		return nil, err
	}
	m, err := Aggregate(recs, false)
	if err != nil {
		t.Fatal(err)
	}
	return json.MarshalIndent(m, "", "  ")
}

// One worker or three, one shard or four: the same records in the same order (outside
// timing), and the same merged bytes.
func TestRunDeterministicAcrossWorkersAndShards(t *testing.T) {
	s := loadTiny(t, `"bound": true, "slot": 120`)
	one := runAll(t, s, RunOptions{Workers: 1})
	three := runAll(t, s, RunOptions{Workers: 3})
	if len(one) != s.NumCells() {
		t.Fatalf("%d records of %d cells", len(one), s.NumCells())
	}
	if a, b := withoutTiming(t, one), withoutTiming(t, three); a != b {
		t.Fatalf("workers changed the records:\n%s", cmp.Diff(a, b))
	}
	whole, err := mergeLines(t, s, one)
	if err != nil {
		t.Fatal(err)
	}
	var shards [][][]byte
	for k := range 4 {
		shards = append(shards, runAll(t, s, RunOptions{Shard: k, Shards: 4, Workers: 2}))
	}
	// Any order of the parts.
	slices.Reverse(shards)
	merged, err := mergeLines(t, s, shards...)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(whole, merged) {
		t.Fatalf("4 shards merge differently:\n%s", cmp.Diff(string(whole), string(merged)))
	}
	// The aggregate is the mean of the records (an independent sum).
	var m Merged
	json.Unmarshal(whole, &m)
	if len(m.Groups) != 6 || m.Groups[1].Policy != "edf" || m.Groups[3].Workload != "r8.json" || m.Groups[0].Seeds != 3 {
		t.Fatalf("groups %+v", m.Groups)
	}
	sum := 0.0
	for _, l := range one[3:6] { // workload 0, edf
		var r Record
		json.Unmarshal(l, &r)
		var x float64
		json.Unmarshal(r.Metrics["sum_utility"], &x)
		sum += x
	}
	if got := m.Groups[1].SumUtility.Mean; math.Abs(got-sum/3) > 1e-12*math.Abs(sum) {
		t.Fatalf("mean %g, records say %g", got, sum/3)
	}
	if m.Groups[0].MinGap == nil || m.Timing != nil || m.Groups[0].Timing != nil {
		t.Fatalf("gaps or timing wrong: %+v", m.Groups[0])
	}
}

// A part killed mid-line resumes: the torn line is cut and only the cells not yet
// complete run again; the finished file holds every cell once, as a whole run would.
func TestResumeAfterTornLine(t *testing.T) {
	s := loadTiny(t, "")
	path := filepath.Join(t.TempDir(), "part.jsonl")
	run := func() (ran int) {
		f, done, err := s.OpenPart(path, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		err = s.Run(t.Context(), RunOptions{Shard: 1, Shards: 2, Workers: 2, Done: done, Progress: func() { ran++ }}, func(r *Record) error {
			l, err := MarshalLine(r)
			if err == nil {
				_, err = f.Write(l)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return ran
	}
	if n := run(); n != 9 {
		t.Fatalf("first run ran %d cells of shard 1/2, want 9", n)
	}
	full, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(full, []byte("\n"))
	// Keep 4 whole lines and half of the fifth.
	cut := len(bytes.Join(lines[:4], nil)) + len(lines[4])/2
	if err := os.Truncate(path, int64(cut)); err != nil {
		t.Fatal(err)
	}
	if n := run(); n != 5 {
		t.Fatalf("resume ran %d cells, want the 5 not complete", n)
	}
	again, _ := os.ReadFile(path)
	if a, b := withoutTiming(t, lines[:9]), withoutTiming(t, bytes.SplitAfter(again, []byte("\n"))[:9]); a != b {
		t.Fatalf("resumed file differs:\n%s", cmp.Diff(a, b))
	}
	if n := run(); n != 0 {
		t.Fatalf("a complete part ran %d cells again", n)
	}
	// A part of another shard or another sweep is refused.
	if _, _, err := s.OpenPart(path, 0, 2); err == nil || !strings.Contains(err.Error(), "not in shard 0/2") {
		t.Fatalf("other shard: %v", err)
	}
	other := loadTiny(t, `"bound": true`)
	if _, _, err := other.OpenPart(path, 1, 2); err == nil || !strings.Contains(err.Error(), "not of this sweep") {
		t.Fatalf("other sweep: %v", err)
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	s := loadTiny(t, "")
	ctx, cancel := context.WithCancel(t.Context())
	n := 0
	err := s.Run(ctx, RunOptions{Workers: 2}, func(r *Record) error {
		if r.Cell != n {
			t.Fatalf("record %d out of order (want %d)", r.Cell, n)
		}
		n++
		if n == 3 {
			cancel()
		}
		return nil
	})
	// Cells already finished when the cancel lands are still emitted, in order (a
	// fast machine may finish all of them); the cancel is reported either way.
	if !errors.Is(err, context.Canceled) || n < 3 || n > s.NumCells() {
		t.Fatalf("err %v after %d records", err, n)
	}
}

func TestJoinChecks(t *testing.T) {
	s := loadTiny(t, "")
	a := runAll(t, s, RunOptions{Shard: 0, Shards: 3})
	b := runAll(t, s, RunOptions{Shard: 1, Shards: 3})
	c := runAll(t, s, RunOptions{Shard: 2, Shards: 3})
	if _, err := mergeLines(t, s, a, b, c); err != nil {
		t.Fatal(err)
	}
	_, err := mergeLines(t, s, a, c)
	var ie *IncompleteError
	if !errors.As(err, &ie) || !slices.Equal(ie.Missing, []int{1, 4, 7, 10, 13, 16}) || !strings.Contains(err.Error(), "6 of 18 cells missing: 1, 4, 7, 10, 13, 16") {
		t.Fatalf("missing shard: %v", err)
	}
	_, err = mergeLines(t, s, a, b, c, b[:1])
	if !errors.As(err, &ie) || len(ie.Duplicate) != 1 || !strings.Contains(err.Error(), "cell 1: part1:1, part3:1") {
		t.Fatalf("repeated cell: %v", err)
	}
	other := loadTiny(t, `"check": true`)
	_, err = mergeLines(t, s, a, b, runAll(t, other, RunOptions{Shard: 2, Shards: 3}))
	if err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), "part2:1: a record of sweep "+other.Fingerprint+", but the sweep file is sweep "+s.Fingerprint) {
		t.Fatalf("mixed sweeps: %v", err)
	}
	if got := Ranges([]int{0, 1, 2, 5, 7, 8}); got != "0-2, 5, 7-8" {
		t.Fatalf("Ranges %q", got)
	}
}

// A record whose workload, policy, parameters, seed or grid contradict the cell its
// index names is refused, naming the part, the line and the field — before, such a
// record merged into a group of its own (a phantom group) or another cell's.
func TestJoinRefusesRecordsThatContradictTheirCell(t *testing.T) {
	s := loadTiny(t, "")
	a := runAll(t, s, RunOptions{Shard: 0, Shards: 2})
	b := runAll(t, s, RunOptions{Shard: 1, Shards: 2})
	edit := func(line []byte, f func(*Record)) []byte {
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		f(&r)
		out, _ := MarshalLine(&r)
		return out
	}
	for _, tc := range []struct {
		name, want string
		f          func(*Record)
	}{
		{"phantom workload", `part1:3: field "workload" is "cora:jobs=12:seed=3", but cell 5 of the sweep file has workload "cora:jobs=12:seed=2"`, func(r *Record) { r.Workload = "cora:jobs=12:seed=3" }},
		{"another policy", `part1:3: field "policy" is "fair", but cell 5 of the sweep file has policy "edf"`, func(r *Record) { r.Policy = "fair" }},
		{"parameters", `part1:3: field "params" is "edf(delta=0.5)", but cell 5 of the sweep file has "edf"`, func(r *Record) { r.Params = all.Params{"delta": 0.5} }},
		{"seed", `part1:3: field "seed" is 7, but cell 5 of the sweep file has seed 9`, func(r *Record) { r.Seed = 7 }},
		{"cell index", `part1:3: field "workload" is "cora:jobs=12:seed=2", but cell 11 of the sweep file has workload "r8.json"`, func(r *Record) { r.Cell = 11 }},
		{"grid", `part1:3: field "cells" is 36, but the sweep file's grid has 18 cells`, func(r *Record) { r.Cells = 36 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := slices.Clone(b)
			bad[2] = edit(b[2], tc.f)
			_, err := mergeLines(t, s, a, bad)
			var ie *IncompleteError
			if err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), "1 record contradicts the cell its index names") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant %s", err, tc.want)
			}
		})
	}
	// Two records that swapped their cell indices: both named.
	bad := slices.Clone(b)
	bad[0], bad[1] = edit(b[0], func(r *Record) { r.Cell = 3 }), edit(b[1], func(r *Record) { r.Cell = 1 })
	if _, err := mergeLines(t, s, a, bad); err == nil || !strings.Contains(err.Error(), "2 records contradict") ||
		!strings.Contains(err.Error(), `part1:1: field "policy" is "fifo", but cell 3 of the sweep file has policy "edf"`) ||
		!strings.Contains(err.Error(), `part1:2: field "policy" is "edf", but cell 1 of the sweep file has policy "fifo"`) {
		t.Fatalf("swapped cells: %v", err)
	}
	// Resuming such a part is refused too.
	path := filepath.Join(t.TempDir(), "part.jsonl")
	os.WriteFile(path, bytes.Join(bad, nil), 0o644)
	if _, _, err := s.OpenPart(path, 1, 2); err == nil || !strings.Contains(err.Error(), `part.jsonl:1: field "policy" is "fifo", but cell 3`) {
		t.Fatalf("resume: %v", err)
	}
}

func TestReadPart(t *testing.T) {
	s := loadTiny(t, "")
	lines := runAll(t, s, RunOptions{Shard: 0, Shards: 6})
	data := bytes.Join(lines, nil)
	p, err := ReadPart(bytes.NewReader(data[:len(data)-10]), "x")
	if err != nil || !p.Torn || len(p.Records) != len(lines)-1 || p.Valid != int64(len(data)-len(lines[len(lines)-1])) {
		t.Fatalf("torn: %v %+v", err, p)
	}
	bad := append(append([]byte{}, lines[0]...), []byte("{\"cell\": 3}\n")...)
	if _, err := ReadPart(bytes.NewReader(append(bad, lines[1]...)), "x"); err == nil || !strings.Contains(err.Error(), "x:2: not a sweep record") {
		t.Fatalf("bad line: %v", err)
	}
}

func TestNewStat(t *testing.T) {
	// Student's t quantile t_{0.975, 3} = 3.182446305284263 (tables); s = sqrt(5/3).
	st := NewStat([]float64{4, 1, 3, 2})
	h := 3.182446305284263 * math.Sqrt(5.0/3) / 2
	if st.Mean != 2.5 || st.Median != 2.5 || st.CI95 == nil || math.Abs(st.CI95[0]-(2.5-h)) > 1e-9 || math.Abs(st.CI95[1]-(2.5+h)) > 1e-9 {
		t.Fatalf("%+v, want CI 2.5 ± %g", st, h)
	}
	if math.Abs(st.Std-math.Sqrt(5.0/3)) > 1e-15 {
		t.Fatalf("std %g, want sqrt(5/3)", st.Std)
	}
	if data, err := json.Marshal(st); err != nil || strings.Contains(string(data), "std") {
		t.Fatalf("merged output grew a std key: %s (%v)", data, err)
	}
	st = NewStat([]float64{7, 1, 3})
	if st.Median != 3 || st.Mean != 11.0/3 {
		t.Fatalf("%+v", st)
	}
	if st := NewStat([]float64{5}); st.CI95 != nil || st.Mean != 5 || st.Median != 5 || st.Std != 0 {
		t.Fatalf("one seed: %+v", st)
	}
	if st := NewStat([]float64{2, 2, 2}); st.CI95 == nil || st.CI95[0] != 2 || st.CI95[1] != 2 {
		t.Fatalf("no spread: %+v", st)
	}
}

func TestSlurmScripts(t *testing.T) {
	j := SlurmJob{Coraopt: "/opt/it's/coraopt", Sweep: "/data/s.json", Dir: "/scratch/run", Name: "grid", Shards: 4, CPUs: 2, Partition: "short", Time: "01:00:00"}
	if err := j.Check(); err != nil {
		t.Fatal(err)
	}
	a := j.ArrayScript()
	for _, want := range []string{"#SBATCH --array=0-3\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --partition=short\n", "#SBATCH --time=01:00:00\n",
		`exec '/opt/it'\''s/coraopt' sweep run '/data/s.json' --shard "${SLURM_ARRAY_TASK_ID}/4"`, `--out '/scratch/run/parts'"/shard-${SLURM_ARRAY_TASK_ID}.jsonl"`} {
		if !strings.Contains(a, want) {
			t.Errorf("array script lacks %q:\n%s", want, a)
		}
	}
	m := j.MergeScript()
	if !strings.Contains(m, "sweep merge --sweep '/data/s.json' parts/shard-0.jsonl parts/shard-1.jsonl parts/shard-2.jsonl parts/shard-3.jsonl -o json --joined cells.jsonl.tmp > merged.json.tmp") {
		t.Errorf("merge script:\n%s", m)
	}
	if s := j.SubmitScript(); !strings.Contains(s, `--dependency=afterok:"$array" merge.sbatch`) {
		t.Errorf("submit script:\n%s", s)
	}
	for _, bad := range []SlurmJob{{Shards: 0, CPUs: 1}, {Shards: 1, CPUs: 1, Coraopt: "rel", Sweep: "/s", Dir: "/d", Name: "x"},
		{Shards: 1, CPUs: 1, Coraopt: "/c", Sweep: "/s", Dir: "/d", Name: "x", Time: "1; rm"}} {
		if bad.Check() == nil {
			t.Errorf("%+v passes Check", bad)
		}
	}
}

// A part has one writer: a second OpenPart is refused with a *LockedError naming the
// holder's PID and host (from the holder file), until the first closes; a refused or
// failed open leaves the lock as it found it.
func TestPartLockedAgainstASecondRun(t *testing.T) {
	s := loadTiny(t, "")
	path := filepath.Join(t.TempDir(), "part.jsonl")
	first, _, err := s.OpenPart(path, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if first.Unlocked != nil {
		t.Fatalf("the test's file system cannot lock: %v", first.Unlocked)
	}
	host, _ := os.Hostname()
	for range 2 {
		_, _, err = s.OpenPart(path, 0, 1)
		var le *LockedError
		if !errors.As(err, &le) || le.Holder == nil || le.Holder.PID != os.Getpid() || le.Holder.Host != host {
			t.Fatalf("second open: %v (%#v)", err, le)
		}
		if want := fmt.Sprintf("is being written by another run (PID %d on %s, since ", os.Getpid(), host); !strings.Contains(err.Error(), want) {
			t.Fatalf("message %q lacks %q", err, want)
		}
	}
	line, _ := MarshalLine(&Record{Sweep: s.Fingerprint, Cell: 0, Cells: s.NumCells(), Workload: "cora:jobs=12:seed=2", Policy: "fifo", Seed: 4})
	if _, err := first.Write(line); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the holder file outlived its run: %v", err)
	}
	again, done, err := s.OpenPart(path, 0, 1)
	if err != nil || !done[0] || len(done) != 1 {
		t.Fatalf("reopening after Close: %v, done %v", err, done)
	}
	// Appends go to the end whatever was read.
	if _, err := again.Write(line); err != nil {
		t.Fatal(err)
	}
	again.Close()
	if data, _ := os.ReadFile(path); !bytes.Equal(data, append(slices.Clone(line), line...)) {
		t.Fatalf("part holds %q", data)
	}
	// A holder file that names no process: refused all the same, saying so.
	held, _, err := s.OpenPart(filepath.Join(t.TempDir(), "p.jsonl"), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	os.WriteFile(held.path+".lock", []byte("junk"), 0o644)
	if _, _, err := s.OpenPart(held.path, 0, 1); err == nil || !strings.Contains(err.Error(), "its PID is unknown") {
		t.Fatalf("unreadable holder: %v", err)
	}
}

// A panic in a cell stops the run after the cells before it and comes back as a
// *workpool.PanicError naming the cell (the command line exits 3 on it), instead of
// ending the process with Go's exit code 2, a bad input's.
func TestRunCellPanicIsAnError(t *testing.T) {
	s := loadTiny(t, "")
	s.Workload[1] = nil // the cells of workload 1 (9-17) dereference it
	var cells []int
	err := s.Run(t.Context(), RunOptions{Workers: 1}, func(r *Record) error {
		cells = append(cells, r.Cell)
		return nil
	})
	var pe *workpool.PanicError
	if !errors.As(err, &pe) || pe.Task != 9 || !strings.Contains(err.Error(), "cell 9") {
		t.Fatalf("err %v, want the panic of cell 9", err)
	}
	if len(cells) != 9 || cells[8] != 8 {
		t.Fatalf("emitted cells %v, want 0-8", cells)
	}
}
