package verify

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

// This file is the mutation test: a correct answer is perturbed in one entry,
// 1,000 times with a seeded generator, and the test decides on its own — by recomputing
// capacity, demand, release, max_parallel, completion and utilities in plain loops, or
// Ax and cᵀx for an LP — whether the perturbation broke feasibility, the answer's
// claims or optimality. The report must flag exactly those: every broken one fails,
// and every one that kept the answer feasible and optimal passes.

const mutations = 1000

// scheduleOracle decides, without package verify, what is wrong with s.
type scheduleVerdict struct {
	feasible, consistent, optimal bool
	sorted                        []float64 // utilities recomputed from the allocation, sorted
}

func scheduleOracle(in *sched.Instance, s *sched.Schedule, optimum []float64) scheduleVerdict {
	v := scheduleVerdict{feasible: true, consistent: true}
	us := make([]float64, len(in.Jobs))
	for j, job := range in.Jobs {
		js := s.Jobs[j]
		last := 0
		for r := range in.Resources {
			got := 0
			for t, x := range js.Alloc[r] {
				if x < 0 || (x > 0 && t+1 < job.Release) || (job.MaxParallel > 0 && x > job.MaxParallel) {
					v.feasible = false
				}
				if x != 0 {
					last = max(last, t+1)
				}
				got += x
			}
			if got < job.Demand[r] {
				v.feasible = false
			}
		}
		if last > 0 {
			us[j] = job.Utility.At(last)
		}
		if last != js.Completion || us[j] != js.Utility {
			v.consistent = false
		}
	}
	for r, res := range in.Resources {
		for t := range in.Horizon {
			used := 0
			for j := range in.Jobs {
				used += s.Jobs[j].Alloc[r][t]
			}
			if used > res.Capacity[t] {
				v.feasible = false
			}
		}
	}
	v.sorted = slices.Clone(us)
	slices.Sort(v.sorted)
	sum := 0.0
	for _, u := range us {
		sum += u
	}
	if !slices.Equal(v.sorted, s.Sorted) || s.Min != v.sorted[0] || math.Abs(s.Sum-sum) > 1e-9*math.Max(1, math.Abs(sum)) {
		v.consistent = false
	}
	v.optimal = slices.Equal(v.sorted, optimum)
	return v
}

func TestMutationSchedule(t *testing.T) {
	names := []string{"quickstart.json", "tas/lawler.json", "tas/release.json", "tas/max-parallel.json",
		"tas/varying-capacity.json", "tas/two-resources.json", "tas/zero-utility.json", "instances/release-max-parallel.json"}
	type base struct {
		in *sched.Instance
		s  *sched.Schedule
	}
	var bases []base
	for _, n := range names {
		in := load(t, n)
		s := onion(t, in)
		// The optimum the perturbations are judged against is certified here by max-flow
		// tests that share no code with onion peeling.
		if c := LexmaxCertificate("cert", in, s, 0); c.Status() != "pass" {
			t.Fatalf("%s: onion's schedule is not certified: %s %s%s", n, c.Status(), c.Detail, c.Reason)
		}
		bases = append(bases, base{in, s})
	}
	rng := rand.New(rand.NewPCG(8, 2024))
	var count struct{ broken, infeasible, inconsistent, worse, kept, certRefuted int }
	for k := range mutations {
		b := bases[rng.IntN(len(bases))]
		in, s := b.in, cloneSchedule(b.s)
		j := rng.IntN(len(in.Jobs))
		js := &s.Jobs[j]
		what := ""
		switch kind := rng.IntN(8); {
		case kind < 6: // one allocation entry, claims recomputed (kind < 4) or left stale
			r, slot := rng.IntN(len(in.Resources)), rng.IntN(in.Horizon)
			d := []int{-2, -1, 1, 2}[rng.IntN(4)]
			js.Alloc[r][slot] += d
			what = "alloc"
			if kind < 4 {
				s.Finalize(in)
				what = "alloc+finalize"
			}
		case kind == 6: // a job's claimed completion or utility
			if rng.IntN(2) == 0 {
				js.Completion += []int{-1, 1}[rng.IntN(2)]
				what = "completion"
			} else {
				js.Utility += []float64{-1e-3, 0, 1e-3, 0.5}[rng.IntN(4)]
				what = "utility"
			}
		default: // the sorted vector, minimum or sum
			switch rng.IntN(3) {
			case 0:
				s.Sorted[rng.IntN(len(s.Sorted))] += []float64{-0.1, 0, 1e-4}[rng.IntN(3)]
			case 1:
				s.Min += []float64{-0.1, 0, 1e-4}[rng.IntN(3)]
			default:
				s.Sum += []float64{-1, 0, 1e-3}[rng.IntN(3)]
			}
			what = "sorted"
		}
		v := scheduleOracle(in, s, b.s.Sorted)
		if v.feasible && v.consistent && sched.CompareSorted(v.sorted, b.s.Sorted, 0) > 0 {
			t.Fatalf("mutation %d (%s, %s): a feasible schedule better than the certified optimum", k, in.Name, what)
		}
		broken := !v.feasible || !v.consistent || !v.optimal
		rep := Merge(Schedule(in, s, ScheduleOptions{}), Report{Checks: []Check{Optimality("optimality", s.Sorted, b.s.Sorted)}})
		if flagged := !rep.OK(); flagged != broken {
			t.Fatalf("mutation %d (%s, %s, job %s): oracle says feasible %t, consistent %t, optimal %t; report OK %t: %v",
				k, in.Name, what, js.ID, v.feasible, v.consistent, v.optimal, rep.OK(), rep.Failures())
		}
		switch {
		case !v.feasible:
			count.infeasible++
		case !v.consistent:
			count.inconsistent++
		case !v.optimal:
			count.worse++
			// The max-flow certificate alone, without the known optimum, must not
			// certify a worse feasible schedule.
			if c := LexmaxCertificate("cert", in, s, 0); c.Status() == "pass" {
				t.Fatalf("mutation %d (%s): LexmaxCertificate passes a worse schedule", k, in.Name)
			} else if c.Status() == "fail" {
				count.certRefuted++
			}
		default:
			count.kept++
		}
		if broken {
			count.broken++
		}
	}
	t.Logf("%d schedule mutations: %d broken (%d infeasible, %d inconsistent claims, %d feasible but worse — %d of those refuted by the max-flow certificate alone), %d kept feasible and optimal",
		mutations, count.broken, count.infeasible, count.inconsistent, count.worse, count.certRefuted, count.kept)
	// The generator must exercise both directions and every kind of breakage.
	if count.kept == 0 || count.infeasible == 0 || count.inconsistent == 0 || count.worse == 0 {
		t.Errorf("the mutations do not cover every case: %+v", count)
	}
}

// randomLP is min cᵀx s.t. lo_i ≤ a_i·x (or a_i·x ≤ up_i), 0 ≤ x ≤ u, with small
// integer data, feasible by construction; two columns cost nothing, so some
// perturbations keep the point optimal.
func randomLP(rng *rand.Rand, n, m int) *model.Problem {
	p := &model.Problem{Sense: model.Minimize, ColCost: make([]float64, n), ColLower: make([]float64, n), ColUpper: make([]float64, n),
		RowLower: make([]float64, m), RowUpper: make([]float64, m), AStart: make([]int, n+1)}
	x0 := make([]float64, n)
	for j := range n {
		p.ColCost[j] = float64(1 + rng.IntN(9))
		if j < 2 {
			p.ColCost[j] = 0
		}
		p.ColUpper[j] = float64(2 + rng.IntN(6))
		x0[j] = float64(rng.IntN(int(p.ColUpper[j]) + 1))
	}
	a := make([][]float64, m)
	for i := range m {
		a[i] = make([]float64, n)
		for j := range n {
			if rng.IntN(3) > 0 {
				a[i][j] = float64(1 + rng.IntN(5))
			}
		}
	}
	for j := range n {
		for i := range m {
			if a[i][j] != 0 {
				p.AIndex = append(p.AIndex, i)
				p.AValue = append(p.AValue, a[i][j])
			}
		}
		p.AStart[j+1] = len(p.AIndex)
	}
	for i := range m {
		act := 0.0
		for j := range n {
			act += a[i][j] * x0[j]
		}
		if i%3 == 2 { // a ≤ row with room
			p.RowLower[i], p.RowUpper[i] = math.Inf(-1), act+float64(rng.IntN(3))
		} else { // a ≥ row the optimum pushes against
			p.RowLower[i], p.RowUpper[i] = act-float64(rng.IntN(3)), math.Inf(1)
		}
	}
	return p
}

func TestMutationLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2025))
	simplex, err := solvers.Get("simplex")
	if err != nil {
		t.Fatal(err)
	}
	gonum, err := solvers.Get("gonum")
	if err != nil {
		t.Fatal(err)
	}
	type solved struct {
		p   *model.Problem
		sol *solvers.Solution
	}
	var lps []solved
	for range 10 {
		p := randomLP(rng, 8, 6)
		sol, err := simplex.Solve(context.Background(), p, solvers.Options{})
		if err != nil || sol.Status != solvers.Optimal {
			t.Fatalf("simplex: %v %v", err, sol)
		}
		if rep := Certificate(p, sol, certificate.Tolerances{}); !rep.OK() {
			t.Fatalf("the simplex optimum is not certified: %v", rep.Failures())
		}
		// An independent backend agrees on the optimal value.
		other, err := gonum.Solve(context.Background(), p, solvers.Options{})
		if err != nil || math.Abs(other.Objective-sol.Objective) > 1e-6*math.Max(1, math.Abs(sol.Objective)) {
			t.Fatalf("gonum: %v, objective %v against %g", err, other, sol.Objective)
		}
		lps = append(lps, solved{p, sol})
	}
	var count struct{ broken, infeasible, worse, stale, kept int }
	for k := range mutations {
		lp := lps[rng.IntN(len(lps))]
		p, base := lp.p, lp.sol
		sol := *base
		sol.X = slices.Clone(base.X)
		sol.RowActivity = nil
		j := rng.IntN(p.NumCols())
		sol.X[j] += []float64{-1, -0.5, -0.25, 0.25, 0.5, 1}[rng.IntN(6)]
		stale := rng.IntN(4) == 0
		z := 0.0 // cᵀx recomputed here
		for c := range sol.X {
			z += p.ColCost[c] * sol.X[c]
		}
		if !stale {
			sol.Objective = z
		}
		feasible := sol.X[j] >= p.ColLower[j]-1e-9 && sol.X[j] <= p.ColUpper[j]+1e-9
		for i := range p.NumRows() {
			act := 0.0
			for c := range p.NumCols() {
				for e := p.AStart[c]; e < p.AStart[c+1]; e++ {
					if p.AIndex[e] == i {
						act += p.AValue[e] * sol.X[c]
					}
				}
			}
			if act < p.RowLower[i]-1e-7*math.Max(1, math.Abs(p.RowLower[i])) || act > p.RowUpper[i]+1e-7*math.Max(1, math.Abs(p.RowUpper[i])) {
				feasible = false
			}
		}
		optimal := z <= base.Objective+1e-6*math.Max(1, math.Abs(base.Objective))
		if feasible && z < base.Objective-1e-6*math.Max(1, math.Abs(base.Objective)) {
			t.Fatalf("mutation %d: a feasible point better than the optimum", k)
		}
		claims := sol.Objective == z || math.Abs(sol.Objective-z) <= 1e-6*math.Max(1, math.Abs(z))
		broken := !feasible || !optimal || !claims
		rep := Certificate(p, &sol, certificate.Tolerances{})
		if flagged := !rep.OK(); flagged != broken {
			t.Fatalf("mutation %d (column %d, cost %g, stale %t): oracle says feasible %t, optimal %t, objective right %t; certificate OK %t: %v",
				k, j, p.ColCost[j], stale, feasible, optimal, claims, rep.OK(), rep.Failures())
		}
		switch {
		case !feasible:
			count.infeasible++
		case !optimal:
			count.worse++
		case !claims:
			count.stale++
		default:
			count.kept++
		}
		if broken {
			count.broken++
		}
	}
	t.Logf("%d LP mutations: %d broken (%d infeasible, %d feasible but worse, %d with a stale objective), %d kept feasible and optimal",
		mutations, count.broken, count.infeasible, count.worse, count.stale, count.kept)
	if count.kept == 0 || count.infeasible == 0 || count.worse == 0 {
		t.Errorf("the mutations do not cover every case: %+v", count)
	}
}
