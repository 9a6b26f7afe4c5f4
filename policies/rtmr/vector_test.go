package rtmr

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// printedLoop is Algorithm II lines 2–8 (Algorithm III lines 3–9) exactly as printed:
// k times take t_1, t_1 = max(t_1, floor) + eps, re-sort. The reference for place.
func printedLoop(t []float64, k int, eps, floor float64) float64 {
	e := 0.0
	for range k {
		t[0] = max(t[0], floor)
		t[0] += eps
		e = t[0]
		slices.Sort(t)
	}
	return e
}

// place is placeFrom in place.
func place(t []float64, k int, eps, floor float64) float64 {
	src := slices.Clone(t)
	return placeFrom(t, src, k, eps, floor, make([]float64, len(t)))
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// A worked example of Algorithm II: l = 3 map slots free at [0, 4, 10], current time 2,
// M = 4 maps of ε̃^m = 3.
//
//	pick 0 → max(0,2)+3 = 5   T = [4, 5, 10]
//	pick 4 → 4+3 = 7          T = [5, 7, 10]
//	pick 5 → 5+3 = 8          T = [7, 8, 10]
//	pick 7 → 7+3 = 10 = e^m   T = [8, 10, 10]
//
// And placeFrom's other branches: with floor 6 and k = 1 < c = 2 entries below the floor, only
// t_1 = 0 is picked and becomes 6+3 = 9: [4, 9, 10]; with [0, 0.5, 1], spread 1 ≤ ε̃ = 3,
// k = 7 = 2·3+1 picks rotate: the first gets 3·3, the others 2·3: [6.5, 7, 9], last pick
// is t_1 + 2·3 = 6 finishing at 9.
func TestPlaceWorked(t *testing.T) {
	for _, c := range []struct {
		in    []float64
		k     int
		eps   float64
		floor float64
		want  []float64
		last  float64
	}{
		{[]float64{0, 4, 10}, 4, 3, 2, []float64{8, 10, 10}, 10},
		{[]float64{0, 4, 10}, 1, 3, 6, []float64{4, 9, 10}, 9},
		{[]float64{0, 0.5, 1}, 7, 3, 0, []float64{6.5, 7, 9}, 9},
	} {
		got := slices.Clone(c.in)
		last := place(got, c.k, c.eps, c.floor)
		if !slices.Equal(got, c.want) || last != c.last {
			t.Errorf("place(%v, k=%d, eps=%g, floor=%g) = %v, %g; want %v, %g", c.in, c.k, c.eps, c.floor, got, last, c.want, c.last)
		}
	}
}

func TestPlaceFromMatchesPrintedLoop(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(rt, "n")
		src := make([]float64, n)
		for i := range src {
			src[i] = float64(rapid.IntRange(0, 40).Draw(rt, "t")) / 2
		}
		slices.Sort(src)
		k := rapid.IntRange(1, 60).Draw(rt, "k")
		eps := float64(rapid.IntRange(1, 20).Draw(rt, "eps")) / 4
		floor := float64(rapid.IntRange(0, 40).Draw(rt, "floor")) / 2
		want := slices.Clone(src)
		we := printedLoop(want, k, eps, floor)
		orig := slices.Clone(src)
		got := make([]float64, n)
		ge := placeFrom(got, src, k, eps, floor, make([]float64, n))
		if !slices.Equal(src, orig) {
			rt.Fatalf("placeFrom changed its source")
		}
		if !near(ge, we) {
			rt.Fatalf("last value %v, printed loop %v", ge, we)
		}
		for i := range got {
			if !near(got[i], want[i]) {
				rt.Fatalf("vector %v, printed loop %v", got, want)
			}
		}
	})
}
