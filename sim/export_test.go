package sim

import (
	"slices"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// Relaxation returns the bound's relaxation instance in its compact form (utilities
// evaluated when asked) and, beside it, the dense form issue 17's Bound built — every
// utility tabulated slot by slot from workload.UtilityAt at the slot's start
// (sched.Table), which is the relaxation without the earliest-completion tightening —
// with the utilities of the jobs left out for want of demand.
func Relaxation(w *workload.Workload, seed uint64, s, until float64, opts BoundOptions) (compact, dense *sched.Instance, fixed []float64, err error) {
	rx, err := relax(w, seed, s, until, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	d := *rx.in
	d.Jobs = slices.Clone(rx.in.Jobs)
	for k := range d.Jobs {
		vals := make([]float64, d.Horizon)
		for t := range vals {
			vals[t] = w.UtilityAt(rx.index[k], float64(t)*s)
		}
		d.Jobs[k].Utility = sched.Table{Values: vals}
	}
	return rx.in, &d, rx.fixed, nil
}
