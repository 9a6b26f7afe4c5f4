package all

import (
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/rtmr"
	"github.com/coraopt/coraopt/policies/woha"
)

// The Hadoop-1 papers' policies, registered from their own file so that the table in
// all.go stays one list per paper family.
func init() {
	for name, c := range map[string]func() (policies.Policy, error){
		// WOHA (woha.txt): progress-based scheduling under each §V-C job priority, and
		// the §V-B baselines (Oozie submits a job when its prerequisites finish).
		"woha-hlf":   func() (policies.Policy, error) { return woha.New(woha.Config{Rule: woha.HLF}) },
		"woha-lpf":   func() (policies.Policy, error) { return woha.New(woha.Config{Rule: woha.LPF}) },
		"woha-mpf":   func() (policies.Policy, error) { return woha.New(woha.Config{Rule: woha.MPF}) },
		"oozie-fifo": func() (policies.Policy, error) { return woha.NewOozie(woha.FIFO) },
		"oozie-fair": func() (policies.Policy, error) { return woha.NewOozie(woha.Fair) },
		"oozie-edf":  func() (policies.Policy, error) { return woha.NewOozie(woha.EDF) },

		// RTMR (rtmr.txt): admission control, the Deadline Constraint baseline, and the
		// paper's FIFO that accepts every job.
		"rtmr":            func() (policies.Policy, error) { return rtmr.New(rtmr.Config{}), nil },
		"rtmr-nofeedback": func() (policies.Policy, error) { return rtmr.New(rtmr.Config{NoFeedback: true}), nil },
		"dc":              func() (policies.Policy, error) { return rtmr.NewDCBaseline(), nil },
		"rtmr-fifo":       func() (policies.Policy, error) { return rtmr.NewFIFOBaseline(), nil },
	} {
		if _, dup := constructors[name]; dup {
			panic("policies/all: " + name + " registered twice")
		}
		constructors[name] = c
	}
}
