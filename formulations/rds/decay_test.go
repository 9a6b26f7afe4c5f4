package rds

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestDecayEq4: a job that arrives at 10 with t_soft = 50 and t_hard = 80 (40 and 70
// after arrival; intervals of 10, so 4 and 7 slots). δ = 1 before the soft deadline,
// 1 − (y − 4)/4 between (y in slots after arrival), 0 after the hard one; a step ending
// exactly at a deadline belongs to the interval that ends there.
func TestDecayEq4(t *testing.T) {
	j := &Job{Arrival: 10, Soft: 50, Hard: 80}
	for _, tc := range []struct {
		at, want float64
	}{
		{20, 1}, {49, 1}, // slots 1…4: before or at t_soft
		{50, 1},    // slot 4 = t_soft: 1 − 0/4
		{55, 0.75}, // slot 5: 1 − 1/4
		{70, 0.5},  // slot 6
		{80, 0.25}, // slot 7 = t_hard
		{81, 0},    // slot 8 > t_hard
		{5, 1},     // before arrival
	} {
		if got := Decay(j, tc.at, 10); got != tc.want {
			t.Errorf("δ at %g = %g, want %g", tc.at, got, tc.want)
		}
	}
}

// TestReference: uniform progress from the current state to W_j at t_soft, then flat;
// a job past t_soft is referred to W_j at once.
func TestReference(t *testing.T) {
	j := &Job{Work: 120, Progress: 30, Soft: 40}
	got := Reference(j, 10, 10, 4)
	want := []float64{60, 90, 120, 120}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("reference (-want +got):\n%s", diff)
	}
	// t_soft inside an interval: 90 remaining over 15 time units, 10 per step.
	got = Reference(j, 25, 10, 2)
	want = []float64{30 + 90*10.0/15, 120}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("fractional deadline (-want +got):\n%s", diff)
	}
	late := Reference(j, 45, 10, 2)
	if !cmp.Equal(late, []float64{120, 120}) {
		t.Errorf("past t_soft: %v, want [120 120]", late)
	}
}
