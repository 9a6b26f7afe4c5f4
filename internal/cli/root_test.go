package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/internal/workpool"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/sweep"
)

// A panic in a command, in a task of the worker pool (simulate's runs), or in a sweep
// cell is exit 3 with "internal error, please report" — never 2, the code of a bad input
// — and the stack only under --debug. The panicking commands exist only in this test;
// the sweep's cell panics on a workload a loaded sweep cannot hold (nil).
func TestInternalErrorExit3(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		// stack: whether stderr must hold the Go stack trace.
		stack bool
	}{
		{"command", []string{"boom"}, false},
		{"command with --debug", []string{"boom", "--debug"}, true},
		{"worker goroutine", []string{"boom-worker"}, false},
		{"worker goroutine with --debug", []string{"--debug", "boom-worker"}, true},
		{"sweep cell", []string{"boom-sweep"}, false},
		{"sweep cell with --debug", []string{"boom-sweep", "--debug"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			s := Streams{In: strings.NewReader(""), Out: &out, Err: &errOut}
			root := newRootCmd(s, solve.Default())
			root.AddCommand(
				&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
					var m map[string]int
					m["x"] = 1 // a nil-map write: the kind of bug a nil workload was
					return nil
				}},
				&cobra.Command{Use: "boom-worker", RunE: func(cmd *cobra.Command, _ []string) error {
					return workpool.Run(cmd.Context(), 9, workpool.Options{Workers: 2},
						func(_ context.Context, k int) (int, error) {
							if k == 7 {
								panic("worker " + string(rune('0'+k)))
							}
							return k, nil
						}, func(int, int) error { return nil })
				}},
				&cobra.Command{Use: "boom-sweep", RunE: func(cmd *cobra.Command, _ []string) error {
					sw := brokenSweep(t)
					return runSweepShard(cmd.Context(), s, &sweepRunOptions{workers: 1}, sw, 0, 1)
				}},
			)
			code := run(context.Background(), root, c.args, s)
			if code != ExitInternal {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitInternal, errOut.String())
			}
			msg := errOut.String()
			if !strings.Contains(msg, "internal error, please report") {
				t.Errorf("stderr lacks the internal-error line:\n%s", msg)
			}
			if hasStack := strings.Contains(msg, "goroutine ") && strings.Contains(msg, ".go:"); hasStack != c.stack {
				t.Errorf("stack on stderr: %v, want %v:\n%s", hasStack, c.stack, msg)
			}
			if !c.stack && !strings.Contains(msg, "--debug") {
				t.Errorf("stderr does not say how to get the stack:\n%s", msg)
			}
		})
	}
}

// brokenSweep is a loaded one-cell sweep whose workload is gone, so its cell panics.
func brokenSweep(t *testing.T) *sweep.Sweep {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.json")
	doc := `{"workloads": [{"family": "cora", "jobs": 3, "seed": 1}], "policies": ["fifo"], "seeds": [1]}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	sw, err := sweep.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sw.Workload[0] = nil
	return sw
}

// Exit 3 and --debug are documented where the exit codes are.
func TestHelpDocumentsExit3(t *testing.T) {
	code, out, _ := runCLI(context.Background(), "", "--help")
	if code != 0 || !strings.Contains(out, "3 internal error") || !strings.Contains(out, "--debug") {
		t.Fatalf("exit %d; --help does not document exit 3 and --debug:\n%s", code, out)
	}
}

// Every malformed file in testdata/*/bad is exit 2 (a bad input) through the commands
// that read it — never a panic, which would exit 3 (or 2 from the runtime, with a stack).
func TestBadFilesExit2(t *testing.T) {
	type use struct {
		glob string
		args []string
	}
	n := 0
	for _, u := range []use{
		{"../../testdata/instances/bad/*.json", []string{"solve"}},
		{"../../testdata/instances/bad/*.json", []string{"verify"}},
		{"../../testdata/rds/bad/*.json", []string{"solve", "--formulation", "rds"}},
	} {
		files, err := filepath.Glob(u.glob)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no files (%v)", u.glob, err)
		}
		for _, f := range files {
			args := append(slices.Clone(u.args), f, "-o", "json")
			code, _, errOut := runCLI(context.Background(), "", args...)
			if code != ExitBadUsage || strings.Contains(errOut, "goroutine ") {
				t.Errorf("coraopt %s: exit %d, want 2:\n%s", strings.Join(args, " "), code, errOut)
			}
			n++
		}
	}
	t.Logf("%d bad files", n)
}
