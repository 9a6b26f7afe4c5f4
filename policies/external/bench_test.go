package external

import (
	"context"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// BenchmarkExternalPolicy runs the 100-job cora workload under the built-in edf and
// under EDF as an external program — the Go client's and the reference Python
// client's, each asked at every instant (per-round: protocol 1's way, one round trip
// per decision) and with a standing order (standing: asked once) — and reports per
// run the rounds exchanged, the wall time per round (round_us; for the built-in, per
// decision instant), the CPU time per round of coraopt and the program together
// (cpu_round_us: what a loaded machine does not inflate, unlike the wall time, which
// waits for the other process to be scheduled; cpu_ms per run likewise) and the wall
// time per decision instant of the built-in (instant_us, the same denominator for
// every variant). pipe-floor is a round trip without JSON; python-start is the Python
// interpreter starting and exiting, the floor of any Python policy's run.
// docs/protocol.md quotes the figures.
func BenchmarkExternalPolicy(b *testing.B) {
	w, err := workload.CORAWorkload(100, 1)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	instants := 0 // the built-in's decision instants, once measured
	b.Run("builtin-edf", func(b *testing.B) {
		cpu0 := cpuWithChildren()
		rounds := 0
		for b.Loop() {
			p, _ := all.New("edf")
			res, err := sim.Run(ctx, w, p, sim.Options{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			rounds = res.Rounds
		}
		instants = rounds
		b.ReportMetric(float64((cpuWithChildren()-cpu0).Microseconds())/1e3/float64(b.N), "cpu_ms/op")
		b.ReportMetric(float64(rounds), "rounds/op")
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*rounds), "round_us")
		b.ReportMetric(float64((cpuWithChildren()-cpu0).Microseconds())/float64(b.N*rounds), "cpu_round_us")
	})
	python := func(perRound bool) func(testing.TB) Command {
		return func(tb testing.TB) Command {
			c := pythonExample(tb, "py-edf", "edf")
			c.Params = map[string]any{"per_round": perRound}
			return c
		}
	}
	b.Run("python-start", func(b *testing.B) {
		py := python3(b)
		cpu0 := cpuWithChildren()
		for b.Loop() {
			if out, err := exec.Command(py, "-c", "import json, math, sys").CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
		b.ReportMetric(float64((cpuWithChildren()-cpu0).Microseconds())/1e3/float64(b.N), "cpu_ms/op")
	})
	b.Run("pipe-floor", func(b *testing.B) {
		// The engine's own send and read of a short line to a child that answers each
		// with a short line and decodes nothing: what a round trip costs before any
		// JSON, on this machine at this load.
		s, err := Start(ctx, self(b, "echo", "echo"), w, Options{})
		if err != nil {
			b.Fatal(err)
		}
		line := []byte(`{"type":"round","round":1,"time":10,"events":[],"runnable":[],"free":[1]}` + "\n")
		cpu0 := cpuWithChildren()
		n := 0
		for b.Loop() {
			for range 1000 {
				if err := s.send(line); err != nil {
					b.Fatal(err)
				}
				if _, err := s.readLine(); err != nil {
					b.Fatal(err)
				}
			}
			n += 1000
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(n), "round_us")
		b.ReportMetric(float64((cpuWithChildren()-cpu0).Microseconds())/float64(n), "cpu_round_us")
		s.send([]byte("end\n"))
		s.failed = errInterrupted // no end exchange: Close just reaps it
		s.Close()
	})
	for _, c := range []struct {
		name string
		cmd  func(testing.TB) Command
	}{
		{"go-edf-per-round", func(tb testing.TB) Command { return self(tb, "go-edf", "edf") }},
		{"go-edf-standing", func(tb testing.TB) Command { return self(tb, "go-edf", "edf-standing") }},
		{"python-edf-per-round", python(true)},
		{"python-edf-standing", python(false)},
	} {
		b.Run(c.name, func(b *testing.B) {
			cmd := c.cmd(b)
			cpu0 := cpuWithChildren()
			rounds := 0
			for b.Loop() {
				err := With(ctx, cmd, w, Options{}, func(p policies.Policy) error {
					_, err := sim.Run(ctx, w, p, sim.Options{Seed: 1})
					rounds = p.(interface{ session() *Session }).session().Rounds()
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuWithChildren()-cpu0).Microseconds())/1e3/float64(b.N), "cpu_ms/op")
			b.ReportMetric(float64(rounds), "rounds/op")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*rounds), "round_us")
			b.ReportMetric(float64((cpuWithChildren()-cpu0).Microseconds())/float64(b.N*rounds), "cpu_round_us")
			if instants > 0 {
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*instants), "instant_us")
			}
		})
	}
}

// cpuWithChildren is the CPU time of this process and of its reaped children.
func cpuWithChildren() time.Duration {
	var self, kids syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids) != nil {
		return 0
	}
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + kids.Utime.Nano() + kids.Stime.Nano())
}
