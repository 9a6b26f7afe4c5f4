package rds

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestDispatchAlgorithm1 replays rds.txt Algorithm 1 by hand. Adjustments (5, 3, −1),
// six slots of size 1: slot 1 → claim 0 (5 → 4), slot 2 → 0 (4 → 3), slot 3: tie at 3,
// lower index → 0 (→ 2), slot 4 → 1 (3 → 2), slot 5: tie at 2 → 0 (→ 1), slot 6 → 1.
func TestDispatchAlgorithm1(t *testing.T) {
	for _, tc := range []struct {
		name   string
		adjust []float64
		caps   []int
		slots  int
		size   float64
		want   []int
	}{
		{"hand example", []float64{5, 3, -1}, nil, 6, 1, []int{4, 2, 0}},
		{"work-conserving past the adjustments", []float64{1, 0, -1}, nil, 6, 1, []int{3, 2, 1}},
		{"caps", []float64{5, 3, -1}, []int{1, 1, 10}, 6, 1, []int{1, 1, 4}},
		{"more slots than caps", []float64{1, 1}, []int{2, 0}, 9, 1, []int{2, 0}},
		{"slot size", []float64{4, 2}, nil, 3, 2, []int{2, 1}},
		{"no slots", []float64{4, 2}, nil, 0, 1, []int{0, 0}},
		{"no claims", nil, nil, 3, 1, []int{}},
	} {
		got, err := Dispatch(tc.adjust, tc.caps, tc.slots, tc.size)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !cmp.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, bad := range []struct {
		adjust []float64
		caps   []int
		slots  int
		size   float64
	}{
		{[]float64{1}, []int{1, 2}, 1, 1},
		{[]float64{1}, nil, -1, 1},
		{[]float64{1}, nil, 1, 0},
		{[]float64{math.NaN()}, nil, 1, 1},
	} {
		if _, err := Dispatch(bad.adjust, bad.caps, bad.slots, bad.size); err == nil {
			t.Errorf("Dispatch(%v, %v, %d, %g): no error", bad.adjust, bad.caps, bad.slots, bad.size)
		}
	}
}

// TestDispatchGreedyInvariant: after Algorithm 1, no slot could be moved to a claim
// that wanted it more: every claim that got a slot had, when it got its last one, an
// adjustment at least as large as every other open claim's final one.
func TestDispatchGreedyInvariant(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(rt, "claims")
		adjust := make([]float64, n)
		caps := make([]int, n)
		for c := range adjust {
			adjust[c] = rapid.Float64Range(-10, 10).Draw(rt, "adjust")
			caps[c] = rapid.IntRange(0, 12).Draw(rt, "cap")
		}
		size := rapid.Float64Range(0.1, 3).Draw(rt, "size")
		slots := rapid.IntRange(0, 40).Draw(rt, "slots")
		got, err := Dispatch(adjust, caps, slots, size)
		if err != nil {
			rt.Fatal(err)
		}
		total, capTotal := 0, 0
		for c, g := range got {
			if g > caps[c] {
				rt.Fatalf("claim %d got %d slots, cap %d", c, g, caps[c])
			}
			total += g
			capTotal += caps[c]
		}
		if total != min(slots, capTotal) {
			rt.Fatalf("%d slots handed out, want min(%d, %d)", total, slots, capTotal)
		}
		for c := range got {
			if got[c] == 0 {
				continue
			}
			last := adjust[c] - float64(got[c]-1)*size // c's adjustment when it got its last slot
			for o := range got {
				if o != c && got[o] < caps[o] && adjust[o]-float64(got[o])*size > last+1e-9 {
					rt.Fatalf("claim %d got a slot at %g while claim %d still wanted %g", c, last, o, adjust[o]-float64(got[o])*size)
				}
			}
		}
	})
}

// TestDispatchFluidIsTheSmallSlotLimit: Algorithm 1 with slots of size s hands every
// claim within 2s of the water-filling allocation (DispatchFluid) of the same capacity.
func TestDispatchFluidIsTheSmallSlotLimit(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(rt, "claims")
		adjust := make([]float64, n)
		capsF := make([]float64, n)
		for c := range adjust {
			adjust[c] = rapid.Float64Range(-5, 10).Draw(rt, "adjust")
			capsF[c] = math.Inf(1)
			if rapid.Bool().Draw(rt, "capped") {
				capsF[c] = rapid.Float64Range(0, 8).Draw(rt, "cap")
			}
		}
		slots := rapid.IntRange(0, 400).Draw(rt, "slots")
		size := 0.05
		capacity := float64(slots) * size
		// Both get the same caps: whole slots.
		caps := make([]int, n)
		for c, cp := range capsF {
			caps[c] = math.MaxInt32
			if !math.IsInf(cp, 1) {
				caps[c] = int(math.Floor(cp / size))
				capsF[c] = float64(caps[c]) * size
			}
		}
		fluid, err := DispatchFluid(adjust, capsF, capacity)
		if err != nil {
			rt.Fatal(err)
		}
		got, err := Dispatch(adjust, caps, slots, size)
		if err != nil {
			rt.Fatal(err)
		}
		sum := 0.0
		for c := range got {
			sum += fluid[c]
			if d := math.Abs(float64(got[c])*size - fluid[c]); d > 2*size+1e-9 {
				rt.Fatalf("claim %d: %d slots (%g) vs fluid %g", c, got[c], float64(got[c])*size, fluid[c])
			}
		}
		capSum := 0.0
		for _, cp := range capsF {
			capSum += cp
		}
		if want := math.Min(capacity, capSum); math.Abs(sum-want) > 1e-9*math.Max(1, want) {
			rt.Fatalf("fluid hands out %g, want %g", sum, want)
		}
	})
}

func TestDispatchFluidWaterLevel(t *testing.T) {
	// Adjustments 6, 4, 1 and capacity 5: the two largest fill down to a common level
	// λ = 2.5 (3.5 + 1.5 = 5), the third stays at 0.
	got, err := DispatchFluid([]float64{6, 4, 1}, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(got, []float64{3.5, 1.5, 0}) {
		t.Errorf("got %v, want [3.5 1.5 0]", got)
	}
	// Capacity beyond every adjustment: the level goes negative and everyone gets some.
	got, _ = DispatchFluid([]float64{2, 1}, nil, 5)
	if !cmp.Equal(got, []float64{3, 2}) {
		t.Errorf("got %v, want [3 2]", got)
	}
	// Caps: claim 0 is full at 1, the rest goes to claim 1.
	got, _ = DispatchFluid([]float64{6, 4}, []float64{1, math.Inf(1)}, 5)
	if !cmp.Equal(got, []float64{1, 4}) {
		t.Errorf("got %v, want [1 4]", got)
	}
	for _, bad := range [][]float64{{math.NaN()}, {math.Inf(1)}} {
		if _, err := DispatchFluid(bad, nil, 1); err == nil {
			t.Errorf("adjust %v: no error", bad)
		}
	}
	if _, err := DispatchFluid([]float64{1}, nil, -1); err == nil {
		t.Error("negative capacity: no error")
	}
}
