package sched

import (
	"math"
	"sort"
)

// Utility is a non-increasing function of the completion slot.
type Utility interface {
	// At is the utility of completing in slot t (t ≥ 1).
	At(t int) float64
	// Type is the JSON "type" ("sigmoid", "linear", …).
	Type() string
}

// Deadliner is implemented by utilities that name a slot (a deadline, budget or hard
// bound); the default horizon reaches at least the latest such slot.
type Deadliner interface {
	NamedSlot() float64
}

// Sigmoid is p/(1+e^{μ(t−d)}) (cora.txt eq. 11).
type Sigmoid struct {
	Priority float64 `json:"priority"`
	Deadline float64 `json:"deadline"`
	Decay    float64 `json:"decay"`
}

func (u Sigmoid) At(t int) float64 {
	z := u.Decay * (float64(t) - u.Deadline)
	// For large z, e^z overflows to +Inf and p/Inf = 0, which is the right limit.
	return u.Priority / (1 + math.Exp(z))
}
func (Sigmoid) Type() string         { return "sigmoid" }
func (u Sigmoid) NamedSlot() float64 { return u.Deadline }

// Linear is max(β(B−t)+W, 0); with Hard it is 0 for t > B (rush.txt §IV).
type Linear struct {
	Priority float64 `json:"priority"` // W
	Budget   float64 `json:"budget"`   // B
	Slope    float64 `json:"slope"`    // β
	Hard     bool    `json:"hard,omitempty"`
}

func (u Linear) At(t int) float64 {
	if u.Hard && float64(t) > u.Budget {
		return 0
	}
	return math.Max(u.Slope*(u.Budget-float64(t))+u.Priority, 0)
}
func (Linear) Type() string         { return "linear" }
func (u Linear) NamedSlot() float64 { return u.Budget }

// Step is Value for t ≤ Deadline and Late after.
type Step struct {
	Value    float64 `json:"value"`
	Deadline float64 `json:"deadline"`
	Late     float64 `json:"late,omitempty"`
}

func (u Step) At(t int) float64 {
	if float64(t) <= u.Deadline {
		return u.Value
	}
	return u.Late
}
func (Step) Type() string         { return "step" }
func (u Step) NamedSlot() float64 { return u.Deadline }

// Constant is Value at every slot.
type Constant struct {
	Value float64 `json:"value"`
}

func (u Constant) At(int) float64 { return u.Value }
func (Constant) Type() string     { return "constant" }

// Piecewise is linear between Points (t, u), sorted by t, and flat outside them.
type Piecewise struct {
	Points [][2]float64 `json:"points"`
}

func (u Piecewise) At(t int) float64 {
	p := u.Points
	if len(p) == 0 {
		return 0
	}
	x := float64(t)
	if x <= p[0][0] {
		return p[0][1]
	}
	if x >= p[len(p)-1][0] {
		return p[len(p)-1][1]
	}
	k := sort.Search(len(p), func(i int) bool { return p[i][0] >= x })
	a, b := p[k-1], p[k]
	if b[0] == a[0] {
		return b[1]
	}
	return a[1] + (b[1]-a[1])*(x-a[0])/(b[0]-a[0])
}
func (Piecewise) Type() string { return "piecewise" }
func (u Piecewise) NamedSlot() float64 {
	if len(u.Points) == 0 {
		return 0
	}
	return u.Points[len(u.Points)-1][0]
}

// Table gives u_t for t = 1..len(Values); slots beyond the table keep the last value.
type Table struct {
	Values []float64 `json:"values"`
}

func (u Table) At(t int) float64 {
	if len(u.Values) == 0 {
		return 0
	}
	if t < 1 {
		t = 1
	}
	if t > len(u.Values) {
		t = len(u.Values)
	}
	return u.Values[t-1]
}
func (Table) Type() string         { return "table" }
func (u Table) NamedSlot() float64 { return float64(len(u.Values)) }

// RDS is ω·δ(t) with the SLO decay of rds.txt eq. 4: δ = 1 for t < soft,
// 1 − (t − soft)/soft for soft ≤ t ≤ hard, 0 for t > hard. The paper asks hard ≤ 2·soft
// so δ never goes negative.
type RDS struct {
	Priority float64 `json:"priority"` // ω
	Soft     float64 `json:"soft"`
	Hard     float64 `json:"hard"`
}

func (u RDS) At(t int) float64 {
	x := float64(t)
	switch {
	case x < u.Soft:
		return u.Priority
	case x <= u.Hard:
		return u.Priority * (1 - (x-u.Soft)/u.Soft)
	}
	return 0
}
func (RDS) Type() string         { return "rds" }
func (u RDS) NamedSlot() float64 { return u.Hard }
