package tas

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/sched"
)

// checkAgainstBruteForce runs OnionPeel on in and compares with the brute force.
func checkAgainstBruteForce(t tb, in *sched.Instance, opts Options) *Result {
	t.Helper()
	// Compared in OnionPeel's order: U, with ln U where a sigmoid underflows to 0.
	kin := in
	if !opts.AsGiven {
		kin = keyed(in)
	}
	want := bruteForce(kin)
	res, err := OnionPeel(context.Background(), in, opts)
	if want == nil {
		if !errors.Is(err, ErrInfeasible) {
			t.Fatalf("brute force finds no feasible schedule; OnionPeel: res=%v err=%v", res, err)
		}
		return nil
	}
	if err != nil {
		t.Fatalf("OnionPeel: %v (brute force optimum %v)", err, want)
	}
	got := make([]float64, len(in.Jobs))
	for j := range got {
		got[j] = kin.Jobs[j].Utility.At(res.Deadlines[j])
	}
	got = sortedCopy(got)
	if !res.Exact {
		t.Fatalf("result not exact (stats %+v)", res.Stats)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("OnionPeel levels %v, brute force %v (stats %+v, deadlines %v)", got, want, res.Stats, res.Deadlines)
	}
	checkSchedule(t, in, res.Schedule, res.Deadlines)
	// The actual completions can only be as good as the optimum.
	if kin == in && !slices.Equal(res.Schedule.Sorted, want) {
		t.Fatalf("schedule's sorted utilities %v, optimum %v", res.Schedule.Sorted, want)
	}
	for j, lv := range res.Levels {
		if u := in.Jobs[j].Utility.At(res.Deadlines[j]); u != lv {
			t.Fatalf("job %d: level %g but U(deadline %d) = %g", j, lv, res.Deadlines[j], u)
		}
	}
	return res
}

func TestOnionPeelMatchesBruteForce(t *testing.T) {
	cases := map[string]genOpts{
		// The acceptance property: N ≤ 5, T ≤ 6, capacity ≤ 4, table utilities 0–9.
		"table":            {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "table"},
		"table-varying":    {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "table", varyCap: true},
		"table-2resources": {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "table", resources: 2, varyCap: true},
		"real":             {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "real", varyCap: true},
		"sigmoid":          {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "sigmoid", resources: 2},
		"mixed":            {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "mixed", varyCap: true},
		// Release times and parallelism caps: the brute force checks feasibility by its
		// own Ford–Fulkerson.
		"release":        {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "table", release: true},
		"maxpar":         {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "table", maxPar: true, varyCap: true},
		"release-maxpar": {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "table", release: true, maxPar: true, resources: 2},
		"release-real":   {maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 8, utility: "real", release: true, varyCap: true},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				checkAgainstBruteForce(rt, genSpec(rt, o).instance(), Options{})
			})
		})
	}
}

// The sweep and the layered engine must agree on instances too large for brute force.
func TestSweepMatchesLayers(t *testing.T) {
	cases := map[string]genOpts{
		"sigmoid": {maxJobs: 40, maxSlots: 30, maxCap: 10, maxDemand: 30, utility: "sigmoid", resources: 2, varyCap: true, feasible: true},
		"real":    {maxJobs: 40, maxSlots: 30, maxCap: 10, maxDemand: 30, utility: "real", varyCap: true, feasible: true},
		"table":   {maxJobs: 25, maxSlots: 12, maxCap: 6, maxDemand: 12, utility: "table", feasible: true},
		"mixed":   {maxJobs: 40, maxSlots: 40, maxCap: 10, maxDemand: 30, utility: "mixed", resources: 2, varyCap: true, feasible: true},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			compared, handedOver := 0, 0
			defer func() { t.Logf("compared %d, sweep handed over %d", compared, handedOver) }()
			rapid.Check(t, func(rt *rapid.T) {
				in := genSpec(rt, o).instance()
				p, err := newProblem(in)
				if err != nil {
					rt.Fatal(err)
				}
				if p.totalViolation() != nil {
					rt.Skip("infeasible")
				}
				var st1, st2 Stats
				d, err := runSweep(context.Background(), p, &st1)
				var ho *errHandOver
				if errors.As(err, &ho) {
					handedOver++
					return // the layered engine decides these; compared against brute force above
				}
				if err != nil {
					rt.Fatal(err)
				}
				out, err := runLayered(context.Background(), p, DefaultMaxBranches, false, &st2)
				if err != nil {
					rt.Fatal(err)
				}
				sw := make([]float64, len(d))
				for j := range d {
					sw[j] = in.Jobs[j].Utility.At(d[j])
				}
				if !out.exact {
					rt.Skip("layered engine ran out of branches")
				}
				if a, b := sortedCopy(sw), sortedCopy(out.level); !slices.Equal(a, b) {
					rt.Fatalf("sweep %v\nlayers %v", a, b)
				}
				compared++
				if v := p.prefixViolation(d); v != nil {
					rt.Fatalf("sweep deadlines infeasible: %v", v)
				}
			})
		})
	}
}

// Lawler's backward rule — put last the job that loses least when finishing last — is
// max-min optimal but not lexmax optimal (docs/design.md).
func TestLawlerIsNotLexmax(t *testing.T) {
	in := spec{
		caps:   constCaps(4, 4),
		demand: [][]int{{8}, {4}, {2}},
		util:   []sched.Utility{table(9, 8, 6, 6), table(4, 4, 3, 1), table(8, 6, 3, 0)},
	}.instance()
	if got := lawlerBackward(in); !slices.Equal(got, []float64{4, 6, 6}) {
		t.Fatalf("Lawler's rule gives %v, docs/design.md says (4,6,6)", got)
	}
	res := checkAgainstBruteForce(t, in, Options{})
	if !slices.Equal(sortedCopy(res.Levels), []float64{4, 6, 8}) {
		t.Fatalf("OnionPeel gives %v, want (4,6,8)", sortedCopy(res.Levels))
	}
	// C first (slot 1: 8), B by slot 2 (4), A last (6).
	if !slices.Equal(res.Deadlines, []int{4, 2, 1}) {
		t.Fatalf("deadlines %v, want [4 2 1]", res.Deadlines)
	}
}

// lawlerBackward sequences the jobs from the back on one resource of constant capacity:
// the job placed last is the one with the highest utility at the slot where the remaining
// work ends (ties by lowest index).
func lawlerBackward(in *sched.Instance) []float64 {
	c := in.Resources[0].Capacity[0]
	left := make([]int, len(in.Jobs))
	work := 0
	for j := range left {
		left[j] = j
		work += in.Jobs[j].Demand[0]
	}
	var out []float64
	for len(left) > 0 {
		end := (work + c - 1) / c
		best := 0
		for k, j := range left {
			if in.Jobs[j].Utility.At(end) > in.Jobs[left[best]].Utility.At(end) {
				best = k
			}
		}
		j := left[best]
		out = append(out, in.Jobs[j].Utility.At(end))
		work -= in.Jobs[j].Demand[0]
		left = slices.Delete(left, best, best+1)
	}
	slices.Sort(out)
	return out
}

// Constant and all-zero utilities keep the lowest level and still get their demand.
func TestConstantAndZeroUtilitiesAreScheduled(t *testing.T) {
	in := spec{
		caps:   constCaps(3, 2),
		demand: [][]int{{2}, {2}, {2}},
		util:   []sched.Utility{sched.Constant{Value: 0}, sched.Constant{Value: 5}, table(3, 2, 1)},
	}.instance()
	res := checkAgainstBruteForce(t, in, Options{})
	// The table job takes slot 1 (3); the others finish by slot 3 whatever they get.
	if res.Deadlines[2] != 1 || res.Deadlines[0] != 3 || res.Deadlines[1] != 3 {
		t.Fatalf("deadlines %v, want [3 3 1]", res.Deadlines)
	}
	if !slices.Equal(sortedCopy(res.Levels), []float64{0, 3, 5}) {
		t.Fatalf("levels %v", res.Levels)
	}
}

func TestOnionPeelInfeasible(t *testing.T) {
	in := spec{caps: constCaps(2, 1), demand: [][]int{{2}, {1}}, util: []sched.Utility{table(1, 0), table(1, 0)}}.instance()
	_, err := OnionPeel(context.Background(), in, Options{})
	if !errors.Is(err, ErrInfeasible) {
		t.Fatalf("err = %v, want ErrInfeasible", err)
	}
	// Release times can make a horizon that has room in total infeasible.
	in = spec{caps: constCaps(2, 1), demand: [][]int{{1}, {1}}, util: []sched.Utility{table(1, 0), table(1, 0)},
		release: []int{2, 2}}.instance()
	if _, err := OnionPeel(context.Background(), in, Options{}); !errors.Is(err, ErrInfeasible) {
		t.Fatalf("with release: err = %v, want ErrInfeasible", err)
	}
}

func TestOnionPeelCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Ties force the layered engine, which checks the context every layer.
	in := spec{caps: constCaps(4, 2), demand: [][]int{{2}, {2}, {2}, {2}},
		util: []sched.Utility{table(3, 3, 1, 1), table(3, 3, 1, 1), table(3, 3, 1, 1), table(3, 3, 1, 1)}}.instance()
	if _, err := OnionPeel(ctx, in, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestOnionPeelRejectsMalformed(t *testing.T) {
	good := spec{caps: constCaps(2, 1), demand: [][]int{{1}}, util: []sched.Utility{table(1, 0)}}
	cases := map[string]func(*sched.Instance){
		"nil utility":   func(in *sched.Instance) { in.Jobs[0].Utility = nil },
		"zero demand":   func(in *sched.Instance) { in.Jobs[0].Demand[0] = 0 },
		"neg demand":    func(in *sched.Instance) { in.Jobs[0].Demand[0] = -1 },
		"short demand":  func(in *sched.Instance) { in.Jobs[0].Demand = nil },
		"capacity len":  func(in *sched.Instance) { in.Resources[0].Capacity = []int{1} },
		"neg capacity":  func(in *sched.Instance) { in.Resources[0].Capacity[1] = -1 },
		"no horizon":    func(in *sched.Instance) { in.Horizon = 0 },
		"late release":  func(in *sched.Instance) { in.Jobs[0].Release = 3 },
		"neg maxpar":    func(in *sched.Instance) { in.Jobs[0].MaxParallel = -2 },
		"no resources":  func(in *sched.Instance) { in.Resources = nil },
		"NaN utility":   func(in *sched.Instance) { in.Jobs[0].Utility = sched.Table{Values: []float64{math.NaN(), 0}} },
		"nil instance?": nil,
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			var in *sched.Instance
			if mutate != nil {
				in = good.instance()
				mutate(in)
			}
			if _, err := OnionPeel(context.Background(), in, Options{}); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// On this benchmark-style instance (400 sigmoid jobs, 800 slots) float rounding makes the
// utilities flat for a few slots near their maxima: the sweep rolls back several times and
// withdraws a fact, and must still agree with the layered engine.
func TestSweepRollbacksMatchLayers(t *testing.T) {
	in := sigmoidInstance(400, 800, 6)
	p, err := newProblem(in)
	if err != nil {
		t.Fatal(err)
	}
	var st, st2 Stats
	d, err := runSweep(context.Background(), p, &st)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rollbacks == 0 || st.Withdrawn == 0 {
		t.Fatalf("no rollback or withdrawal (%+v): the test no longer covers them", st)
	}
	out, err := runLayered(context.Background(), p, DefaultMaxBranches, false, &st2)
	if err != nil || !out.exact {
		t.Fatalf("layered: %v, exact %v", err, out != nil && out.exact)
	}
	sw := make([]float64, len(d))
	for j := range d {
		sw[j] = p.u.at(j, d[j])
	}
	if a, b := sortedCopy(sw), sortedCopy(out.level); !slices.Equal(a, b) {
		t.Fatalf("sweep and layers differ")
	}
}
