package solvertest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/coraopt/coraopt/solvers"
)

// recorder is a testing.TB that records failures and skips instead of reporting them,
// so the suite's own tests can run a case against a broken solver and assert that the
// case fails. Methods it does not override (Context, TempDir, Cleanup, …) go to the
// real test.
type recorder struct {
	testing.TB
	mu      sync.Mutex
	failed  bool
	skipped bool
	msgs    []string
}

func (r *recorder) note(failed, skipped bool, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = r.failed || failed
	r.skipped = r.skipped || skipped
	if msg != "" {
		r.msgs = append(r.msgs, msg)
	}
}

func (r *recorder) Helper()         {}
func (r *recorder) Log(args ...any) { r.note(false, false, fmt.Sprint(args...)) }
func (r *recorder) Logf(format string, args ...any) {
	r.note(false, false, fmt.Sprintf(format, args...))
}
func (r *recorder) Error(args ...any) { r.note(true, false, fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, args ...any) {
	r.note(true, false, fmt.Sprintf(format, args...))
}
func (r *recorder) Fail()    { r.note(true, false, "") }
func (r *recorder) FailNow() { r.note(true, false, ""); runtime.Goexit() }
func (r *recorder) Fatal(args ...any) {
	r.note(true, false, fmt.Sprint(args...))
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.note(true, false, fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (r *recorder) SkipNow()         { r.note(false, true, ""); runtime.Goexit() }
func (r *recorder) Skip(args ...any) { r.note(false, true, fmt.Sprint(args...)); runtime.Goexit() }
func (r *recorder) Skipf(format string, args ...any) {
	r.note(false, true, fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (r *recorder) Failed() bool  { r.mu.Lock(); defer r.mu.Unlock(); return r.failed }
func (r *recorder) Skipped() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.skipped }

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.msgs, "\n")
}

// outcome of one case against one solver.
type outcome struct {
	failed, skipped bool
	log             string
}

// runRecorded runs every case (honouring capabilities and Exclude as Run does) against
// solvers from newSolver, each on its own goroutine so that Fatal and Skip can end it,
// and returns the outcome per case name.
func runRecorded(t *testing.T, newSolver func() solvers.Solver, cfg Config) map[string]outcome {
	t.Helper()
	out := map[string]outcome{}
	for _, c := range allCases() {
		r := &recorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			if reason := skipReason(c, cfg); reason != "" {
				r.Skip(reason)
			}
			c.fn(r, newSolver(), cfg)
		}()
		<-done
		out[c.name] = outcome{failed: r.Failed(), skipped: r.Skipped(), log: r.String()}
	}
	return out
}
