package all

import (
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/rtmr"
	"github.com/coraopt/coraopt/policies/woha"
)

// The Hadoop-1 papers' policies, registered from their own file so that the table in
// all.go stays one list per paper family.
func init() {
	for name, c := range map[string]func() policies.Policy{
		// WOHA (woha.txt): progress-based scheduling under each §V-C job priority, and
		// the §V-B baselines (Oozie submits a job when its prerequisites finish).
		"woha-hlf":   func() policies.Policy { return woha.NewPolicy(woha.HLF) },
		"woha-lpf":   func() policies.Policy { return woha.NewPolicy(woha.LPF) },
		"woha-mpf":   func() policies.Policy { return woha.NewPolicy(woha.MPF) },
		"oozie-fifo": func() policies.Policy { return woha.NewBaselinePolicy(woha.FIFO) },
		"oozie-fair": func() policies.Policy { return woha.NewBaselinePolicy(woha.Fair) },
		"oozie-edf":  func() policies.Policy { return woha.NewBaselinePolicy(woha.EDF) },

		// RTMR (rtmr.txt): admission control, the Deadline Constraint baseline, and the
		// paper's FIFO that accepts every job.
		"rtmr":            func() policies.Policy { return rtmr.NewPolicy(true) },
		"rtmr-nofeedback": func() policies.Policy { return rtmr.NewPolicy(false) },
		"dc":              func() policies.Policy { return rtmr.NewDCPolicy() },
		"rtmr-fifo":       func() policies.Policy { return rtmr.NewFIFOPolicy() },
	} {
		if _, dup := constructors[name]; dup {
			panic("policies/all: " + name + " registered twice")
		}
		constructors[name] = c
	}
}
