package plan

import (
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// Shift is u as a function of the completion slot t when completing in slot t means a
// response of elapsed + t·k time units: for sigmoid, linear and step utilities the same
// family with rescaled parameters (exactly: U'(t) = U(elapsed + t·k)), for the others a
// wrapper that evaluates workload.UtilityOfResponse.
func Shift(u sched.Utility, elapsed, k float64) sched.Utility {
	switch u := u.(type) {
	case sched.Sigmoid:
		return shiftSigmoid(u, elapsed, k)
	case sched.Linear:
		// β(B − elapsed − tk) = (βk)((B − elapsed)/k − t)
		return sched.Linear{Priority: u.Priority, Slope: u.Slope * k, Budget: (u.Budget - elapsed) / k, Hard: u.Hard}
	case sched.Step:
		return sched.Step{Value: u.Value, Deadline: (u.Deadline - elapsed) / k, Late: u.Late}
	case sched.Constant:
		return u
	}
	return responseUtility{u: u, elapsed: elapsed, k: k}
}

// shiftSigmoid is Shift of a sigmoid.
func shiftSigmoid(u sched.Sigmoid, elapsed, k float64) sched.Sigmoid {
	// μ(elapsed + tk − d) = (μk)(t − (d − elapsed)/k)
	return sched.Sigmoid{Priority: u.Priority, Decay: u.Decay * k, Deadline: (u.Deadline - elapsed) / k}
}

// PlanUtility is Shift(u, elapsed, k), and with log a sigmoid's logarithm (LogSigmoid).
//
// Why: float64 rounds p/(1+e^z) to exactly 0 once e^z overflows (z > 709.78), so late
// jobs with steep decays all "tie" at utility 0 — a tie the real-valued model does not
// have. Such ties stall onion peeling's sweep (which jobs stay at 0 is a combinatorial
// choice) and hand the instant to the layered engine, costing ~0.5 s per decision at
// 1,000 jobs and ending in the keep rule's unproven answer. ln is strictly increasing,
// so the lexmax of the sorted vector of ln U_j is the lexmax of the U_j on the reals:
// planning on LogSigmoid answers the paper's question exactly where float U cannot,
// and only genuine ties (equal jobs, flat utilities) remain to be branched on.
func PlanUtility(u sched.Utility, elapsed, k float64, log bool) sched.Utility {
	s := Shift(u, elapsed, k)
	if sg, ok := s.(sched.Sigmoid); ok && log && sg.Priority > 0 {
		return NewLogSigmoid(sg)
	}
	return s
}

// LogSigmoid is sched.LogSigmoid, the logarithm onion peeling orders underflowing
// sigmoids by (sched.LogUtility): one implementation for planning and peeling.
type LogSigmoid = sched.LogSigmoid

// NewLogSigmoid is ln u (u.Priority > 0).
func NewLogSigmoid(u sched.Sigmoid) LogSigmoid { return sched.NewLogSigmoid(u) }

// responseUtility is U(elapsed + t·k) for a utility family Shift cannot rewrite.
type responseUtility struct {
	u          sched.Utility
	elapsed, k float64
}

func (r responseUtility) At(t int) float64 {
	return workload.UtilityOfResponse(r.u, r.elapsed+float64(t)*r.k)
}
func (r responseUtility) Type() string { return "response-shifted " + r.u.Type() }
