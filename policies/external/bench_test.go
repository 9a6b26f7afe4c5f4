package external

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// BenchmarkExternalPolicy runs the 100-job cora workload under the built-in edf and
// under EDF as an external program — the Go client's and the reference Python
// client's — and reports per run the rounds exchanged and the wall time per round
// (round_us; for the built-in, per decision instant). The external overhead per round
// trip is (external − built-in) / rounds; docs/protocol.md quotes the figures.
func BenchmarkExternalPolicy(b *testing.B) {
	w, err := workload.CORAWorkload(100, 1)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("builtin-edf", func(b *testing.B) {
		rounds := 0
		for b.Loop() {
			p, _ := all.New("edf")
			res, err := sim.Run(ctx, w, p, sim.Options{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			rounds = res.Rounds
		}
		b.ReportMetric(float64(rounds), "rounds/op")
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*rounds), "round_us")
	})
	for _, c := range []struct {
		name string
		cmd  func(testing.TB) Command
	}{
		{"go-edf", func(tb testing.TB) Command { return self(tb, "go-edf", "edf") }},
		{"python-edf", func(tb testing.TB) Command { return pythonExample(tb, "py-edf", "edf") }},
	} {
		b.Run(c.name, func(b *testing.B) {
			cmd := c.cmd(b)
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
			b.ReportMetric(float64(rounds), "rounds/op")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*rounds), "round_us")
		})
	}
}
