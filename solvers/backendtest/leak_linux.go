//go:build linux

package backendtest

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// RSSBytes reads the resident set size of this process from /proc/self/statm.
func RSSBytes(t testing.TB) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// flakyDone is a context that reports "not done" on its first Err call and cancelled
// afterwards, with Done closed from the start: the solve starts, and the backend's
// interrupt callback (or abort function) fires inside the library. It exercises the
// cancellation path on every kind of model.
type flakyDone struct {
	context.Context
	n    int
	done chan struct{}
}

func newFlakyDone() *flakyDone {
	c := &flakyDone{Context: context.Background(), done: make(chan struct{})}
	close(c.done)
	return c
}

func (c *flakyDone) Done() <-chan struct{} { return c.done }

func (c *flakyDone) Err() error {
	c.n++
	if c.n == 1 {
		return nil
	}
	return context.Canceled
}

// LeakOptions say how a backend takes the leak test's exit paths.
type LeakOptions struct {
	// Limit sets the option that stops a solve early (a tiny time or iteration limit).
	Limit func(*solvers.Options)
	// RefusesQP: the backend answers a QP with an error (an error path to exercise);
	// otherwise it must solve it.
	RefusesQP bool
}

// NoLeaks solves many small models with one solver, through every exit path (optimal,
// infeasible, MIP, QP or its refusal, interrupted, stopped by a limit, invalid input),
// and checks that the process's resident memory stays flat (at most 20 MiB growth over
// 10,000 solves after a warm-up): every library handle created is destroyed.
func NoLeaks(t *testing.T, c Config, lo LeakOptions) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	ps := LeakModels(t)
	bad := &model.Problem{Sense: model.Minimize, ColCost: []float64{1}, ColLower: []float64{1}, ColUpper: []float64{0}, AStart: []int{0, 0}}
	s := c.New()
	run := func(i int) {
		ctx := context.Background()
		opt := solvers.Options{}
		p := ps[i%len(ps)]
		switch i % 10 {
		case 7:
			ctx = newFlakyDone()
		case 8:
			lo.Limit(&opt)
		case 9:
			if _, err := s.Solve(ctx, bad, opt); err == nil {
				t.Fatal("invalid problem solved")
			}
			return
		}
		sol, err := s.Solve(ctx, p, opt)
		if lo.RefusesQP && p.HasQuadratic() {
			if err == nil {
				t.Fatalf("QP solved by %s", c.Name)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if i%10 < 7 && i%len(ps) == 1 && sol.Status != solvers.Infeasible {
			t.Fatalf("iteration %d: status %v, want infeasible", i, sol.Status)
		}
	}
	for i := range 500 { // warm-up: allocator arenas, thread-local schedulers, Go heap
		run(i)
	}
	runtime.GC()
	before := RSSBytes(t)
	start := time.Now()
	for i := range n {
		run(i)
	}
	runtime.GC()
	after := RSSBytes(t)
	growth := after - before
	t.Logf("%d solves in %v: RSS %.1f MiB before, %.1f MiB after, growth %.2f MiB",
		n, time.Since(start).Round(time.Millisecond), float64(before)/(1<<20), float64(after)/(1<<20), float64(growth)/(1<<20))
	if growth > 20<<20 {
		t.Fatalf("RSS grew by %.1f MiB over %d solves", float64(growth)/(1<<20), n)
	}
}
