package sim

import (
	"context"
	"fmt"

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

// Measure is one run as `coraopt simulate` and `coraopt sweep` report it: p on w under
// seed with decision rounds timed, the invariants checked when check is set (the run is
// then recorded, which costs memory per task), and the run's Metrics. A run that cannot
// finish returns Run's error; a broken invariant an *InvariantError.
func Measure(ctx context.Context, w *workload.Workload, p policies.Policy, seed uint64, check bool) (*Metrics, error) {
	res, err := Run(ctx, w, p, Options{Seed: seed, Timing: true, Record: check})
	if err != nil {
		return nil, err
	}
	if check {
		if err := CheckInvariants(w, seed, res); err != nil {
			return nil, &InvariantError{Policy: p.Name(), Seed: seed, Err: err}
		}
	}
	return Summarize(w, res), nil
}
