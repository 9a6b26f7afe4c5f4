package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coraopt/coraopt/internal/cli"
	"github.com/coraopt/coraopt/sweep"
)

// asMain makes the test binary run main() when a test starts it as a subprocess, so the
// subprocess has this command's real signal handling.
const asMain = "CORAOPT_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// coraopt starts this binary as the coraopt command.
func coraopt(args ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMain+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd, &stderr
}

// exitCode is a finished command's exit status; -1 when a signal ended it.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return 0
}

// waitLines polls until path holds n complete lines.
func waitLines(t *testing.T, path string, n int) {
	t.Helper()
	for polls := 0; ; polls++ {
		if data, _ := os.ReadFile(path); bytes.Count(data, []byte("\n")) >= n {
			return
		}
		if polls > 200000 {
			t.Fatalf("%s never reached %d lines", path, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// withoutTiming rewrites part lines without their timing.
func withoutTiming(t *testing.T, data []byte) string {
	t.Helper()
	var b strings.Builder
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var r sweep.Record
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		r.Timing = nil
		out, _ := sweep.MarshalLine(&r)
		b.Write(out)
	}
	return b.String()
}

var interrupted = regexp.MustCompile(`interrupted after (\d+) of (\d+) cells: rerun the same command to finish`)

// SIGTERM (Slurm's signal at a time limit and on scancel) stops `sweep run` exactly as
// SIGINT does: no new cells, the finished ones flushed, "interrupted after K of N
// cells", exit 1 — before, SIGTERM killed it without a word. The rerun completes the
// part to the bytes of an uninterrupted run (outside timing). While the first run
// holds the part, a second process on it is refused naming the first's PID.
func TestSweepRunStopsOnSignal(t *testing.T) {
	dir := t.TempDir()
	sweepPath := filepath.Join(dir, "s.json")
	doc := `{"workloads": [{"family": "cora", "jobs": 20, "seed": 1}], "policies": ["fifo", "fair", "edf", "rrh"], "replications": 15}`
	if err := os.WriteFile(sweepPath, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref.jsonl")
	var refErr bytes.Buffer
	if code := cli.Main(context.Background(), []string{"sweep", "run", sweepPath, "--out", ref}, cli.Streams{Out: &refErr, Err: &refErr}); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, refErr.String())
	}
	want := withoutTiming(t, readFile(t, ref))
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			part := filepath.Join(t.TempDir(), "part.jsonl")
			run, stderr := coraopt("sweep", "run", sweepPath, "--workers", "1", "--out", part)
			if err := run.Start(); err != nil {
				t.Fatal(err)
			}
			waitLines(t, part, 3)
			second, secondErr := coraopt("sweep", "run", sweepPath, "--workers", "1", "--out", part)
			if code := exitCode(t, second.Run()); code != 2 || !strings.Contains(secondErr.String(), fmt.Sprintf("being written by another run (PID %d on ", run.Process.Pid)) {
				t.Fatalf("a second run on the part: exit %d: %s", code, secondErr.String())
			}
			if err := run.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := exitCode(t, run.Wait())
			m := interrupted.FindStringSubmatch(stderr.String())
			if code != 1 || m == nil || m[2] != "60" {
				t.Fatalf("after %v: exit %d, stderr %q", sig, code, stderr.String())
			}
			k, _ := strconv.Atoi(m[1])
			data := readFile(t, part)
			if lines := bytes.Count(data, []byte("\n")); lines != k || k >= 60 || !bytes.HasSuffix(data, []byte("\n")) {
				t.Fatalf("stopped after %d of 60 cells, the part holds %d lines", k, lines)
			}
			if _, err := os.Stat(part + ".lock"); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the holder file outlived the run: %v", err)
			}
			again, againErr := coraopt("sweep", "run", sweepPath, "--workers", "2", "--out", part)
			if code := exitCode(t, again.Run()); code != 0 || !strings.Contains(againErr.String(), fmt.Sprintf("%d cells run, %d already recorded, 0 left", 60-k, k)) {
				t.Fatalf("rerun: exit %d: %s", code, againErr.String())
			}
			if got := withoutTiming(t, readFile(t, part)); got != want {
				t.Fatalf("the resumed part differs from an uninterrupted run:\n%s\nwant\n%s", got, want)
			}
			t.Logf("%v after %d of 60 cells; the rerun completed it to the reference's bytes", sig, k)
		})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
