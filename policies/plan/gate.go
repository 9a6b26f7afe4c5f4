package plan

import "github.com/coraopt/coraopt/policies"

// ReplanGate decides, with Config.Interval, whether a decision instant re-plans.
type ReplanGate struct {
	planned bool
	last    float64 // time of the latest plan
	changed bool    // the job set or the capacity changed since then
	skipped int
}

// Observe marks the events after which a plan is always redone.
func (g *ReplanGate) Observe(e policies.Event) {
	switch e.Kind {
	case policies.EventArrival, policies.EventJobFinish, policies.EventReject, policies.EventCapacity:
		g.changed = true
	}
}

// Due reports whether to plan at now (counting the instants it skips) and, if so,
// records the plan.
func (g *ReplanGate) Due(now, interval float64) bool {
	if interval > 0 && g.planned && !g.changed && now < g.last+interval {
		g.skipped++
		return false
	}
	g.planned, g.last, g.changed = true, now, false
	return true
}

// Skipped counts decision instants that kept the targets under Config.Interval.
func (g *ReplanGate) Skipped() int { return g.skipped }
