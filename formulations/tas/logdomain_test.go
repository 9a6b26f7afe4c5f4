package tas

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/sched"
)

// keyed is in with each utility replaced by its underflow key (sched.UnderflowKeys),
// written out as a utility of its own that offers no logarithm: what OnionPeel peels
// when it takes the logarithms itself.
func keyed(in *sched.Instance) *sched.Instance {
	keys, ok := sched.UnderflowKeys(in)
	if !ok {
		return in
	}
	out := *in
	out.Jobs = slices.Clone(in.Jobs)
	for j := range out.Jobs {
		out.Jobs[j].Utility = keys[j]
	}
	return &out
}

// TestLogDomainKeepsUnderflowApart: two jobs of one unit each on one slot-unit per
// slot, both past their deadlines from slot 2 on with decay 800, so U(2) and U(3) both
// round to 0 while ln U(2) = ln p − 800 > ln U(3). As given, the second job's 0 is
// flat from slot 2 on and it is left at slot 3; keyed by ln U there it takes slot 2.
func TestLogDomainKeepsUnderflowApart(t *testing.T) {
	in := spec{caps: constCaps(3, 1), demand: [][]int{{1}, {1}}, util: []sched.Utility{
		sched.Sigmoid{Priority: 2, Deadline: 1, Decay: 800}, sched.Sigmoid{Priority: 1, Deadline: 1, Decay: 800},
	}}.instance()
	res, err := OnionPeel(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(slices.Values(res.Deadlines)); !slices.Equal(got, []int{1, 2}) || res.Stats.Domain != "log" || !res.Exact {
		t.Fatalf("deadlines %v (domain %q, exact %v), want slots 1 and 2 on ln U", res.Deadlines, res.Stats.Domain, res.Exact)
	}
	for j, lv := range res.Levels {
		if u := in.Jobs[j].Utility.At(res.Deadlines[j]); lv != u {
			t.Fatalf("job %d: level %v, U at its deadline %v", j, lv, u)
		}
	}
	given, err := OnionPeel(context.Background(), in, Options{AsGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(slices.Values(given.Deadlines)); !slices.Equal(got, []int{1, 3}) || given.Stats.Domain != "" {
		t.Fatalf("as given: deadlines %v (domain %q), want slots 1 and 3: the tie at 0 this test is about", given.Deadlines, given.Stats.Domain)
	}
}

// TestLogDomainIsTheLexmaxOfTheKeys: on random sigmoid instances with steep decays (U
// underflows to tied zeros) and release times, the deadlines OnionPeel returns are the
// lexmax of the underflow keys (U, and ln U where U is 0): the layered engine (the
// reference) on the keys written out gives the same sorted vector of keys, and so does
// enumeration on small instances. Where no utility underflows the vector of U is the
// one peeling on U as given gives.
func TestLogDomainIsTheLexmaxOfTheKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genOpts{maxJobs: 8, maxSlots: 12, maxCap: 4, maxDemand: 6, release: rapid.Bool().Draw(t, "release"), feasible: true}
		s := genSpec(t, o)
		for j := range s.util {
			s.util[j] = sched.Sigmoid{
				Priority: float64(rapid.IntRange(1, 3).Draw(t, "p")),
				Deadline: float64(rapid.IntRange(0, len(s.caps[0])).Draw(t, "d")),
				Decay:    rapid.SampledFrom([]float64{0.5, 5, 300, 800}).Draw(t, "mu"),
			}
		}
		in := s.instance()
		res, err := OnionPeel(context.Background(), in, Options{})
		if err != nil {
			return // infeasible release times: the reference agrees (TestReleaseMatchesLayered)
		}
		if res.Stats.Domain != "log" {
			t.Fatalf("domain %q, want log", res.Stats.Domain)
		}
		lin := keyed(in)
		ref, err := OnionPeel(context.Background(), lin, Options{Layered: true})
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, len(in.Jobs))
		underflow := false
		for j := range got {
			got[j] = lin.Jobs[j].Utility.At(res.Deadlines[j])
			if res.Levels[j] != in.Jobs[j].Utility.At(res.Deadlines[j]) {
				t.Fatalf("job %d: level %v is not U at its deadline", j, res.Levels[j])
			}
			for k := 1; k <= in.Horizon; k++ {
				underflow = underflow || in.Jobs[j].Utility.At(k) == 0
			}
		}
		if a, b := sortedCopy(got), sortedCopy(ref.Levels); !slices.Equal(a, b) || res.Exact != ref.Exact {
			t.Fatalf("keys at OnionPeel's deadlines %v (exact %v), layered on the keys %v (exact %v)\n%s", a, res.Exact, b, ref.Exact, describe(in))
		}
		if len(in.Jobs) <= 5 && in.Horizon <= 8 {
			if want := bruteForce(lin); !slices.Equal(sortedCopy(got), want) {
				t.Fatalf("keys at OnionPeel's deadlines %v, enumeration %v\n%s", sortedCopy(got), want, describe(in))
			}
		}
		if !underflow {
			given, err := OnionPeel(context.Background(), in, Options{AsGiven: true})
			if err != nil {
				t.Fatal(err)
			}
			if a, b := sortedCopy(res.Levels), sortedCopy(given.Levels); !slices.Equal(a, b) {
				t.Fatalf("no underflow, yet the vectors differ: keyed %v, as given %v\n%s", a, b, describe(in))
			}
		}
	})
}
