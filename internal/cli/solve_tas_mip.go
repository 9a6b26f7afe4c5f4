package cli

import (
	"context"

	"github.com/coraopt/coraopt/sched"
)

// solveTASMIP solves TAS's time-indexed MIP lexicographically.
func solveTASMIP(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	return nil, usageErrf("--method mip: needs package lexmax, which this build does not have yet; use --method onion")
}
