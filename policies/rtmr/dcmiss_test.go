package rtmr_test

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/rtmr"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// This file decides, by experiment, when the Deadline Constraint scheduler's admitted
// jobs miss their deadlines although no task overruns its estimate — rtmr.txt §III:
// "the schedulability test conditions checked by the scheduler are insufficient to
// ensure the deadline constraint. As a result, accepted jobs may actually miss their
// deadlines … The cause for the deadline violation is that the scheduler only checks if
// a certain number of reduce slots are available at a particular time point s_r^max.
// Instead, the job requires the specified number of reduce slots available for the whole
// time interval [s_r^max, D]".

func loadWorkload(t *testing.T, name string) *workload.Workload {
	t.Helper()
	w, err := workload.DecodeFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// withRuntimes returns a copy of w whose task runtimes are set by runtime(job, stage,
// task); w itself is not changed.
func withRuntimes(w *workload.Workload, runtime func(j, s, k int) float64) *workload.Workload {
	out := *w
	out.Jobs = slices.Clone(w.Jobs)
	for j := range out.Jobs {
		out.Jobs[j].Stages = slices.Clone(w.Jobs[j].Stages)
		for s := range out.Jobs[j].Stages {
			st := &out.Jobs[j].Stages[s]
			st.Runtime = nil
			st.TaskRuntimes = make([]float64, st.Tasks)
			for k := range st.TaskRuntimes {
				st.TaskRuntimes[k] = runtime(j, s, k)
			}
		}
	}
	return &out
}

// scaled is w with every task f times as long.
func scaled(w *workload.Workload, f float64) *workload.Workload {
	return withRuntimes(w, func(j, s, k int) float64 { return f * w.Jobs[j].Stages[s].TaskRuntimes[k] })
}

// atEstimates is w with every task at its declared worst case: on the slowest worker a
// map task takes cm_max·δ_i^m and a reduce task cr_max·η·δ/R (equal shares), the
// estimates ε̃^m and ε̃^r that RTMR and DC admit with; faster workers run it faster.
// Each stage runs on one pool, map then reduce (RTMR's jobs).
func atEstimates(w *workload.Workload) *workload.Workload {
	slowest := math.Inf(1)
	for _, wk := range w.Cluster.Workers {
		slowest = min(slowest, wk.Speed)
	}
	return withRuntimes(w, func(j, s, k int) float64 {
		job := &w.Jobs[j]
		e := job.Estimates
		data := func(i int) float64 {
			if td := job.Stages[0].TaskData; td != nil {
				return td[i]
			}
			return job.Stages[0].Data
		}
		if s == 0 {
			return e.CmMax * data(k) * slowest
		}
		input := 0.0
		for i := range job.Stages[0].Tasks {
			input += data(i)
		}
		return e.CrMax * e.Eta * input / float64(job.Stages[s].Tasks) * slowest
	})
}

// completion is job id's completion in m (NaN when rejected).
func completion(t *testing.T, m *sim.Metrics, id string) float64 {
	t.Helper()
	for _, j := range m.Jobs {
		if j.ID == id {
			if j.Completion == nil {
				return math.NaN()
			}
			return *j.Completion
		}
	}
	t.Fatalf("no job %q", id)
	return 0
}

// TestDCSection3Workload runs §III's situation (testdata/dc-section3.json) through the
// simulator with every task at f times its estimate. One worker, 4 map and 2 reduce
// slots, exact estimates:
//
//	X: A 0, D 30, one map of ε̃^m 20, two reduces of ε̃^r 10: s_r^max 20, n_m^min 1.
//	Y: A 1, D 24 (deadline 25), one map of 14, two reduces of 10: s_r^max 15, n_m^min 1.
//	   DC's test at the instant 15 does not see X's window [20, 30): accepted.
//
// Y's maps end at 1 + 14f, before X's at 20f (f > 1/6), so Y's reduces take both
// slots over [1 + 14f, 1 + 24f) and X's run [1 + 24f, 1 + 34f): X misses exactly when
// 1 + 34f > 30, f > 29/34 ≈ 0.853, although no task overruns its estimate. Checking the
// whole interval [15, 25), as §III says the job requires, rejects Y; so does RTMR
// (X has started, Y queues behind it and its reduces would end at 40).
func TestDCSection3Workload(t *testing.T) {
	w := loadWorkload(t, "dc-section3.json")
	for _, f := range []float64{1, 0.9, 0.86, 0.85, 0.8, 0.5} {
		t.Run(fmt.Sprint(f), func(t *testing.T) {
			wf := scaled(w, f)
			dc := simulate(t, wf, "dc")
			xMisses := f > 29.0/34
			if dc.Accepted != 2 || *dc.Jobs[0].Met == xMisses || !*dc.Jobs[1].Met {
				t.Errorf("dc: accepted %d, X met %v (want %v), Y met %v", dc.Accepted, *dc.Jobs[0].Met, !xMisses, *dc.Jobs[1].Met)
			}
			if got, want := completion(t, dc, "X"), 1+34*f; math.Abs(got-want) > 1e-9 {
				t.Errorf("dc: X completes at %g, want 1 + 34f = %g", got, want)
			}
			for _, p := range []policies.Policy{rtmr.NewDCPolicyWithRules(true, false), rtmr.New(rtmr.Config{})} {
				m := simulatePolicy(t, wf, p)
				if m.Accepted != 1 || !m.Jobs[1].Rejected || m.SuccessRatio != 1 {
					t.Errorf("%s: accepted %d, Y rejected %v, success %g; want 1, true, 1", p.Name(), m.Accepted, m.Jobs[1].Rejected, m.SuccessRatio)
				}
			}
		})
	}
}

// TestDCEarlyReduceWorkload is a miss §III does not name (testdata/dc-early-reduce.json):
// the two jobs' reduce windows are disjoint, so DC accepts both whether it checks the
// instant s_r^max or the whole interval, yet one misses with every task at f times its
// estimate, f > 13/15. One worker, 4 map and 2 reduce slots:
//
//	K: A 0, D 100, one map of 10, two reduces of 10: window [90, 100).
//	J: A 1, D 25 (deadline 26), one map of 10, two reduces of 10: window [16, 26).
//
// K's maps end first, at 10f, and the dispatcher gives its reduces both slots over
// [10f, 20f), long before K's s_r^max; J (earlier deadline) is ready at 1 + 10f and
// waits until 20f, completing at 30f > 26. With RTMR's reservation (Algorithm IV) K's
// reduces wait for J's, and both meet their deadlines; RTMR rejects J (K has started,
// J queues behind it).
func TestDCEarlyReduceWorkload(t *testing.T) {
	w := loadWorkload(t, "dc-early-reduce.json")
	for _, f := range []float64{1, 0.9, 0.87, 0.86, 0.5} {
		t.Run(fmt.Sprint(f), func(t *testing.T) {
			wf := scaled(w, f)
			jMisses := f > 13.0/15
			for _, interval := range []bool{false, true} {
				m := simulatePolicy(t, wf, rtmr.NewDCPolicyWithRules(interval, false))
				if m.Accepted != 2 || !*m.Jobs[0].Met || *m.Jobs[1].Met == jMisses {
					t.Errorf("%s: accepted %d, K met %v, J met %v (want %v)", m.Name, m.Accepted, *m.Jobs[0].Met, *m.Jobs[1].Met, !jMisses)
				}
				if got, want := completion(t, m, "J"), 30*f; math.Abs(got-want) > 1e-9 {
					t.Errorf("%s: J completes at %g, want 30f = %g", m.Name, got, want)
				}
			}
			for _, interval := range []bool{false, true} {
				m := simulatePolicy(t, wf, rtmr.NewDCPolicyWithRules(interval, true))
				if m.Accepted != 2 || m.SuccessRatio != 1 {
					t.Errorf("%s: accepted %d, success %g; want 2, 1", m.Name, m.Accepted, m.SuccessRatio)
				}
			}
			rt := simulate(t, wf, "rtmr")
			if rt.Accepted != 1 || !rt.Jobs[1].Rejected || rt.SuccessRatio != 1 {
				t.Errorf("rtmr: accepted %d, J rejected %v, success %g", rt.Accepted, rt.Jobs[1].Rejected, rt.SuccessRatio)
			}
		})
	}
}

// TestDCMissCauses measures DC's misses on workloads I and II (20 seeds each, jobs with
// more reduces than the 30 reduce slots left out, as §V does for DC) while no task
// overruns its estimate, changing one thing at a time:
//
//   - the runtimes: the generator's within draws (each task its job's worst case times a
//     factor uniform in [0.5, 1], on the slowest workers), every task at its worst case
//     (atEstimates) and at f times it, and each stage at its worst case with the other
//     one drawn;
//   - DC's rules at the worst case: the reduce check over the whole [s_r^max, D] (what
//     §III says the job requires), RTMR's reservation in the reduce dispatcher, both.
//
// Asserted, as measured: no miss under the within draws, nor with every task at 0.8 of
// its worst case; misses with every task at 0.9 of it and at it; map stages drawn and
// reduces at their worst case miss less than the other way round; at the worst case the
// interval check alone and the reservation alone leave misses, and together none. With
// -short only the within draws, the worst case and the worst case with both rules run.
func TestDCMissCauses(t *testing.T) {
	const seeds = 20
	type variant struct {
		name              string
		runtimes          func(within *workload.Workload) *workload.Workload
		interval, reserve bool
	}
	drawnStage := func(stage int) func(*workload.Workload) *workload.Workload {
		return func(w *workload.Workload) *workload.Workload {
			worst := atEstimates(w)
			return withRuntimes(w, func(j, s, k int) float64 {
				if s == stage {
					return w.Jobs[j].Stages[s].TaskRuntimes[k]
				}
				return worst.Jobs[j].Stages[s].TaskRuntimes[k]
			})
		}
	}
	times := func(f float64) func(*workload.Workload) *workload.Workload {
		return func(w *workload.Workload) *workload.Workload { return scaled(atEstimates(w), f) }
	}
	variants := []variant{
		{name: "within draws", runtimes: func(w *workload.Workload) *workload.Workload { return w }},
		{name: "0.8 × worst case", runtimes: times(0.8)},
		{name: "0.9 × worst case", runtimes: times(0.9)},
		{name: "worst case", runtimes: atEstimates},
		{name: "maps drawn, reduces worst", runtimes: drawnStage(0)},
		{name: "reduces drawn, maps worst", runtimes: drawnStage(1)},
		{name: "worst case, interval check", runtimes: atEstimates, interval: true},
		{name: "worst case, reservation", runtimes: atEstimates, reserve: true},
		{name: "worst case, interval check + reservation", runtimes: atEstimates, interval: true, reserve: true},
	}
	if testing.Short() { // the three rows that decide the two causes
		variants = slices.DeleteFunc(variants, func(v variant) bool {
			return v.name != "within draws" && v.name != "worst case" && v.name != "worst case, interval check + reservation"
		})
	}
	for _, fam := range []string{"rtmr-1", "rtmr-2"} {
		ws := make([]*workload.Workload, seeds)
		for s := range ws {
			w, err := hadoop1.RTMRWorkload(fam, uint64(s+1), "within", hadoop1.DefaultRTMRConfig())
			if err != nil {
				t.Fatal(err)
			}
			ws[s] = hadoop1.WithReducesAtMost(w, 30)
		}
		missed := map[string]int{}
		for _, v := range variants {
			accepted, seedsMissing := 0, 0
			for _, w := range ws {
				m := simulatePolicy(t, v.runtimes(w), rtmr.NewDCPolicyWithRules(v.interval, v.reserve))
				accepted += m.Accepted
				missed[v.name] += m.Accepted - m.DeadlinesMet
				if m.Accepted > m.DeadlinesMet {
					seedsMissing++
				}
			}
			t.Logf("%s %-42s accepted %4d  missed %3d  seeds with a miss %2d of %d", fam, v.name, accepted, missed[v.name], seedsMissing, seeds)
		}
		ran := func(name string) bool {
			return slices.ContainsFunc(variants, func(v variant) bool { return v.name == name })
		}
		for _, name := range []string{"within draws", "0.8 × worst case", "worst case, interval check + reservation"} {
			if ran(name) && missed[name] != 0 {
				t.Errorf("%s %s: %d accepted jobs missed, want none", fam, name, missed[name])
			}
		}
		for _, name := range []string{"0.9 × worst case", "worst case", "worst case, interval check", "worst case, reservation"} {
			if ran(name) && missed[name] == 0 {
				t.Errorf("%s %s: no accepted job missed", fam, name)
			}
		}
		if !testing.Short() && missed["maps drawn, reduces worst"] >= missed["reduces drawn, maps worst"] {
			t.Errorf("%s: maps drawn miss %d, reduces drawn %d", fam, missed["maps drawn, reduces worst"], missed["reduces drawn, maps worst"])
		}
	}
}
