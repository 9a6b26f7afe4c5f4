package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sched"
)

func TestCORAPaper(t *testing.T) {
	for _, tc := range []struct{ n, T, c int }{{1, 1, 1}, {10, 5, 2}, {100, 40, 40}, {400, 40, 10}} {
		in, err := CORAPaper(tc.n, tc.T, tc.c, 7)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		again, err := CORAPaper(tc.n, tc.T, tc.c, 7)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(in, again); diff != "" {
			t.Fatalf("%+v: the same seed gave another instance:\n%s", tc, diff)
		}
		if len(in.Jobs) != tc.n || in.Horizon != tc.T {
			t.Fatalf("%+v: %d jobs, horizon %d", tc, len(in.Jobs), in.Horizon)
		}
		total := 0
		classes := [3]int{}
		for _, j := range in.Jobs {
			if j.Demand[0] < 1 {
				t.Fatalf("%+v: job %s demand %d", tc, j.ID, j.Demand[0])
			}
			total += j.Demand[0]
			u := j.Utility.(sched.Sigmoid)
			switch {
			case u.Decay == 0:
				classes[2]++
			case u.Decay >= 4 && u.Decay <= 6:
				classes[0]++
			case u.Decay >= 0.01 && u.Decay <= 1:
				classes[1]++
			default:
				t.Fatalf("%+v: decay %g in no class", tc, u.Decay)
			}
			if u.Priority < 1 || u.Priority > 5 || u.Deadline < 1 || u.Deadline > float64(tc.T) {
				t.Fatalf("%+v: utility %+v out of the paper's ranges", tc, u)
			}
		}
		if total > tc.c*tc.T {
			t.Fatalf("%+v: total demand %d exceeds the room %d", tc, total, tc.c*tc.T)
		}
		if tc.n >= 400 {
			// 20/60/20 within a generous binomial margin.
			if classes[0] < 50 || classes[0] > 110 || classes[1] < 200 || classes[1] > 280 || classes[2] < 50 || classes[2] > 110 {
				t.Fatalf("%+v: classes critical/sensitive/insensitive = %v, want about 80/240/80", tc, classes)
			}
		}
	}
	if other, _ := CORAPaper(100, 40, 40, 8); other != nil {
		if first, _ := CORAPaper(100, 40, 40, 7); cmp.Equal(first, other) {
			t.Fatal("seeds 7 and 8 gave the same instance")
		}
	}
	for _, bad := range []struct{ n, T, c int }{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {5, 2, 2}} {
		if _, err := CORAPaper(bad.n, bad.T, bad.c, 1); err == nil {
			t.Fatalf("%+v: no error", bad)
		}
	}
}
