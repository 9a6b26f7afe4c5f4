//go:build slurm

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sweep"
)

// maxPolls bounds the wait for the Slurm jobs (half a second apart).
const maxPolls = 2400

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// buildCoraopt builds the binary the Slurm jobs run into dir.
func buildCoraopt(t *testing.T, root, dir string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(dir, "coraopt")
	build := exec.Command(goBin, "build", "-o", bin, "./cmd/coraopt")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// A shard killed by SIGKILL midway (as Slurm does after a time limit's grace period)
// and run again completes only the cells it had not written, and its part then merges
// like an uninterrupted one. (The tag only because the binary is built here.)
func TestSweepSlurmKilledShardResumes(t *testing.T) {
	work := t.TempDir()
	bin := buildCoraopt(t, moduleRoot(t), work)
	sweepPath := filepath.Join(work, "baselines.json")
	doc := `{"workloads": [{"family": "cora", "jobs": 100, "seed": 1}], "policies": ["fifo", "fair", "edf", "rrh"], "replications": 50}`
	if err := os.WriteFile(sweepPath, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(work, "part.jsonl")
	run := exec.Command(bin, "sweep", "run", sweepPath, "--shard", "1/4", "--workers", "1", "--out", part)
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	lines := 0
	for range maxPolls * 10 {
		data, _ := os.ReadFile(part)
		if lines = strings.Count(string(data), "\n"); lines >= 10 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := run.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	run.Wait()
	data, _ := os.ReadFile(part)
	kept := strings.Count(string(data), "\n")
	if kept < 10 || kept >= 50 {
		t.Fatalf("killed with %d of 50 cells written: not midway", kept)
	}
	again := exec.Command(bin, "sweep", "run", sweepPath, "--shard", "1/4", "--workers", "2", "--out", part)
	var errOut bytes.Buffer
	again.Stderr = &errOut
	if err := again.Run(); err != nil {
		t.Fatalf("rerun: %v\n%s", err, errOut.String())
	}
	if want := fmt.Sprintf("%d cells run, %d already recorded, 0 left", 50-kept, kept); !strings.Contains(errOut.String(), want) {
		t.Fatalf("rerun after %d cells: %s (want %q)", kept, errOut.String(), want)
	}
	t.Logf("killed after %d cells; the rerun: %s", kept, strings.TrimSpace(errOut.String()))
	ref := filepath.Join(work, "ref.jsonl")
	cli(t, 0, "sweep", "run", sweepPath, "--shard", "1/4", "--out", ref)
	if a, b := withoutTimingLines(t, readFile(t, ref)), withoutTimingLines(t, readFile(t, part)); a != b {
		t.Fatalf("the resumed part differs from an uninterrupted one:\n%s", cmp.Diff(a, b))
	}
}

// withoutTimingLines rewrites JSON Lines of records without their timing.
func withoutTimingLines(t *testing.T, data string) string {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.SplitAfter(data, "\n") {
		if l == "" {
			continue
		}
		var r sweep.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		r.Timing = nil
		out, err := sweep.MarshalLine(&r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(out)
	}
	return b.String()
}

// canonical is a JSON document without its timing keys, re-encoded.
func canonical(t *testing.T, doc string) []byte {
	t.Helper()
	out, err := json.Marshal(stripTiming(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSweepSlurm is the acceptance on a real Slurm: the 200-cell sweep (4
// baselines × 50 seeds on a 100-job cora workload) runs locally, as 4 local shards, and
// as a Slurm job array of 4 shards with a dependent merge job on a one-node Slurm that
// scripts/slurm-local.sh brings up; all three merge to the same bytes outside timing.
func TestSweepSlurm(t *testing.T) {
	root := moduleRoot(t)
	work := t.TempDir()
	bin := buildCoraopt(t, root, work)
	env := startSlurm(t, root, work)

	sweepPath := filepath.Join(work, "baselines.json")
	doc := `{"name": "baselines", "workloads": [{"family": "cora", "jobs": 100, "seed": 1}], "policies": ["fifo", "fair", "edf", "rrh"], "replications": 50}`
	if err := os.WriteFile(sweepPath, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}

	// Locally: one run on 2 workers, and 4 shards.
	local := filepath.Join(work, "local.jsonl")
	_, errOut := cli(t, 0, "sweep", "run", sweepPath, "--workers", "2", "--out", local)
	t.Logf("local: %s", strings.TrimSpace(errOut))
	localMerged, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, local, "-o", "json", "--no-timing", "--joined", filepath.Join(work, "local-cells.jsonl"))
	var shards []string
	for k := range 4 {
		p := filepath.Join(work, fmt.Sprintf("local-%d.jsonl", k))
		cli(t, 0, "sweep", "run", sweepPath, "--shard", fmt.Sprintf("%d/4", k), "--workers", "1", "--out", p)
		shards = append(shards, p)
	}
	shardMerged, _ := cli(t, 0, append(append([]string{"sweep", "merge", "--sweep", sweepPath}, shards...), "-o", "json", "--no-timing")...)
	if localMerged != shardMerged {
		t.Fatalf("4 local shards merge differently:\n%s", cmp.Diff(localMerged, shardMerged))
	}
	var m sweep.Merged
	if err := json.Unmarshal([]byte(localMerged), &m); err != nil || m.Cells != 200 || len(m.Groups) != 4 || m.Groups[3].Seeds != 50 {
		t.Fatalf("local merge: %v\n%s", err, localMerged)
	}

	// On Slurm: an array of 4 shards and the merge job after it.
	dir := filepath.Join(work, "job")
	submitted := time.Now()
	sub := exec.Command(bin, "sweep", "slurm", sweepPath, "--shards", "4", "--cpus", "1", "--dir", dir, "--submit", "-o", "json")
	sub.Env = env
	var subErr bytes.Buffer
	sub.Stderr = &subErr
	res, err := sub.Output()
	if err != nil {
		t.Fatalf("sweep slurm --submit: %v\n%s", err, subErr.String())
	}
	var jobs struct {
		ArrayJob string `json:"array_job"`
		MergeJob string `json:"merge_job"`
	}
	if err := json.Unmarshal(res, &jobs); err != nil || jobs.ArrayJob == "" || jobs.MergeJob == "" {
		t.Fatalf("sweep slurm printed %s (%v)", res, err)
	}
	state1 := waitJob(t, env, jobs.MergeJob)
	t.Logf("Slurm: array job %s and merge job %s finished in %.1f s; merge job %s", jobs.ArrayJob, jobs.MergeJob, time.Since(submitted).Seconds(), state1)
	if state1 != "COMPLETED" {
		logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*"))
		for _, l := range logs {
			data, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", l, data)
		}
		t.Fatalf("merge job %s ended %s", jobs.MergeJob, state1)
	}
	// Every array task ran and succeeded.
	show := exec.Command("scontrol", "show", "job", "-o", jobs.ArrayJob)
	show.Env = env
	tasks, err := show.Output()
	if err != nil {
		t.Fatalf("scontrol show job %s: %v", jobs.ArrayJob, err)
	}
	if n := strings.Count(string(tasks), "JobState=COMPLETED"); n != 4 {
		t.Fatalf("%d of 4 array tasks completed:\n%s", n, tasks)
	}

	slurmMerged := readFile(t, filepath.Join(dir, "merged.json"))
	if a, b := canonical(t, localMerged), canonical(t, slurmMerged); !bytes.Equal(a, b) {
		t.Fatalf("the Slurm array merges differently:\n%s", cmp.Diff(string(a), string(b)))
	}
	if !strings.Contains(slurmMerged, `"timing"`) {
		t.Fatal("the merge job's output has no timing")
	}
	localCells := readFile(t, filepath.Join(work, "local-cells.jsonl"))
	if slurmCells := withoutTimingLines(t, readFile(t, filepath.Join(dir, "cells.jsonl"))); localCells != slurmCells || strings.Count(localCells, "\n") != 200 {
		t.Fatalf("the Slurm array's cells differ from the local run's:\n%s", cmp.Diff(localCells, slurmCells))
	}
}

// startSlurm brings up a one-node Slurm with its state under work (scripts/slurm-local.sh),
// stopped by PID when the test ends, and returns the environment that reaches it.
func startSlurm(t *testing.T, root, work string) []string {
	t.Helper()
	state := filepath.Join(work, "slurm")
	started := time.Now()
	up := exec.Command("bash", filepath.Join(root, "scripts", "slurm-local.sh"), "start", state)
	var upErr bytes.Buffer
	up.Stderr = &upErr
	out, err := up.Output()
	upSeconds := time.Since(started).Seconds()
	t.Cleanup(func() {
		if out, err := exec.Command("bash", filepath.Join(root, "scripts", "slurm-local.sh"), "stop", state).CombinedOutput(); err != nil {
			t.Errorf("stopping Slurm: %v\n%s", err, out)
		}
	})
	if err != nil {
		t.Fatalf("scripts/slurm-local.sh start: %v\n%s", err, upErr.String())
	}
	conf := strings.TrimPrefix(strings.TrimSpace(string(out)), "export SLURM_CONF=")
	t.Logf("Slurm up in %.2f s (%s)", upSeconds, strings.TrimSpace(upErr.String()))
	return append(os.Environ(), "SLURM_CONF="+conf)
}

// submit runs sbatch --parsable with args from dir and returns the job id.
func submit(t *testing.T, env []string, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("sbatch", append([]string{"--parsable"}, args...)...)
	c.Dir, c.Env = dir, env
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		t.Fatalf("sbatch %v: %v\n%s", args, err, stderr.String())
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	return id
}

// slurmSweepSeconds is how long, on one worker, the shard of TestSweepSlurmTimeLimit is
// sized to run at first: Slurm's --time counts whole minutes and slurmctld checks time
// limits every 30 s, so a 1-minute limit ends a job 60–90 s after it starts (86–88 s
// measured on the local Slurm). A shard that finishes before its limit (the machine
// ran it faster than calibrated) is tried again at twice the size.
const slurmSweepSeconds = 150

var interruptedLine = regexp.MustCompile(`interrupted after (\d+) of (\d+) cells: rerun the same command to finish`)

// timeLimitGrid is the sweep of TestSweepSlurmTimeLimit, with its replications to fill in.
const timeLimitGrid = `{"name": "timelimit", "workloads": [{"family": "cora", "jobs": 100, "seed": 1}], "policies": ["fifo", "fair", "edf", "rrh"], "replications": %d}`

// TestSweepSlurmTimeLimit is issue 27's SIGTERM on a real Slurm: an array task whose
// time limit (1 minute) expires mid-sweep gets Slurm's SIGTERM, stops starting cells,
// keeps the finished ones and says so in its log; the job ends TIMEOUT. Resubmitted,
// the task resumes its part, which then equals an uninterrupted local run of the same
// sweep byte for byte outside timing. The shard is sized from a calibration run
// (slurmSweepSeconds); the uninterrupted reference runs while Slurm does.
func TestSweepSlurmTimeLimit(t *testing.T) {
	root := moduleRoot(t)
	work := t.TempDir()
	bin := buildCoraopt(t, root, work)
	env := startSlurm(t, root, work)

	calibration := filepath.Join(work, "calibration.json")
	if err := os.WriteFile(calibration, fmt.Appendf(nil, timeLimitGrid, 5), 0o644); err != nil {
		t.Fatal(err)
	}
	calibrated := filepath.Join(work, "calibration.jsonl")
	if out, err := exec.Command(bin, "sweep", "run", calibration, "--workers", "1", "--out", calibrated).CombinedOutput(); err != nil {
		t.Fatalf("calibration: %v\n%s", err, out)
	}
	perCell := 0.0
	lines := strings.SplitAfter(strings.TrimSpace(readFile(t, calibrated)), "\n")
	for _, l := range lines {
		var r sweep.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Timing == nil {
			t.Fatalf("calibration record %q: %v", l, err)
		}
		perCell += r.Timing.WallSeconds / float64(len(lines))
	}
	seconds := float64(slurmSweepSeconds)
	for attempt := 1; !timeLimitRun(t, bin, env, filepath.Join(work, fmt.Sprintf("attempt-%d", attempt)), perCell, seconds); attempt++ {
		if attempt == 3 {
			t.Fatalf("the shard finished before its 1-minute time limit %d times, at up to %.0f s of calibrated work", attempt, seconds)
		}
		seconds *= 2
	}
}

// timeLimitRun runs TestSweepSlurmTimeLimit's sweep sized to about seconds of work (at
// perCell seconds a cell) in dir. It reports false when the shard completed before its
// time limit; any other departure from the test's expectations fails the test.
func timeLimitRun(t *testing.T, bin string, env []string, dir string, perCell, seconds float64) bool {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	reps := max(10, int(math.Ceil(seconds/(4*perCell))))
	cells := 4 * reps
	sweepPath := filepath.Join(dir, "timelimit.json")
	if err := os.WriteFile(sweepPath, fmt.Appendf(nil, timeLimitGrid, reps), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("calibration: %.3f s per cell on one worker, so %d cells (%d replications) for about %.0f s", perCell, cells, reps, seconds)
	job := filepath.Join(dir, "job")
	if out, err := exec.Command(bin, "sweep", "slurm", sweepPath, "--shards", "1", "--cpus", "1", "--time", "1", "--dir", job).CombinedOutput(); err != nil {
		t.Fatalf("sweep slurm: %v\n%s", err, out)
	}
	ref := filepath.Join(dir, "ref.jsonl")
	reference := exec.Command(bin, "sweep", "run", sweepPath, "--workers", "1", "--out", ref)
	var refErr bytes.Buffer
	reference.Stderr = &refErr
	if err := reference.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if reference.ProcessState == nil {
			reference.Process.Kill()
			reference.Wait()
		}
	}()

	submitted := time.Now()
	id := submit(t, env, job, "array.sbatch")
	state := waitJob(t, env, id)
	part, logPath := filepath.Join(job, "parts", "shard-0.jsonl"), filepath.Join(job, "logs", "shard-0.log")
	log := readFile(t, logPath)
	t.Logf("array job %s ended %s after %.1f s:\n%s", id, state, time.Since(submitted).Seconds(), log)
	if state == "COMPLETED" {
		t.Logf("the shard finished before its time limit (faster than calibrated): again at twice the size")
		return false
	}
	m := interruptedLine.FindStringSubmatch(log)
	if state != "TIMEOUT" || !strings.Contains(log, "DUE TO TIME LIMIT") || m == nil || m[2] != strconv.Itoa(cells) {
		t.Fatalf("want a TIMEOUT after Slurm's SIGTERM and %q in the log: state %s", "interrupted after K of "+strconv.Itoa(cells)+" cells", state)
	}
	k, _ := strconv.Atoi(m[1])
	if lines := strings.Count(readFile(t, part), "\n"); lines != k || k == 0 || k >= cells {
		t.Fatalf("interrupted after %d of %d cells, the part holds %d lines", k, cells, lines)
	}

	again := submit(t, env, job, "--time=UNLIMITED", "array.sbatch")
	if state := waitJob(t, env, again); state != "COMPLETED" {
		t.Fatalf("resubmitted array job %s ended %s:\n%s", again, state, readFile(t, logPath))
	}
	log = readFile(t, logPath)
	if want := fmt.Sprintf("%d cells run, %d already recorded, 0 left", cells-k, k); !strings.Contains(log, want) {
		t.Fatalf("the resubmitted task's log lacks %q:\n%s", want, log)
	}
	if err := reference.Wait(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, refErr.String())
	}
	t.Logf("resubmitted as job %s: %s; %.1f s in all", again, strings.TrimSpace(log), time.Since(submitted).Seconds())
	if a, b := withoutTimingLines(t, readFile(t, ref)), withoutTimingLines(t, readFile(t, part)); a != b || strings.Count(a, "\n") != cells {
		t.Fatalf("the part resumed after the time limit differs from an uninterrupted run:\n%s", cmp.Diff(a, b))
	}
	return true
}

// waitJob polls a job until it leaves the queue's live states and returns its final
// state.
func waitJob(t *testing.T, env []string, id string) string {
	t.Helper()
	last := ""
	for range maxPolls {
		c := exec.CommandContext(context.Background(), "scontrol", "show", "job", "-o", id)
		c.Env = env
		out, err := c.Output()
		if err != nil {
			t.Fatalf("scontrol show job %s: %v", id, err)
		}
		for _, f := range strings.Fields(string(out)) {
			if v, ok := strings.CutPrefix(f, "JobState="); ok {
				last = v
			}
		}
		switch last {
		case "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "PREEMPTED":
			return last
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("job %s still %s after %d polls", id, last, maxPolls)
	return ""
}

// TestSweepSlurmExternalPolicy is issue 30's acceptance on a real Slurm: a sweep with an
// external policy (the reference Python EDF, with a parameter) runs locally, in 2 local
// shards and as a Slurm job array of 2 shards with its merge job, and all three merge to
// the same bytes outside timing; its cells equal the built-in edf's.
func TestSweepSlurmExternalPolicy(t *testing.T) {
	root := moduleRoot(t)
	work := t.TempDir()
	bin := buildCoraopt(t, root, work)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 (the reference client's interpreter): %v", err)
	}
	env := startSlurm(t, root, work)
	sweepPath := filepath.Join(work, "external.json")
	doc := fmt.Sprintf(`{"name": "external", "workloads": [{"family": "cora", "jobs": 20, "seed": 1}], "policies": ["edf", {"name": "pyedf", "exec": %q, "alpha": 2}], "replications": 4}`,
		py+" "+filepath.Join(root, "clients", "python", "examples", "edf.py"))
	if err := os.WriteFile(sweepPath, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(work, "local.jsonl")
	cli(t, 0, "sweep", "run", sweepPath, "--workers", "2", "--out", local)
	localMerged, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, local, "-o", "json", "--no-timing", "--joined", filepath.Join(work, "local-cells.jsonl"))
	var shards []string
	for k := range 2 {
		p := filepath.Join(work, fmt.Sprintf("local-%d.jsonl", k))
		cli(t, 0, "sweep", "run", sweepPath, "--shard", fmt.Sprintf("%d/2", k), "--workers", "1", "--out", p)
		shards = append(shards, p)
	}
	shardMerged, _ := cli(t, 0, append(append([]string{"sweep", "merge", "--sweep", sweepPath}, shards...), "-o", "json", "--no-timing")...)
	if localMerged != shardMerged {
		t.Fatalf("2 local shards merge differently:\n%s", cmp.Diff(localMerged, shardMerged))
	}
	var m sweep.Merged
	if err := json.Unmarshal([]byte(localMerged), &m); err != nil || m.Cells != 8 || len(m.Groups) != 2 {
		t.Fatalf("local merge: %v\n%s", err, localMerged)
	}
	dir := filepath.Join(work, "job")
	sub := exec.Command(bin, "sweep", "slurm", sweepPath, "--shards", "2", "--cpus", "1", "--dir", dir, "--submit", "-o", "json")
	sub.Env = env
	var subErr bytes.Buffer
	sub.Stderr = &subErr
	res, err := sub.Output()
	if err != nil {
		t.Fatalf("sweep slurm --submit: %v\n%s", err, subErr.String())
	}
	var jobs struct {
		MergeJob string `json:"merge_job"`
	}
	if err := json.Unmarshal(res, &jobs); err != nil || jobs.MergeJob == "" {
		t.Fatalf("sweep slurm printed %s (%v)", res, err)
	}
	if state := waitJob(t, env, jobs.MergeJob); state != "COMPLETED" {
		logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*"))
		for _, l := range logs {
			data, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", l, data)
		}
		t.Fatalf("merge job %s ended %s", jobs.MergeJob, state)
	}
	if a, b := canonical(t, localMerged), canonical(t, readFile(t, filepath.Join(dir, "merged.json"))); !bytes.Equal(a, b) {
		t.Fatalf("the Slurm array merges differently:\n%s", cmp.Diff(string(a), string(b)))
	}
	cells := map[string]map[float64]string{}
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(work, "local-cells.jsonl"))), "\n") {
		var rec struct {
			Policy  string
			Seed    float64
			Metrics json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if cells[rec.Policy] == nil {
			cells[rec.Policy] = map[float64]string{}
		}
		cells[rec.Policy][rec.Seed] = string(rec.Metrics)
	}
	for seed, want := range cells["edf"] {
		if got := cells["pyedf"][seed]; got != want {
			t.Errorf("seed %g: pyedf's cell differs from edf's:\n%s", seed, cmp.Diff(want, got))
		}
	}
}
