package sched

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// firstIncrease, which looks only next to breakpoints (or bisects a sigmoid), finds the
// same slot as a scan over every slot, for utilities that may increase.
func TestFirstIncreaseMatchesScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		T := rapid.IntRange(1, 60).Draw(t, "T")
		hi := float64(T + 3)
		f := func(lo, hi float64, label string) float64 { return rapid.Float64Range(lo, hi).Draw(t, label) }
		var u Utility
		switch rapid.IntRange(0, 5).Draw(t, "family") {
		case 0:
			u = Sigmoid{Priority: f(-10, 10, "p"), Deadline: f(-3, hi, "d"), Decay: f(0, 5, "mu")}
		case 1:
			u = Linear{Priority: f(-10, 10, "W"), Budget: f(-3, hi, "B"), Slope: f(0, 3, "beta"), Hard: rapid.Bool().Draw(t, "hard")}
		case 2:
			u = Step{Value: f(-5, 5, "v"), Deadline: f(-3, hi, "d"), Late: f(-5, 5, "late")}
		case 3:
			n := rapid.IntRange(1, 6).Draw(t, "n")
			pts := make([][2]float64, n)
			x := f(-2, hi, "x0")
			for k := range pts {
				if k > 0 {
					x += f(0.01, 4, "dx")
				}
				pts[k] = [2]float64{x, f(-5, 5, "u")}
			}
			u = Piecewise{Points: pts}
		case 4:
			soft := f(0.1, hi, "soft")
			u = RDS{Priority: f(-5, 5, "w"), Soft: soft, Hard: f(soft, 2*soft, "hard")}
		default:
			v := make([]float64, rapid.IntRange(1, T+2).Draw(t, "len"))
			for k := range v {
				v[k] = float64(rapid.IntRange(0, 5).Draw(t, "v"))
			}
			u = Table{Values: v}
		}
		got, gotOK := firstIncrease(u, T)
		want, wantOK := scanIncrease(u, T)
		if got != want || gotOK != wantOK {
			t.Fatalf("%#v on 1..%d: firstIncrease = %d,%v, scan = %d,%v", u, T, got, gotOK, want, wantOK)
		}
	})
}

// reachable agrees with summing min(cap, C_t) slot by slot.
func TestReachableMatchesSum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		capacity := rapid.SliceOfN(rapid.IntRange(0, 9), 1, 40).Draw(t, "capacity")
		T := len(capacity)
		qs := make([]reachQuery, rapid.IntRange(0, 8).Draw(t, "queries"))
		for k := range qs {
			qs[k] = reachQuery{job: k, from: rapid.IntRange(1, T).Draw(t, "from"), cap: rapid.IntRange(0, 10).Draw(t, "cap")}
		}
		reachable(capacity, qs)
		for _, q := range qs {
			want := int64(0)
			for s := q.from - 1; s < T; s++ {
				want += int64(rateOf(capacity[s], q.cap))
			}
			if q.total != want {
				t.Fatalf("capacity %v from %d cap %d: reachable %d, want %d", capacity, q.from, q.cap, q.total, want)
			}
		}
	})
}

// The default horizon is the smallest T that works: at T−1 the same file with an
// explicit horizon is rejected (or T is the latest slot a utility names).
func TestDefaultHorizonIsSmallest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.IntRange(1, 6).Draw(t, "capacity")
		n := rapid.IntRange(1, 5).Draw(t, "jobs")
		doc := fmt.Sprintf(`{"resources": [{"name": "c", "capacity": %d}], "jobs": [`, c)
		for i := range n {
			if i > 0 {
				doc += ","
			}
			doc += fmt.Sprintf(`{"id": "j%d", "demand": {"c": %d}, "release": %d, "max_parallel": %d,
				"utility": {"type": "step", "value": 1, "deadline": %d}}`,
				i, rapid.IntRange(1, 20).Draw(t, "demand"), rapid.IntRange(1, 4).Draw(t, "release"),
				rapid.IntRange(0, 4).Draw(t, "max_parallel"), rapid.IntRange(0, 12).Draw(t, "deadline"))
		}
		doc += "]}"
		in, err := Parse([]byte(doc))
		if err != nil {
			t.Fatalf("%v\n%s", err, doc)
		}
		if in.HorizonSource == "utility" {
			return
		}
		if in.HorizonSource != "demand" {
			t.Fatalf("source %q", in.HorizonSource)
		}
		if in.Horizon == 1 {
			return
		}
		shorter := fmt.Sprintf(`{"horizon": %d, %s`, in.Horizon-1, doc[1:])
		if _, err := Parse([]byte(shorter)); err == nil {
			t.Fatalf("default horizon %d, but %d works too:\n%s", in.Horizon, in.Horizon-1, doc)
		}
	})
}
