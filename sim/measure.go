package sim

import (
	"context"
	"fmt"
	"maps"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/workload"
)

// InvariantError is a run that broke one of the simulator's invariants (CheckInvariants):
// a bug in the simulator or the policy, never the user's input.
type InvariantError struct {
	Policy string
	Seed   uint64
	Err    error
}

func (e *InvariantError) Error() string {
	return fmt.Sprintf("%s, seed %d: the simulator broke an invariant (a bug, please report it):\n%v", e.Policy, e.Seed, e.Err)
}

func (e *InvariantError) Unwrap() error { return e.Err }

// UnsupportedError is a workload the policy cannot model (a WOHA policy given jobs
// without estimates, say): the user's input, not a bug. The policy says why through an
// Err method (policies.Refuser).
type UnsupportedError struct {
	Policy string
	Err    error
}

func (e *UnsupportedError) Error() string { return fmt.Sprintf("%s: %v", e.Policy, e.Err) }

func (e *UnsupportedError) Unwrap() error { return e.Err }

// Measure is one run as `coraopt simulate` and `coraopt sweep` report it: p on w under
// seed with decision rounds timed, the invariants checked when check is set (the run is
// then recorded, which costs memory per task), and the run's Metrics. A run that cannot
// finish returns Run's error; a broken invariant an *InvariantError; a workload the
// policy cannot model an *UnsupportedError (policies.Refuser). The counts of a
// policies.FallbackCounter and a policies.Counter are copied into the metrics.
func Measure(ctx context.Context, w *workload.Workload, p policies.Policy, seed uint64, check bool) (*Metrics, error) {
	hooks := policies.HooksOf(p)
	res, err := Run(ctx, w, p, Options{Seed: seed, Timing: true, Record: check})
	if r := hooks.Refuser; r != nil && r.Err() != nil {
		return nil, &UnsupportedError{Policy: p.Name(), Err: r.Err()}
	}
	if err != nil {
		return nil, err
	}
	if check {
		if err := CheckInvariants(w, seed, res); err != nil {
			return nil, &InvariantError{Policy: p.Name(), Seed: seed, Err: err}
		}
	}
	m := Summarize(w, res)
	if f := hooks.FallbackCounter; f != nil {
		m.Fallbacks = f.Fallbacks()
	}
	if c := hooks.Counter; c != nil {
		m.PolicyCounts = maps.Clone(c.Counts())
	}
	return m, nil
}
