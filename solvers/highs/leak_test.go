//go:build highs && linux

package highs

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// rssBytes reads the resident set size of this process from /proc/self/statm.
func rssBytes(t *testing.T) int64 {
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
// afterwards, with Done closed from the start: the solve starts, and the interrupt
// callback fires inside HiGHS. It exercises the cancellation path on every kind of model.
type flakyDone struct {
	context.Context
	once sync.Once
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

// leakModels are the small problems the leak test cycles through: an LP, an infeasible
// LP, a MIP and a QP.
func leakModels(t *testing.T) []*model.Problem {
	t.Helper()
	var ps []*model.Problem
	for k := range 4 {
		m := model.New("leak")
		xs := m.Vars1(8, 0, 10, model.Continuous, "x%d")
		if k == 2 {
			xs = m.Vars1(8, 0, 10, model.Integer, "y%d")
		}
		for i := range 6 {
			coef := make([]float64, len(xs))
			for j := range coef {
				coef[j] = float64((i*7+j*3)%5 + 1)
			}
			m.AddLe(model.Dot(coef, xs), float64(20+i), "c"+strconv.Itoa(i))
		}
		if k == 1 {
			m.AddGe(model.Sum(xs...), 1000, "impossible")
		}
		cost := make([]float64, len(xs))
		for j := range cost {
			cost[j] = -float64(j%3 + 1)
		}
		m.Minimize(model.Dot(cost, xs))
		if k == 3 {
			for _, x := range xs {
				m.AddQuadObj(x, x, 1)
			}
		}
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestNoLeaks solves many small models, through every exit path (optimal, infeasible,
// MIP, QP, interrupted, time limit, invalid input), and checks that the process's
// resident memory stays flat: every Highs_create has its Highs_destroy, every handle its
// Delete.
func TestNoLeaks(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	ps := leakModels(t)
	bad := &model.Problem{Sense: model.Minimize, ColCost: []float64{1}, ColLower: []float64{1}, ColUpper: []float64{0}, AStart: []int{0, 0}}
	s := New()
	run := func(i int) {
		ctx := context.Background()
		opt := solvers.Options{}
		p := ps[i%len(ps)]
		switch i % 10 {
		case 7:
			ctx = newFlakyDone()
		case 8:
			opt.TimeLimit = time.Nanosecond
		case 9:
			if _, err := s.Solve(ctx, bad, opt); err == nil {
				t.Fatal("invalid problem solved")
			}
			return
		}
		sol, err := s.Solve(ctx, p, opt)
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
	before := rssBytes(t)
	start := time.Now()
	for i := range n {
		run(i)
	}
	runtime.GC()
	after := rssBytes(t)
	growth := after - before
	t.Logf("%d solves in %v: RSS %.1f MiB before, %.1f MiB after, growth %.2f MiB",
		n, time.Since(start).Round(time.Millisecond), float64(before)/(1<<20), float64(after)/(1<<20), float64(growth)/(1<<20))
	if growth > 20<<20 {
		t.Fatalf("RSS grew by %.1f MiB over %d solves", float64(growth)/(1<<20), n)
	}
}
