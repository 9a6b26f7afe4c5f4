package bench

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/coraopt/coraopt/solvers"
)

func opt(obj float64, took time.Duration) step {
	return step{took: took, status: solvers.Optimal, objective: obj}
}

// TestRunTimings checks the timing protocol on a fake clock: warm-up runs are not timed,
// min/median/max come from the timed runs, the model is not charged for solver setup,
// the fastest solved row sets the ratios, and rows follow the backend order then the
// methods.
func TestRunTimings(t *testing.T) {
	clk := newFakeClock()
	a := &script{clock: clk, steps: []step{opt(5, ms(100)), opt(5, ms(30)), opt(5, ms(10)), opt(5, ms(20))}}
	b := &script{clock: clk, steps: []step{opt(5, ms(40)), opt(5, ms(40)), opt(5, ms(60)), opt(5, ms(50))}}
	m := &script{clock: clk, steps: []step{{took: ms(1), status: solvers.Optimal, objective: 5 + 1e-9}}}
	cases := []Case{fixedCase("c1", LP, &Instance{Problem: tinyLP(), Methods: []Method{fakeMethod("fast", m)}})}
	rep := Run(context.Background(), cases, Config{
		Backends: []Backend{fakeBackend("a", lpOnly, a), fakeBackend("b", lpOnly, b)},
		Repeat:   3, Warmup: 1, Clock: clk, TimeLimit: time.Minute,
	})
	if a.calls != 4 || b.calls != 4 || m.calls != 4 {
		t.Fatalf("calls a=%d b=%d m=%d, want 4 each (1 warm-up + 3 timed)", a.calls, b.calls, m.calls)
	}
	if len(rep.Rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rep.Rows))
	}
	ra, rb, rm := rep.Rows[0], rep.Rows[1], rep.Rows[2]
	if ra.Solver != "a" || rb.Solver != "b" || rm.Solver != "fast" {
		t.Fatalf("row order %s, %s, %s; want a, b, fast", ra.Solver, rb.Solver, rm.Solver)
	}
	if ra.Wall != (Spread{ms(10), ms(20), ms(30)}) {
		t.Errorf("a: %+v, want 10/20/30 ms (the 100 ms warm-up excluded)", ra.Wall)
	}
	if rb.Wall != (Spread{ms(40), ms(50), ms(60)}) {
		t.Errorf("b: %+v", rb.Wall)
	}
	if ra.CPU.Median != ms(18) {
		t.Errorf("a: CPU median %v, want 18ms", ra.CPU.Median)
	}
	for _, r := range rep.Rows {
		if r.Agree == nil || !*r.Agree || !r.Solved {
			t.Errorf("%s: agree %v solved %v, want both true", r.Solver, r.Agree, r.Solved)
		}
		if len(r.Times) != 3 {
			t.Errorf("%s: %d timed runs", r.Solver, len(r.Times))
		}
	}
	if !rm.Fastest || ra.Fastest || rb.Fastest {
		t.Errorf("fastest flags a=%v b=%v fast=%v, want only fast", ra.Fastest, rb.Fastest, rm.Fastest)
	}
	if rm.Ratio != 1 || math.Abs(ra.Ratio-20) > 1e-12 || math.Abs(rb.Ratio-50) > 1e-12 {
		t.Errorf("ratios a=%g b=%g fast=%g, want 20, 50, 1", ra.Ratio, rb.Ratio, rm.Ratio)
	}
	if ra.Metrics["iterations"] != 7 {
		t.Errorf("metrics %v", ra.Metrics)
	}
	if rep.Interrupted || rep.Finished != 1 || rep.Disagreements != 0 {
		t.Errorf("report %+v", rep)
	}
}

// TestRunClasses checks that a backend runs only on classes it solves, that a time-out
// is neither repeated nor in agreement nor the fastest, and that errors and panics
// become rows.
func TestRunClasses(t *testing.T) {
	clk := newFakeClock()
	lp := &script{clock: clk, steps: []step{opt(1, ms(1))}}
	mip := &script{clock: clk, steps: []step{opt(1, ms(5))}}
	slow := &script{clock: clk, steps: []step{{took: ms(50), status: solvers.TimeLimit}}}
	boom := &script{clock: clk, steps: []step{{took: ms(2), err: errBoom}}}
	bang := &script{clock: clk, steps: []step{{took: ms(2), panic: true}}}
	cases := []Case{
		fixedCase("lp", LP, &Instance{Problem: tinyLP()}),
		fixedCase("mip", MIP, &Instance{Problem: tinyMIP(), Methods: []Method{fakeMethod("slowpath", slow)}}),
		fixedCase("broken", LP, &Instance{Problem: tinyLP(), Methods: []Method{fakeMethod("boom", boom), fakeMethod("bang", bang)}}),
		{Name: "unprepared", Family: "test", Class: LP, Prepare: func(context.Context) (*Instance, error) { return nil, errBoom }},
	}
	rep := Run(context.Background(), cases, Config{
		Backends: []Backend{fakeBackend("lponly", lpOnly, lp), fakeBackend("mipper", lpMIP, mip)},
		Repeat:   3, Clock: clk, TimeLimit: ms(50),
	})
	type want struct{ instance, solver, status string }
	var got []want
	for _, r := range rep.Rows {
		got = append(got, want{r.Instance, r.Solver, r.Status})
	}
	exp := []want{
		{"lp", "lponly", "optimal"}, {"lp", "mipper", "optimal"},
		{"mip", "mipper", "optimal"}, {"mip", "slowpath", "time_limit"},
		{"broken", "lponly", "optimal"}, {"broken", "mipper", "optimal"}, {"broken", "boom", "error"}, {"broken", "bang", "error"},
		{"unprepared", "-", "error"},
	}
	if len(got) != len(exp) {
		t.Fatalf("rows %v\nwant %v", got, exp)
	}
	for i := range exp {
		if got[i] != exp[i] {
			t.Errorf("row %d: %v, want %v", i, got[i], exp[i])
		}
	}
	if slow.calls != 1 || boom.calls != 1 || bang.calls != 1 {
		t.Errorf("failed runs repeated: slow %d, boom %d, bang %d calls", slow.calls, boom.calls, bang.calls)
	}
	// lp: two conclusive answers 1 and 1 agree.
	// mip: mipper's optimum has nothing to agree with but the time-out, which is not in
	// agreement and not the fastest.
	mipRow, slowRow := rep.Rows[2], rep.Rows[3]
	if mipRow.Agree != nil || !mipRow.Solved || !mipRow.Fastest || mipRow.Ratio != 1 {
		t.Errorf("lone optimum: agree %v solved %v fastest %v ratio %g", mipRow.Agree, mipRow.Solved, mipRow.Fastest, mipRow.Ratio)
	}
	if slowRow.Agree == nil || *slowRow.Agree || slowRow.Solved || slowRow.Fastest || !math.IsNaN(slowRow.Ratio) {
		t.Errorf("time-out: agree %v solved %v fastest %v ratio %g", slowRow.Agree, slowRow.Solved, slowRow.Fastest, slowRow.Ratio)
	}
	if !strings.Contains(rep.Rows[6].Note, "boom") || !strings.Contains(rep.Rows[7].Note, "panic") {
		t.Errorf("notes %q, %q", rep.Rows[6].Note, rep.Rows[7].Note)
	}
	if !strings.Contains(rep.Rows[8].Note, "preparing") {
		t.Errorf("prepare failure note %q", rep.Rows[8].Note)
	}
	// Failures are not disagreements.
	if rep.Disagreements != 0 {
		t.Errorf("%d disagreements, want 0", rep.Disagreements)
	}
}

// TestRunTimeoutNote checks that a backend's time-out note lands on its time-limit rows.
func TestRunTimeoutNote(t *testing.T) {
	clk := newFakeClock()
	s := &script{clock: clk, steps: []step{{took: ms(9), status: solvers.TimeLimit}}}
	b := fakeBackend("lazy", lpOnly, s)
	b.TimeoutNote = "keeps running"
	rep := Run(context.Background(), []Case{fixedCase("lp", LP, &Instance{Problem: tinyLP()})}, Config{Backends: []Backend{b}, Clock: clk})
	if got := rep.Rows[0].Note; got != "keeps running" || !rep.Rows[0].Abandoned || rep.Abandoned != 1 {
		t.Errorf("note %q, abandoned %v, report %d", got, rep.Rows[0].Abandoned, rep.Abandoned)
	}
}

// TestRunDeadline checks that a run whose context deadline passed is reported as a
// time-out even when the method only says "other".
func TestRunDeadline(t *testing.T) {
	m := Method{Name: "sleepy", Run: func(ctx context.Context) (Outcome, error) {
		<-ctx.Done()
		return Outcome{Status: solvers.Other.String(), Objective: math.NaN()}, nil
	}}
	rep := Run(context.Background(), []Case{fixedCase("c", FastPath, &Instance{Methods: []Method{m}})},
		Config{TimeLimit: time.Millisecond, Repeat: 5})
	if r := rep.Rows[0]; r.Status != "time_limit" || len(r.Times) != 1 {
		t.Errorf("status %s after %d runs, want time_limit after 1", r.Status, len(r.Times))
	}
}

// TestRunInterrupted cancels the context during the third run of the suite: the rows
// that finished stay, the one in flight is dropped, the report says it was interrupted.
func TestRunInterrupted(t *testing.T) {
	clk := newFakeClock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &script{clock: clk, steps: []step{opt(1, ms(1)), opt(1, ms(1)), {took: ms(1), status: solvers.Optimal, objective: 1, cancel: cancel}}}
	cases := []Case{
		fixedCase("first", LP, &Instance{Problem: tinyLP()}),
		fixedCase("second", LP, &Instance{Problem: tinyLP(), Methods: []Method{fakeMethod("m", s)}}),
		fixedCase("third", LP, &Instance{Problem: tinyLP()}),
	}
	var progress []string
	rep := Run(ctx, cases, Config{Backends: []Backend{fakeBackend("a", lpOnly, s)}, Clock: clk,
		Progress: func(done, total int, cur string) { progress = append(progress, cur) }})
	if !rep.Interrupted || rep.Finished != 1 || rep.Cases != 3 {
		t.Fatalf("interrupted %v, finished %d of %d; want true, 1 of 3", rep.Interrupted, rep.Finished, rep.Cases)
	}
	if len(rep.Rows) != 2 || rep.Rows[0].Instance != "first" || rep.Rows[1].Instance != "second" || rep.Rows[1].Solver != "a" {
		t.Fatalf("rows %+v", rep.Rows)
	}
	if strings.Join(progress, ",") != "first,second" {
		t.Errorf("progress %v", progress)
	}
}

// TestJudge is the agreement table: what agrees, what is flagged, who is fastest.
func TestJudge(t *testing.T) {
	row := func(solver, status string, obj float64, med time.Duration) Row {
		return Row{Solver: solver, Status: status, Objective: obj, Wall: Spread{Median: med}, Ratio: math.NaN()}
	}
	nan := math.NaN()
	type flags struct {
		agree   string // "y", "n" or "-" (nil)
		solved  bool
		fastest bool
	}
	cases := []struct {
		name string
		rows []Row
		ref  *Reference
		want []flags
	}{
		{"all agree", []Row{row("a", "optimal", 10, ms(3)), row("b", "optimal", 10+1e-6, ms(1)), row("c", "optimal", 10, ms(2))}, nil,
			[]flags{{"y", true, false}, {"y", true, true}, {"y", true, false}}},
		// No majority vote: with two against one and no reference, every row involved in
		// a disagreement is flagged.
		{"one differs, no reference", []Row{row("a", "optimal", 10, ms(3)), row("b", "optimal", 10, ms(1)), row("c", "optimal", 11, ms(2))}, nil,
			[]flags{{"n", false, false}, {"n", false, false}, {"n", false, false}}},
		{"one differs from the reference", []Row{row("a", "optimal", 10, ms(3)), row("b", "optimal", 11, ms(1))}, &Reference{Status: solvers.Optimal, Objective: 10},
			[]flags{{"y", true, true}, {"n", false, false}}},
		{"all differ from the reference", []Row{row("a", "optimal", 10, ms(3)), row("b", "optimal", 10, ms(1))}, &Reference{Status: solvers.Optimal, Objective: 12},
			[]flags{{"n", false, false}, {"n", false, false}}},
		{"time limit is not in agreement", []Row{row("a", "time_limit", nan, ms(100)), row("b", "optimal", 4, ms(9))}, nil,
			[]flags{{"n", false, false}, {"-", true, true}}},
		{"infeasible agrees with infeasible_or_unbounded", []Row{row("a", "infeasible", nan, ms(1)), row("b", "infeasible_or_unbounded", nan, ms(2))}, &Reference{Status: solvers.Infeasible, Objective: nan},
			[]flags{{"y", true, true}, {"y", true, false}}},
		{"infeasible against an optimum", []Row{row("a", "infeasible", nan, ms(1)), row("b", "optimal", 3, ms(2))}, nil,
			[]flags{{"n", false, false}, {"n", false, false}}},
		{"unbounded against infeasible", []Row{row("a", "unbounded", nan, ms(1)), row("b", "infeasible", nan, ms(2))}, nil,
			[]flags{{"n", false, false}, {"n", false, false}}},
		{"a computed result agrees with an optimum", []Row{row("mip", "optimal", 2.5, ms(20)), row("onion", StatusDone, 2.5, ms(1))}, nil,
			[]flags{{"y", true, false}, {"y", true, true}}},
		{"lone row", []Row{row("a", "optimal", 1, ms(1))}, nil, []flags{{"-", true, true}}},
		{"error only", []Row{row("a", "error", nan, 0)}, nil, []flags{{"n", false, false}}},
		{"ties are all fastest", []Row{row("a", "optimal", 1, ms(2)), row("b", "optimal", 1, ms(2))}, nil,
			[]flags{{"y", true, true}, {"y", true, true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			judge(c.rows, c.ref)
			for i, r := range c.rows {
				a := "-"
				if r.Agree != nil {
					a = map[bool]string{true: "y", false: "n"}[*r.Agree]
				}
				got := flags{a, r.Solved, r.Fastest}
				if got != c.want[i] {
					t.Errorf("%s: %+v, want %+v (note %q)", r.Solver, got, c.want[i], r.Note)
				}
				if r.Solved == math.IsNaN(r.Ratio) {
					t.Errorf("%s: solved %v but ratio %g", r.Solver, r.Solved, r.Ratio)
				}
				if r.Agree != nil && !*r.Agree && conclusive(r.Status) && !strings.Contains(r.Note, "disagrees") {
					t.Errorf("%s: a disagreement without a note", r.Solver)
				}
			}
		})
	}
}

// TestRunRepeatsDisagree checks that a solver answering differently on repeats says so.
func TestRunRepeatsDisagree(t *testing.T) {
	clk := newFakeClock()
	s := &script{clock: clk, steps: []step{opt(1, ms(1)), opt(2, ms(1))}}
	rep := Run(context.Background(), []Case{fixedCase("c", LP, &Instance{Problem: tinyLP()})},
		Config{Backends: []Backend{fakeBackend("a", lpOnly, s)}, Clock: clk, Repeat: 2})
	if !strings.Contains(rep.Rows[0].Note, "run 2 answered optimal 2") {
		t.Errorf("note %q", rep.Rows[0].Note)
	}
}
