package cora

import (
	"math"
	"strings"
	"testing"
)

func TestQuantize(t *testing.T) {
	for _, c := range []struct {
		name      string
		utility   string
		scale     float64
		wantScale float64
		maxErr    float64 // upper bound on MaxError
		merged    bool
	}{
		{"integers: scale 1, exact", `{"type": "table", "values": [9, 4, 4, 0]}`, 0, 1, 0, false},
		{"halves: scale 10", `{"type": "table", "values": [4.5, 2, 0.5, 0]}`, 0, 10, 0, false},
		{"three decimals: scale 1000", `{"type": "table", "values": [1.125, 0.001, 0, 0]}`, 0, 1000, 0, false},
		{"sigmoid: fallback 1000", `{"type": "sigmoid", "priority": 3, "deadline": 2, "decay": 1.3}`, 0, 1000, 5e-4, false},
		{"explicit scale 1 merges 0.3 and 0.4", `{"type": "table", "values": [2.6, 2.4, 0.4, 0.3]}`, 1, 1, 0.4 + 1e-12, true},
		{"explicit scale 100", `{"type": "table", "values": [2.6, 2.4, 0.6, 0.4]}`, 100, 100, 1e-12, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := parse(t, `{"horizon": 4, "resources": [{"name": "c", "capacity": 1}],
			  "jobs": [{"id": "a", "demand": {"c": 1}, "utility": `+c.utility+`}]}`)
			u, err := Quantize(in, c.scale)
			if err != nil {
				t.Fatal(err)
			}
			if u.Scale != c.wantScale {
				t.Errorf("scale %v, want %v", u.Scale, c.wantScale)
			}
			if u.MaxError > c.maxErr {
				t.Errorf("max error %v, want at most %v", u.MaxError, c.maxErr)
			}
			// Recompute the error and check monotonicity independently.
			var maxErr float64
			for tt := 1; tt <= 4; tt++ {
				v := in.Jobs[0].Utility.At(tt)
				maxErr = math.Max(maxErr, math.Abs(u.Scale*v-float64(u.U[0][tt-1]))/u.Scale)
				if tt > 1 && u.U[0][tt-1] > u.U[0][tt-2] {
					t.Errorf("rounding reversed the order: u(%d) = %d > u(%d) = %d", tt, u.U[0][tt-1], tt-1, u.U[0][tt-2])
				}
			}
			if math.Abs(maxErr-u.MaxError) > 1e-15 {
				t.Errorf("MaxError %v, recomputed %v", u.MaxError, maxErr)
			}
			if got := u.Merged > 0; got != c.merged || u.OrderPreserved == c.merged {
				t.Errorf("merged %d (order preserved %v), want merged %v", u.Merged, u.OrderPreserved, c.merged)
			}
			if c.merged && !strings.Contains(u.mergeWarning(), "0.3 and 0.4 both become 0") {
				t.Errorf("merge warning does not name the pair: %q", u.mergeWarning())
			}
		})
	}
}

func TestNumerics(t *testing.T) {
	for _, c := range []struct {
		name      string
		k         float64
		cells     []int64
		tol       float64
		ok        bool
		underflow int
		want      string // the whole warning, or "" when OK
	}{
		{"small integers", 12, []int64{0, 3, 5, 5, 2}, 1e-7, true, 0, ""},
		// 12^-6 ≈ 3.3e-7 and 12^-7 ≈ 2.8e-8: the gap between them is 3.1e-7 > 1e-7.
		{"gap just above", 12, []int64{6, 7}, 1e-7, true, 0, ""},
		// 12^-7 − 12^-8 ≈ 2.6e-8 < 1e-7.
		{"gap below", 12, []int64{7, 8}, 1e-7, false, 0,
			"the weights k^-u (k = 12) span 10^-8.6 … 1; the smallest gap between distinct weights is 10^-7.6 of the objective's largest coefficient, below the solver's 10^-7 tolerance by 0.6 orders of magnitude: the LP cannot tell these utilities apart, so its optimum need not be eq. (6)'s"},
		// 4,800 cells, k = 4,800, u = 1..1000 (u 1..800 five times, 801..1000 four times).
		// log2(4800) = 12.23: k^-u is subnormal for 1022/12.23 = 83.6 < u ≤ 1075/12.23 =
		// 87.9 (u = 84..87, 20 cells) and 0 beyond (u = 88..1000: 713·5 + 200·4 = 4,365).
		// The smallest gap is 4800^-999·(1 − 1/4800) = 10^-3677.6.
		{"underflow", 4800, spread(4800, 1000), 1e-7, false, 4365,
			"the weights k^-u (k = 4,800) span 10^-3681 … 1: 4,365 of 4,800 underflow to 0, 20 are subnormal (below 2^-1022, with fewer than 53 bits); the smallest gap between distinct weights is 10^-3678 of the objective's largest coefficient, below the solver's 10^-7 tolerance by 3671 orders of magnitude: the LP cannot tell these utilities apart, so its optimum need not be eq. (6)'s"},
		{"one value", 10, []int64{0, 0}, 1e-7, true, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			nm := checkNumerics(c.k, c.cells, c.tol)
			if nm.OK != c.ok || (c.ok && nm.Warning != "") {
				t.Errorf("OK %v (warning %q), want %v", nm.OK, nm.Warning, c.ok)
			}
			if c.want != "" && nm.Warning != c.want {
				t.Errorf("warning\n got %q\nwant %q", nm.Warning, c.want)
			}
			// Count underflows independently.
			under := 0
			for _, u := range c.cells {
				if float64(u)*math.Log2(c.k) > 1075 { // below half of 2^-1074, rounds to 0
					under++
				}
			}
			if c.underflow >= 0 && nm.Underflow != c.underflow {
				t.Errorf("underflow %d, want %d", nm.Underflow, c.underflow)
			}
			if nm.Underflow != under {
				t.Errorf("underflow %d, counted %d", nm.Underflow, under)
			}
		})
	}
}

// spread is n utilities 1..max in a cycle.
func spread(n int, maxU int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)%maxU + 1
	}
	return out
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 4800: "4,800", 1234567: "1,234,567", -2931: "-2,931"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
