package plan_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/policies/plan"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// TestShiftIsExact: the rewritten utility at slot t equals the original at the
// response elapsed + t·k, for every family Shift rewrites and for the wrapper.
func TestShiftIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		elapsed := rapid.Float64Range(0, 500).Draw(t, "elapsed")
		k := rapid.Float64Range(0.01, 10).Draw(t, "k")
		var u sched.Utility
		switch rapid.IntRange(0, 4).Draw(t, "family") {
		case 0:
			u = sched.Sigmoid{Priority: rapid.Float64Range(0, 5).Draw(t, "p"), Deadline: rapid.Float64Range(0, 300).Draw(t, "d"), Decay: rapid.Float64Range(0, 6).Draw(t, "mu")}
		case 1:
			u = sched.Linear{Priority: rapid.Float64Range(0, 5).Draw(t, "W"), Budget: rapid.Float64Range(0, 300).Draw(t, "B"), Slope: rapid.Float64Range(0, 2).Draw(t, "beta"), Hard: rapid.Bool().Draw(t, "hard")}
		case 2:
			u = sched.Step{Value: 3, Deadline: rapid.Float64Range(0, 300).Draw(t, "d"), Late: 1}
		case 3:
			u = sched.Constant{Value: 2}
		default:
			u = sched.RDS{Priority: 2, Soft: 40, Hard: 70}
		}
		s := plan.Shift(u, elapsed, k)
		for slot := 1; slot <= 50; slot++ {
			want := workload.UtilityOfResponse(u, elapsed+float64(slot)*k)
			got := s.At(slot)
			if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
				// A step or a hard budget may flip at a boundary within rounding of t·k.
				r := elapsed + float64(slot)*k
				if st, ok := u.(sched.Step); ok && math.Abs(r-st.Deadline) < 1e-9 {
					continue
				}
				if l, ok := u.(sched.Linear); ok && l.Hard && math.Abs(r-l.Budget) < 1e-9 {
					continue
				}
				t.Fatalf("%T slot %d: %v, want %v", u, slot, got, want)
			}
		}
	})
}

// TestLogSigmoid: ln of the sigmoid where float64 can evaluate the sigmoid without
// underflow, ln p − z once the softplus is z to double precision, and strictly
// decreasing in t for μ > 0 however late the slot.
func TestLogSigmoid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := sched.Sigmoid{Priority: rapid.Float64Range(0.01, 10).Draw(t, "p"), Deadline: rapid.Float64Range(-200, 300).Draw(t, "d"),
			Decay: rapid.Float64Range(1e-3, 20).Draw(t, "mu")}
		l := plan.NewLogSigmoid(s)
		prev := math.Inf(1)
		for slot := 1; slot <= 400; slot++ {
			got := l.At(slot)
			if u := s.At(slot); u > 1e-280 {
				if want := math.Log(u); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
					t.Fatalf("slot %d: %v, want ln %v = %v", slot, got, u, want)
				}
			}
			if z := s.Decay * (float64(slot) - s.Deadline); z > 40 {
				if want := math.Log(s.Priority) - z; got != want {
					t.Fatalf("slot %d (z = %g): %v, want ln p − z = %v", slot, z, got, want)
				}
			}
			if s.Decay*(float64(slot)-s.Deadline) > -30 && !(got < prev) {
				// Early slots may round to ln p; from there on every slot is lower.
				t.Fatalf("slot %d: %v not below slot %d's %v", slot, got, slot-1, prev)
			}
			prev = got
		}
	})
}

// TestLogPlanIsTheLexmax: where float64 evaluates every sigmoid without underflow,
// onion peeling on ln U and on U give the same sorted utility vector — ln is strictly
// increasing, so the lexmax is the same; planning on ln U only differs where U rounds
// to 0 (see PlanUtility).
func TestLogPlanIsTheLexmax(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 7).Draw(t, "jobs")
		c := rapid.IntRange(1, 4).Draw(t, "capacity")
		plain := &sched.Instance{Name: "u", HorizonSource: "file"}
		total := 0
		for j := range n {
			d := rapid.IntRange(1, 6).Draw(t, "demand")
			total += d
			plain.Jobs = append(plain.Jobs, sched.Job{ID: fmt.Sprint("j", j), Demand: []int{d}, Release: 1, TaskSlots: 1,
				Utility: sched.Sigmoid{Priority: rapid.Float64Range(0.5, 5).Draw(t, "p"), Deadline: rapid.Float64Range(0, 10).Draw(t, "d"),
					Decay: rapid.Float64Range(0.05, 4).Draw(t, "mu")}})
		}
		plain.Horizon = (total + c - 1) / c
		capa := make([]int, plain.Horizon)
		for k := range capa {
			capa[k] = c
		}
		plain.Resources = []sched.Resource{{Name: "c", Capacity: capa}}
		logged := *plain
		logged.Jobs = slices.Clone(plain.Jobs)
		for j := range logged.Jobs {
			logged.Jobs[j].Utility = plan.PlanUtility(plain.Jobs[j].Utility, 0, 1, true)
		}
		a, err := tas.OnionPeel(context.Background(), plain, tas.Options{NoSchedule: true})
		if err != nil {
			t.Fatal(err)
		}
		b, err := tas.OnionPeel(context.Background(), &logged, tas.Options{NoSchedule: true})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Exact || !b.Exact {
			t.Fatalf("not proven: plain %v, log %v", a.Exact, b.Exact)
		}
		sorted := func(d []int) []float64 {
			v := make([]float64, n)
			for j := range v {
				v[j] = plain.Jobs[j].Utility.At(d[j])
			}
			slices.Sort(v)
			return v
		}
		va, vb := sorted(a.Deadlines), sorted(b.Deadlines)
		for k := range va {
			if math.Abs(va[k]-vb[k]) > 1e-12 {
				t.Fatalf("sorted utilities differ at %d: plain %v, log plan %v", k, va, vb)
			}
		}
	})
}
