package verify

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
)

// Alg3 outcomes, the first word of Alg3VsOnion's detail.
const (
	Alg3Optimal    = "optimal"    // Alg. 3's schedule has the lexmax sorted vector
	Alg3Worse      = "worse"      // feasible, lexicographically below the lexmax
	Alg3Infeasible = "infeasible" // its target completion times cannot all be met
)

// Alg3VsOnion runs RUSH's Alg. 3 as printed (solve's tas method alg3) and sets it
// against onion peeling's lexmax (onion, proven when exact): a measurement of the
// published method (Info), whose detail starts with Alg3Optimal, Alg3Worse or
// Alg3Infeasible; MaxViolation is the gap at the first differing position (0 when
// optimal, +Inf when infeasible). It fails only when Alg. 3's feasible schedule is
// lexicographically above an onion answer that claims exactness — that would be a bug
// in onion peeling, not in the paper. Instances outside Alg. 3's model (several
// resources, varying capacity, release times, caps) are skipped.
func Alg3VsOnion(ctx context.Context, reg *solve.Registry, name string, in *sched.Instance, onion *sched.Schedule) Check {
	res, err := reg.Solve(ctx, solve.Request{Formulation: TAS, Method: "alg3", Instance: in})
	var inf *solve.Alg3InfeasibleError
	switch {
	case errors.Is(err, tas.ErrAlg3Model):
		return Skip(name, err.Error())
	case errors.As(err, &inf):
		return Info(name, math.Inf(1), fmt.Sprintf("%s: Alg. 3 (as printed) returns target completion times no schedule meets (%v); the lexmax exists (onion peeling)", Alg3Infeasible, inf.Result.Violation))
	case err != nil:
		return Fail(name, 0, "Alg. 3 failed: "+err.Error())
	}
	k, c := firstDiff(res.Schedule.Sorted, onion.Sorted)
	switch {
	case c == 0:
		return Info(name, 0, fmt.Sprintf("%s: Alg. 3 (as printed) reaches the lexmax sorted vector (%d jobs)", Alg3Optimal, len(onion.Sorted)))
	case c < 0:
		return Info(name, gap(onion.Sorted, res.Schedule.Sorted, k), fmt.Sprintf("%s: Alg. 3 (as printed) is feasible but below the lexmax: position %d, %s against %s",
			Alg3Worse, k+1, at(res.Schedule.Sorted, k), at(onion.Sorted, k)))
	case onion.Exact:
		return Fail(name, gap(onion.Sorted, res.Schedule.Sorted, k), fmt.Sprintf("Alg. 3's feasible schedule is lexicographically above onion peeling's proven lexmax: position %d, %s against %s",
			k+1, at(res.Schedule.Sorted, k), at(onion.Sorted, k)))
	}
	return Info(name, gap(onion.Sorted, res.Schedule.Sorted, k), "Alg. 3 is above onion peeling's answer, which was not proven (stall budget)")
}
