package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeSweep writes a sweep file beside a generated workload file and returns its path.
func writeSweep(t *testing.T, body string) string {
	t.Helper()
	w := genWorkload(t, "--family", "cora", "--jobs", "10", "--seed", "4")
	dir := filepath.Dir(w)
	if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "s.json")
}

const smallSweep = `{"workloads": ["w.json", {"family": "rush", "jobs": 8, "seed": 3}],
  "policies": ["fifo", "edf", "rrh"], "replications": 4, "seed": 2, "bound": true, "slot": 120}`

func cli(t *testing.T, want int, args ...string) (string, string) {
	t.Helper()
	code, out, errOut := runCLI(context.Background(), "", args...)
	if code != want {
		t.Fatalf("coraopt %s: exit %d, want %d\nstderr: %s", strings.Join(args, " "), code, want, errOut)
	}
	return out, errOut
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// One unsharded run and three shards (run on different worker counts) merge to the
// same bytes with --no-timing, and join to the same cells; table, CSV and figures work.
func TestSweepRunAndMerge(t *testing.T) {
	sweepPath := writeSweep(t, smallSweep)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	_, errOut := cli(t, 0, "sweep", "run", sweepPath, "--workers", "2", "--out", whole)
	if !strings.Contains(errOut, "24 cells run, 0 already recorded, 0 left") {
		t.Fatalf("stderr: %s", errOut)
	}
	var parts []string
	for k := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("p%d.jsonl", k))
		cli(t, 0, "sweep", "run", sweepPath, "--shard", fmt.Sprintf("%d/3", k), "--workers", fmt.Sprint(k+1), "--out", p)
		parts = append(parts, p)
	}
	one, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, whole, "-o", "json", "--no-timing", "--joined", filepath.Join(dir, "j1.jsonl"))
	three, _ := cli(t, 0, append(append([]string{"sweep", "merge", "--sweep", sweepPath}, parts...), "-o", "json", "--no-timing", "--joined", filepath.Join(dir, "j3.jsonl"))...)
	if one != three {
		t.Fatalf("3 shards merge differently:\n%s", cmp.Diff(one, three))
	}
	if a, b := readFile(t, filepath.Join(dir, "j1.jsonl")), readFile(t, filepath.Join(dir, "j3.jsonl")); a != b || strings.Count(a, "\n") != 24 || strings.Contains(a, "timing") {
		t.Fatalf("joined cells differ or keep timing:\n%s", cmp.Diff(a, b))
	}
	var m struct {
		Cells  int
		Groups []struct {
			Workload, Policy string
			Seeds            int
			MinGap           *struct{ Mean float64 } `json:"min_gap"`
		}
	}
	if err := json.Unmarshal([]byte(one), &m); err != nil {
		t.Fatal(err)
	}
	if m.Cells != 24 || len(m.Groups) != 6 || m.Groups[0].Workload != "w.json" || m.Groups[4].Workload != "rush:jobs=8:seed=3:budget_ratio=2" ||
		m.Groups[4].Policy != "edf" || m.Groups[0].Seeds != 4 || m.Groups[0].MinGap == nil {
		t.Fatalf("merged: %s", one)
	}
	// With timing: decision p99 per group, only under timing.
	withTiming, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, whole, "-o", "json")
	if stripped, plain := stripTiming(t, withTiming), stripTiming(t, one); !cmp.Equal(stripped, plain) || !strings.Contains(withTiming, `"decision_p99_us"`) {
		t.Fatalf("timing is not confined to timing keys:\n%s", cmp.Diff(stripped, plain))
	}
	table, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, whole, "-o", "table", "--plots", filepath.Join(dir, "fig"))
	if !strings.Contains(table, "24 cells; mean [95% CI] (median)") || !regexp.MustCompile(`w\.json\s+rrh\s+4\s`).MatchString(table) {
		t.Fatalf("table:\n%s", table)
	}
	csv, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, whole, "-o", "csv")
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); lines[0] != "workload,policy,seeds,metric,mean,median,ci95_low,ci95_high" || len(lines) != 1+6*7 {
		t.Fatalf("csv has %d lines:\n%s", len(lines), csv)
	}
	for _, f := range []string{"sweep-sum_utility.png", "sweep-min_gap.svg", "sweep-timing-decision_p99_us.png"} {
		if st, err := os.Stat(filepath.Join(dir, "fig", f)); err != nil || st.Size() < 1000 {
			t.Errorf("figure %s: %v", f, err)
		}
	}
}

// A cell holds what `coraopt simulate` prints for that policy and seed.
func TestSweepCellIsSimulate(t *testing.T) {
	sweepPath := writeSweep(t, `{"workloads": ["w.json"], "policies": ["fifo", "edf-n"], "seeds": [5, 6]}`)
	out, _ := cli(t, 0, "sweep", "run", sweepPath)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines", len(lines))
	}
	var rec struct {
		Policy  string
		Seed    uint64
		Metrics map[string]any
	}
	if err := json.Unmarshal([]byte(lines[3]), &rec); err != nil {
		t.Fatal(err)
	}
	sim, _ := cli(t, 0, "simulate", filepath.Join(filepath.Dir(sweepPath), "w.json"), "--policies", "edf-n", "--seed", "6", "-o", "json")
	var s struct {
		Policies []map[string]any
	}
	if err := json.Unmarshal([]byte(sim), &s); err != nil {
		t.Fatal(err)
	}
	if rec.Policy != "edf-n" || rec.Seed != 6 {
		t.Fatalf("cell 3 is %s seed %d", rec.Policy, rec.Seed)
	}
	for k, v := range rec.Metrics {
		if !cmp.Equal(v, s.Policies[0][k]) {
			t.Errorf("%s: sweep %v, simulate %v", k, v, s.Policies[0][k])
		}
	}
	if len(rec.Metrics) < 10 {
		t.Fatalf("only %d metrics kept by default", len(rec.Metrics))
	}
}

// Killing a shard midway (its file cut mid-line) and re-running it completes only the
// missing cells; the merge then equals the uninterrupted run's.
func TestSweepResumeTruncated(t *testing.T) {
	sweepPath := writeSweep(t, smallSweep)
	dir := t.TempDir()
	ref, part := filepath.Join(dir, "ref.jsonl"), filepath.Join(dir, "part.jsonl")
	cli(t, 0, "sweep", "run", sweepPath, "--shard", "1/2", "--out", ref)
	full := readFile(t, ref)
	lines := strings.SplitAfter(full, "\n")
	cut := len(strings.Join(lines[:7], "")) + len(lines[7])/3
	if err := os.WriteFile(part, []byte(full[:cut]), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut := cli(t, 0, "sweep", "run", sweepPath, "--shard", "1/2", "--workers", "2", "--out", part)
	if !strings.Contains(errOut, "5 cells run, 7 already recorded, 0 left") {
		t.Fatalf("resume: %s", errOut)
	}
	_, errOut = cli(t, 0, "sweep", "run", sweepPath, "--shard", "1/2", "--out", part)
	if !strings.Contains(errOut, "0 cells run, 12 already recorded") {
		t.Fatalf("rerun of a complete part: %s", errOut)
	}
	other := filepath.Join(dir, "other.jsonl")
	cli(t, 0, "sweep", "run", sweepPath, "--shard", "0/2", "--out", other)
	a, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, other, ref, "--no-timing", "-o", "json", "--joined", filepath.Join(dir, "a.jsonl"))
	b, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, other, part, "--no-timing", "-o", "json", "--joined", filepath.Join(dir, "b.jsonl"))
	if a != b || readFile(t, filepath.Join(dir, "a.jsonl")) != readFile(t, filepath.Join(dir, "b.jsonl")) {
		t.Fatalf("the resumed shard merges differently:\n%s", cmp.Diff(a, b))
	}
}

func TestSweepMergeMissingAndErrors(t *testing.T) {
	sweepPath := writeSweep(t, smallSweep)
	dir := t.TempDir()
	var parts []string
	for k := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("p%d.jsonl", k))
		cli(t, 0, "sweep", "run", sweepPath, "--shard", fmt.Sprintf("%d/4", k), "--out", p)
		parts = append(parts, p)
	}
	_, errOut := cli(t, 1, "sweep", "merge", "--sweep", sweepPath, parts[0], parts[1], parts[3])
	if !strings.Contains(errOut, "6 of 24 cells missing: 2, 6, 10, 14, 18, 22") {
		t.Fatalf("missing shard: %s", errOut)
	}
	_, errOut = cli(t, 1, "sweep", "merge", "--sweep", sweepPath, parts[0], parts[1], parts[2], parts[3], parts[2])
	if !strings.Contains(errOut, "6 cells recorded more than once") {
		t.Fatalf("repeated shard: %s", errOut)
	}
	// A torn last line counts as missing, with a hint.
	data := readFile(t, parts[2])
	os.WriteFile(parts[2], []byte(data[:len(data)-20]), 0o644)
	_, errOut = cli(t, 1, append([]string{"sweep", "merge", "--sweep", sweepPath}, parts...)...)
	if !strings.Contains(errOut, "ends in a torn line") || !strings.Contains(errOut, "1 of 24 cells missing: 22") {
		t.Fatalf("torn part: %s", errOut)
	}
	// Bad input exits 2 naming the JSON path; a bad shard or format too.
	bad := writeSweep(t, `{"workloads": ["w.json", "missing.json"], "policies": [{"name": "fifo", "delta": 1}], "seeds": [1]}`)
	_, errOut = cli(t, 2, "sweep", "run", bad)
	if !strings.Contains(errOut, "policies[0].delta: unknown parameter") {
		t.Fatalf("bad sweep file: %s", errOut)
	}
	missing := writeSweep(t, `{"workloads": ["w.json", "missing.json"], "policies": ["fifo"], "seeds": [1]}`)
	_, errOut = cli(t, 2, "sweep", "run", missing)
	if !strings.Contains(errOut, "workloads[1]: ") || !strings.Contains(errOut, "missing.json") {
		t.Fatalf("missing workload: %s", errOut)
	}
	cli(t, 2, "sweep", "run", sweepPath, "--shard", "4/4")
	cli(t, 2, "sweep", "merge", "--sweep", sweepPath, parts[0], "-o", "xml")
	os.WriteFile(filepath.Join(dir, "junk.jsonl"), []byte("{\"cell\": 1}\n"), 0o644)
	_, errOut = cli(t, 2, "sweep", "merge", "--sweep", sweepPath, filepath.Join(dir, "junk.jsonl"))
	if !strings.Contains(errOut, "junk.jsonl:1: not a sweep record") {
		t.Fatalf("junk part: %s", errOut)
	}
	// Appending to a part of another sweep is refused.
	another := writeSweep(t, strings.Replace(smallSweep, `"seed": 2`, `"seed": 3`, 1))
	_, errOut = cli(t, 2, "sweep", "run", another, "--shard", "0/4", "--out", parts[0])
	if !strings.Contains(errOut, "not of this sweep") {
		t.Fatalf("another sweep's part: %s", errOut)
	}
}

// --submit submits the array and then the merge job with afterok on the array's id
// (a stand-in sbatch records the calls).
func TestSweepSlurmSubmit(t *testing.T) {
	sweepPath := writeSweep(t, smallSweep)
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	fake := fmt.Sprintf("#!/bin/sh\necho \"$PWD $*\" >> %s\nif [ -f %s.n ]; then echo 5002; else touch %s.n; echo '5001;cluster'; fi\n", log, log, log)
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := filepath.Join(t.TempDir(), "job")
	out, _ := cli(t, 0, "sweep", "slurm", sweepPath, "--shards", "4", "--cpus", "2", "--time", "00:10:00", "--dir", dir, "--coraopt", "/opt/coraopt", "--submit", "-o", "json")
	var res struct {
		ArrayJob string `json:"array_job"`
		MergeJob string `json:"merge_job"`
		Cells    int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.ArrayJob != "5001" || res.MergeJob != "5002" || res.Cells != 24 {
		t.Fatalf("result: %s", out)
	}
	calls := readFile(t, log)
	if want := dir + " --parsable array.sbatch\n" + dir + " --parsable --dependency=afterok:5001 merge.sbatch\n"; calls != want {
		t.Fatalf("sbatch calls:\n%s\nwant\n%s", calls, want)
	}
	array := readFile(t, filepath.Join(dir, "array.sbatch"))
	if !strings.Contains(array, "#SBATCH --array=0-3") || !strings.Contains(array, "'/opt/coraopt' sweep run '"+sweepPath+"'") {
		t.Fatalf("array script:\n%s", array)
	}
	for _, d := range []string{"parts", "logs"} {
		if st, err := os.Stat(filepath.Join(dir, d)); err != nil || !st.IsDir() {
			t.Fatalf("%s: %v", d, err)
		}
	}
	// No sbatch: a usage error that says so.
	t.Setenv("PATH", t.TempDir())
	_, errOut := cli(t, 2, "sweep", "slurm", sweepPath, "--shards", "2", "--dir", dir, "--submit")
	if !strings.Contains(errOut, "sbatch not found") {
		t.Fatalf("no sbatch: %s", errOut)
	}
	cli(t, 2, "sweep", "slurm", sweepPath, "--shards", "0")
}

// The merge of two fixed parts (testdata/sweep, from grid.json: 2 workloads × 2
// policies × 3 seeds with the bound) in each output format, byte for byte; the parts
// are inputs here, so the timing figures are fixed too. Regenerate with -update.
func TestSweepMergeGolden(t *testing.T) {
	sweepPath, parts := "testdata/sweep/grid.json", []string{"testdata/sweep/part-1.jsonl", "testdata/sweep/part-0.jsonl"}
	for _, format := range []string{"json", "table", "csv"} {
		t.Run(format, func(t *testing.T) {
			out, _ := cli(t, 0, append(append([]string{"sweep", "merge", "--sweep", sweepPath}, parts...), "-o", format)...)
			golden := "testdata/sweep/merged." + format
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(readFile(t, golden), out); diff != "" {
				t.Fatalf("output changed (-want +got):\n%s", diff)
			}
		})
	}
}

// A cell whose run cannot finish records its error: the run goes on, exits 1 naming it,
// a rerun does not repeat it, and merge lists it apart from the aggregates (exit 1).
func TestSweepFailedCell(t *testing.T) {
	dir := t.TempDir()
	stuck := `{"cluster": {"pools": [{"name": "c", "slots": 1}], "capacity": [[0, {"c": 1}], [5, {"c": 0}]]},
	 "jobs": [{"id": "a", "deadline": 100, "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]},
	          {"id": "b", "arrival": 10, "deadline": 100, "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]}]}`
	ok := `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [{"id": "a", "deadline": 100, "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]}]}`
	os.WriteFile(filepath.Join(dir, "stuck.json"), []byte(stuck), 0o644)
	os.WriteFile(filepath.Join(dir, "ok.json"), []byte(ok), 0o644)
	sweepPath := filepath.Join(dir, "s.json")
	os.WriteFile(sweepPath, []byte(`{"workloads": ["ok.json", "stuck.json"], "policies": ["fifo"], "seeds": [1, 2]}`), 0o644)
	part := filepath.Join(dir, "p.jsonl")
	_, errOut := cli(t, 1, "sweep", "run", sweepPath, "--out", part)
	if !strings.Contains(errOut, "4 cells run") || !strings.Contains(errOut, "2 cells recorded an error") || !strings.Contains(errOut, "cell 2 (stuck.json, fifo, seed 1): ") || !strings.Contains(errOut, "job b never completed") {
		t.Fatalf("run: %s", errOut)
	}
	_, errOut = cli(t, 0, "sweep", "run", sweepPath, "--out", part)
	if !strings.Contains(errOut, "0 cells run, 4 already recorded") {
		t.Fatalf("rerun: %s", errOut)
	}
	out, errOut := cli(t, 1, "sweep", "merge", "--sweep", sweepPath, part, "-o", "json")
	var m struct {
		Groups []struct{ Workload string }
		Failed []struct {
			Cell  int
			Error string
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Groups) != 1 || m.Groups[0].Workload != "ok.json" || len(m.Failed) != 2 || m.Failed[1].Cell != 3 || !strings.Contains(errOut, "left out of the aggregates") {
		t.Fatalf("merge: %s\n%s", out, errOut)
	}
}

// On a terminal `sweep run --out` shows a progress bar on stderr and nothing on stdout.
func TestSweepRunProgressOnTerminal(t *testing.T) {
	sweepPath := writeSweep(t, `{"workloads": ["w.json"], "policies": ["fifo"], "seeds": [1, 2, 3]}`)
	var out, errOut strings.Builder
	code := Main(context.Background(), []string{"sweep", "run", sweepPath, "--out", filepath.Join(t.TempDir(), "p.jsonl")},
		Streams{In: strings.NewReader(""), Out: &out, Err: &errOut, IsTerminal: true})
	if code != 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "shard 0/1") || !strings.Contains(errOut.String(), "(1/3") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// Two `sweep run` on one --out: the second is refused (exit 2) naming the first's PID,
// and writes nothing; the first, stopped, leaves a part that a rerun completes and
// that merges.
func TestSweepRunRefusesASecondWriter(t *testing.T) {
	sweepPath := writeSweep(t, `{"workloads": ["w.json"], "policies": ["fifo", "edf", "fair", "rrh"], "replications": 50}`)
	part := filepath.Join(t.TempDir(), "p.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		code   int
		stderr string
	}
	first := make(chan outcome, 1)
	go func() {
		code, _, errOut := runCLI(ctx, "", "sweep", "run", sweepPath, "--workers", "1", "--out", part)
		first <- outcome{code, errOut}
	}()
	for polls := 0; ; polls++ {
		if data, _ := os.ReadFile(part); strings.Count(string(data), "\n") >= 2 {
			break
		}
		if polls > 100000 {
			t.Fatal("the first run wrote nothing")
		}
		time.Sleep(time.Millisecond)
	}
	before := readFile(t, part)
	_, errOut := cli(t, 2, "sweep", "run", sweepPath, "--workers", "1", "--out", part)
	if want := fmt.Sprintf("is being written by another run (PID %d on ", os.Getpid()); !strings.Contains(errOut, want) {
		t.Fatalf("second run: %s (want %q)", errOut, want)
	}
	cancel()
	r := <-first
	if r.code != 1 || !strings.Contains(r.stderr, "interrupted after") {
		t.Fatalf("first run: exit %d: %s", r.code, r.stderr)
	}
	after := readFile(t, part)
	if !strings.HasPrefix(after, before) || strings.Count(after, `{"sweep"`) != strings.Count(after, "\n") {
		t.Fatalf("the part is not the first run's lines alone:\n%s", after)
	}
	_, errOut = cli(t, 0, "sweep", "run", sweepPath, "--workers", "2", "--out", part)
	if !strings.Contains(errOut, " left") || strings.Contains(errOut, ": 0 cells run") {
		t.Fatalf("rerun: %s", errOut)
	}
	out, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, part, "-o", "json", "--no-timing")
	if !strings.Contains(out, `"cells": 200`) {
		t.Fatalf("merge: %s", out)
	}
}

// merge checks every record against the cell the sweep file says it is: a record whose
// policy was edited no longer merges into a phantom group (exit 0 before) but exits 2
// naming the part, the line and the field; the sweep file is required, and another
// sweep's file is refused.
func TestSweepMergeChecksRecordsAgainstTheSweep(t *testing.T) {
	sweepPath := writeSweep(t, `{"workloads": ["w.json"], "policies": ["fifo", "edf"], "seeds": [1, 2]}`)
	part := filepath.Join(t.TempDir(), "p.jsonl")
	cli(t, 0, "sweep", "run", sweepPath, "--out", part)
	good := readFile(t, part)
	lines := strings.SplitAfter(good, "\n")
	lines[2] = strings.Replace(lines[2], `"policy":"edf"`, `"policy":"fair"`, 1)
	os.WriteFile(part, []byte(strings.Join(lines, "")), 0o644)
	_, errOut := cli(t, 2, "sweep", "merge", "--sweep", sweepPath, part)
	if want := part + `:3: field "policy" is "fair", but cell 2 of the sweep file has policy "edf"`; !strings.Contains(errOut, want) {
		t.Fatalf("edited record: %s (want %q)", errOut, want)
	}
	os.WriteFile(part, []byte(good), 0o644)
	if _, errOut := cli(t, 2, "sweep", "merge", part); !strings.Contains(errOut, `required flag(s) "sweep" not set`) {
		t.Fatalf("no --sweep: %s", errOut)
	}
	other := writeSweep(t, `{"workloads": ["w.json"], "policies": ["fifo", "edf"], "seeds": [1, 3]}`)
	if _, errOut := cli(t, 2, "sweep", "merge", "--sweep", other, part); !strings.Contains(errOut, part+":1: a record of sweep ") || !strings.Contains(errOut, "another sweep file, or this one or a workload of it changed since the run") {
		t.Fatalf("another sweep file: %s", errOut)
	}
	out, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, part, "-o", "json", "--no-timing")
	if !strings.Contains(out, `"cells": 4`) {
		t.Fatalf("merge: %s", out)
	}
}
