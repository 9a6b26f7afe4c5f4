package external

import (
	"context"

	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// Measure is sim.Measure with the program of c as the policy: it starts the program
// for this one run, runs it and ends it (the program is reaped on every path). A
// program that breaks the protocol, fails or falls silent ends the run with an
// *Error naming the round, the simulated time and the field; one that refuses the
// workload gives a *sim.UnsupportedError, as a built-in policy's Refuser does.
func Measure(ctx context.Context, c Command, w *workload.Workload, seed uint64, check bool, opt Options) (*sim.Metrics, error) {
	s, err := Start(ctx, c, w, opt)
	if err != nil {
		return nil, err
	}
	m, err := sim.Measure(ctx, w, s.Policy(), seed, check)
	cerr := s.Close()
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if cerr != nil {
		return nil, cerr
	}
	return m, nil
}
