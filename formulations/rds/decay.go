package rds

import (
	"math"

	"github.com/coraopt/coraopt/sched"
)

// Decay is the SLO decay δ of rds.txt eq. 4 for job j finishing (or delivering work) at
// time at: 1 before t_soft, 1 − (y − t_soft)/t_soft between t_soft and t_hard, 0 after
// t_hard, with y, t_soft and t_hard measured from the job's arrival. The formula is
// sched.RDS's; it is evaluated at the control interval (slot, counted from the arrival,
// L time units each) in which `at` falls, which is how sched numbers completion times.
func Decay(j *Job, at, interval float64) float64 {
	u := sched.RDS{
		Priority: 1,
		Soft:     (j.Soft - j.Arrival) / interval,
		Hard:     (j.Hard - j.Arrival) / interval,
	}
	// The end of an interval belongs to that interval: a step ending exactly at t_soft
	// is on time. The small slack absorbs rounding of (t + i·L − arrival)/L.
	x := math.Ceil((at-j.Arrival)/interval - 1e-9)
	x = math.Max(-1, math.Min(x, 1<<30)) // keep the int conversion defined
	return u.At(int(x))
}

// Reference is the reference trajectory y^ref_j(t+i), i = 1..h, in work units (rds.txt
// §3.1 and §6.6, uniform per-interval deadlines): from the current progress y_j(t) the
// job advances at the uniform rate that completes its remaining work exactly at t_soft,
// and stays at W_j from then on. A job already past t_soft is referred to W_j at once.
func Reference(j *Job, t, interval float64, h int) []float64 {
	ref := make([]float64, h)
	left := j.Soft - t
	for i := range ref {
		frac := 1.0
		if left > 0 {
			frac = math.Min(1, float64(i+1)*interval/left)
		}
		ref[i] = j.Progress + frac*j.Remaining()
	}
	return ref
}
