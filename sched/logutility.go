package sched

import "math"

// LogUtility is implemented by utilities that can give their natural logarithm as a
// utility of its own, evaluated without underflow: Log reports false when the utility is
// not positive at every slot (its logarithm is then undefined somewhere).
//
// Why: float64 rounds a sigmoid p/(1+e^z) to exactly 0 once e^z overflows (z > 709.78),
// so late jobs with steep decays "tie" at 0 — a tie the real-valued model does not have.
// ln p − softplus(z) stays finite and strictly decreasing however late the slot, so
// onion peeling (formulations/tas.OnionPeel) orders the utilities that underflow to 0
// by their logarithms instead.
type LogUtility interface {
	Utility
	Log() (Utility, bool)
}

// Log is ln u when the priority is positive (then u > 0 at every slot).
func (u Sigmoid) Log() (Utility, bool) {
	if !(u.Priority > 0) {
		return nil, false
	}
	return NewLogSigmoid(u), true
}

// LogSigmoid is ln(p/(1+e^{μ(x−d)})) = ln p − softplus(μ(x−d)), evaluated without
// overflow or underflow: strictly decreasing in x wherever μ > 0 (until the softplus
// itself stops changing in float64, past x − d ≈ 2^52/μ).
type LogSigmoid struct {
	LogPriority, Deadline, Decay float64
}

// NewLogSigmoid is ln u (u.Priority > 0).
func NewLogSigmoid(u Sigmoid) LogSigmoid {
	return LogSigmoid{LogPriority: math.Log(u.Priority), Deadline: u.Deadline, Decay: u.Decay}
}

// At is ln U(t) at slot t.
func (u LogSigmoid) At(t int) float64 { return u.Of(float64(t)) }

// Of is ln U(x) at a real argument x (a response time, for callers that shift and
// scale the sigmoid themselves).
func (u LogSigmoid) Of(x float64) float64 {
	z := u.Decay * (x - u.Deadline)
	if z > 40 {
		// ln(1+e^{−z}) < 5e-18 is below half an ulp of z: softplus(z) rounds to z.
		return u.LogPriority - z
	}
	// softplus(z) = ln(1+e^z) = max(z, 0) + ln(1+e^{−|z|}).
	return u.LogPriority - (max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))))
}

func (LogSigmoid) Type() string         { return "log-sigmoid" }
func (u LogSigmoid) NamedSlot() float64 { return u.Deadline }

// UnderflowKeys returns, per job, the key onion peeling orders the utilities by: U
// itself where U > 0; where a utility with a logarithm (LogUtility) rounds to exactly 0
// in float64, its logarithm (a number below −707, finite and strictly decreasing
// however late the slot); where a utility is exactly 0 for real (a step or RDS job past
// its deadline), one value below every such logarithm over slots 1..in.Horizon. The
// key is a non-decreasing function of the real utility equal to U above 0, so it orders
// as U does except that jobs float64 ties at 0 are ordered by their real values. ok is
// false — and keys nil — when no job offers a logarithm (the keys would be U) or some
// utility is negative at the horizon (it would have to sort below the logarithms).
func UnderflowKeys(in *Instance) (keys []Utility, ok bool) {
	T := in.Horizon
	// The sign test first, before anything is allocated: the online planners' ln U
	// utilities are negative at the horizon, and they ask at every decision instant.
	for j := range in.Jobs {
		if !(in.Jobs[j].Utility.At(T) >= 0) {
			return nil, false
		}
	}
	logs := make([]Utility, len(in.Jobs))
	floor, any := -1000.0, false
	for j := range in.Jobs {
		u := in.Jobs[j].Utility
		if lu, isLog := u.(LogUtility); isLog {
			if l, has := lu.Log(); has {
				logs[j], any = l, true
				floor = min(floor, l.At(T))
			}
		}
	}
	if !any || !(floor > math.Inf(-1)) {
		return nil, false
	}
	zero := math.Nextafter(floor, math.Inf(-1))
	keys = make([]Utility, len(in.Jobs))
	for j := range in.Jobs {
		keys[j] = underflowKey{u: in.Jobs[j].Utility, log: logs[j], zero: zero}
	}
	return keys, true
}

// underflowKey is U where it is positive; where it is 0, ln U when the utility has a
// logarithm, else zero (below every logarithm in the instance).
type underflowKey struct {
	u, log Utility
	zero   float64
}

func (k underflowKey) At(t int) float64 {
	if v := k.u.At(t); v > 0 {
		return v
	}
	if k.log != nil {
		return k.log.At(t)
	}
	return k.zero
}

func (underflowKey) Type() string { return "underflow-key" }
