package rs

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

func constCap(c, T int) []int {
	out := make([]int, T)
	for i := range out {
		out[i] = c
	}
	return out
}

func testInstance() *sched.Instance {
	return &sched.Instance{
		Name:          "rs-test",
		Horizon:       10,
		HorizonSource: "demand",
		Resources:     []sched.Resource{{Name: "containers", Capacity: constCap(40, 10)}},
		Jobs: []sched.Job{
			{ID: "impulse", Demand: []int{100}, Release: 1, TaskSlots: 2, Utility: sched.Constant{Value: 1},
				Runtime: &sched.Runtime{Type: "impulse", Mean: 2, Tasks: 60}},
			{ID: "gauss", Demand: []int{100}, Release: 1, TaskSlots: 1, Utility: sched.Sigmoid{Priority: 3, Deadline: 5, Decay: 1},
				Runtime: &sched.Runtime{Type: "gaussian", Mean: 2, Std: 0.6, Tasks: 60}},
			{ID: "plain", Demand: []int{37}, Release: 1, TaskSlots: 1, Utility: sched.Step{Value: 2, Deadline: 4}},
			{ID: "zero", Demand: []int{5}, Release: 1, TaskSlots: 1, Utility: sched.Constant{Value: 1},
				Runtime: &sched.Runtime{Type: "pmf", Probabilities: []float64{1}, BinWidth: 1}},
		},
		Robust: &sched.Robust{Theta: 0.9, Delta: 0.7, Bins: 256},
	}
}

func TestDemands(t *testing.T) {
	inst := testInstance()
	p, ok := ParamsOf(inst)
	if !ok || p != (Params{Theta: 0.9, Delta: 0.7, Bins: 256}) {
		t.Fatalf("ParamsOf = %+v, %v", p, ok)
	}
	ds, err := Demands(inst, p)
	if err != nil {
		t.Fatal(err)
	}
	// The Gaussian: N(120, 60·0.36 = 21.6); its worst-case 0.9-quantile at δ = 0.7 is
	// the reference's (1 − b*)-quantile, z* ≈ 3.97.
	b, _ := WorstCaseTail(0.9, 0.7)
	z := normalUpperQuantile(b)
	gaussEta := int64(120 + z*4.6476 + 1) // ⌈120 + z·√21.6⌉
	want := []struct {
		eta, ref   int64
		hasRuntime bool
	}{
		{120, 120, true},
		{gaussEta, 126, true},
		{37, 0, false},
		{1, 0, true}, // WCDE says 0; raised to 1 container-slot
	}
	for i, w := range want {
		d := ds[i]
		if d.Eta != w.eta || d.Estimate.ReferenceQuantile != w.ref || d.HasRuntime() != w.hasRuntime || d.ID != inst.Jobs[i].ID || d.Nominal != inst.Jobs[i].Demand[0] {
			t.Errorf("job %s: %+v (estimate %+v), want eta %d reference %d runtime %v", inst.Jobs[i].ID, d, d.Estimate, w.eta, w.ref, w.hasRuntime)
		}
	}
	if ds[3].Estimate.Eta != 0 {
		t.Errorf("zero job: WCDE eta %d, want 0", ds[3].Estimate.Eta)
	}
}

func TestDemandsRejects(t *testing.T) {
	two := testInstance()
	two.Resources = append(two.Resources, sched.Resource{Name: "memory", Capacity: constCap(8, 10)})
	for i := range two.Jobs {
		two.Jobs[i].Demand = append(two.Jobs[i].Demand, 1)
	}
	badRuntime := testInstance()
	badRuntime.Jobs[1].Runtime = &sched.Runtime{Type: "lognormal"}
	for _, tc := range []struct {
		name string
		inst *sched.Instance
		p    Params
		want string
	}{
		{"two resources", two, Params{Theta: 0.9}, "2 resources (containers, memory)"},
		{"nil", nil, Params{Theta: 0.9}, "nil instance"},
		{"theta", testInstance(), Params{Theta: 1}, "theta"},
		{"delta", testInstance(), Params{Theta: 0.5, Delta: -1}, "delta"},
		{"bins", testInstance(), Params{Theta: 0.5, Bins: 1}, "bins"},
		{"runtime", badRuntime, Params{Theta: 0.5}, `job "gauss": runtime`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Demands(tc.inst, tc.p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRobustInstance(t *testing.T) {
	inst := testInstance()
	inst.Resources[0].Capacity = constCap(20, 10)
	p, _ := ParamsOf(inst)
	ds, err := Demands(inst, p)
	if err != nil {
		t.Fatal(err)
	}
	robust, err := RobustInstance(inst, ds)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for i, job := range robust.Jobs {
		if int64(job.Demand[0]) != ds[i].Eta {
			t.Errorf("job %s: demand %v, want %d", job.ID, job.Demand, ds[i].Eta)
		}
		total += ds[i].Eta
	}
	// The input is untouched.
	if inst.Jobs[0].Demand[0] != 100 || inst.Horizon != 10 || len(inst.Resources[0].Capacity) != 10 {
		t.Errorf("input modified: %+v", inst.Jobs[0])
	}
	// 120 + 139 + 37 + 1 = 297 > 200 = 10 slots × 20: the defaulted horizon grows to fit.
	wantT := int((total + 19) / 20)
	if total <= 200 || robust.Horizon != wantT || len(robust.Resources[0].Capacity) != wantT || robust.Resources[0].Capacity[wantT-1] != 20 {
		t.Errorf("total %d: horizon %d (%d capacities), want %d", total, robust.Horizon, len(robust.Resources[0].Capacity), wantT)
	}
	// A horizon from the file is kept.
	inst.HorizonSource = "file"
	robust, _ = RobustInstance(inst, ds)
	if robust.Horizon != 10 {
		t.Errorf("file horizon changed to %d", robust.Horizon)
	}
	if _, err := RobustInstance(inst, ds[:2]); err == nil {
		t.Error("2 demands for 4 jobs: no error")
	}
}

// fakeTAS schedules every job as early as possible in job order (not lexmax: enough to
// see what RS hands to TAS).
func fakeTAS(seen **sched.Instance) Scheduler {
	return func(ctx context.Context, inst *sched.Instance) (*sched.Schedule, error) {
		*seen = inst
		s := sched.NewSchedule(inst)
		t := 0
		free := inst.Resources[0].Capacity[0]
		for i, job := range inst.Jobs {
			need := job.Demand[0]
			for need > 0 {
				if t >= inst.Horizon {
					return nil, errors.New("fake: does not fit")
				}
				x := min(need, free)
				s.Jobs[i].Alloc[0][t] += x
				need -= x
				free -= x
				if free == 0 {
					t++
					if t < inst.Horizon {
						free = inst.Resources[0].Capacity[t]
					}
				}
			}
		}
		s.Finalize(inst)
		return s, nil
	}
}

func TestSolveHandsEtaToTAS(t *testing.T) {
	inst := testInstance()
	var seen *sched.Instance
	res, err := Solve(context.Background(), inst, Params{Theta: 0.9, Delta: 0.7}, Options{Scheduler: fakeTAS(&seen)})
	if err != nil {
		t.Fatal(err)
	}
	if seen != res.Instance {
		t.Fatal("TAS did not receive the robust instance")
	}
	for i, d := range res.Demands {
		var got int
		for _, x := range res.Schedule.Jobs[i].Alloc[0] {
			got += x
		}
		if int64(got) != d.Eta {
			t.Errorf("job %s: scheduled %d, eta %d", d.ID, got, d.Eta)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, inst, Params{Theta: 0.9}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
	failing := func(context.Context, *sched.Instance) (*sched.Schedule, error) { return nil, errors.New("boom") }
	if _, err := Solve(context.Background(), inst, Params{Theta: 0.9}, Options{Scheduler: failing}); err == nil || !strings.Contains(err.Error(), "tas: boom") {
		t.Errorf("failing TAS: err %v", err)
	}
}

// The shared example instance (testdata/instances/runtime-robust.json, one job per
// estimator) through the decoder: η per job, and every cross-check verify will run.
func TestDemandsOnInstanceFile(t *testing.T) {
	inst, err := sched.DecodeFile("../../testdata/instances/runtime-robust.json")
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ParamsOf(inst)
	if !ok {
		t.Fatal("no robust block")
	}
	ds, err := Demands(inst, p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := WorstCaseTail(p.Theta, p.Delta)
	z := normalUpperQuantile(b)
	ceil := func(x float64) int64 { return int64(math.Ceil(x)) }
	// c: samples 1.2 0.8 1.5 1.1 0.9 → mean 1.1, unbiased variance 0.075; 40 tasks.
	want := map[string]int64{
		"a": ceil(120 + z*math.Sqrt(60*0.36)),
		"b": 75, // impulse 1.5 × 50
		"c": ceil(44 + z*math.Sqrt(40*0.075)),
		"d": 50, // pmf: Φ(3) = 0.9 ≤ θ, so bin 4 (upper edge 4 × 12.5) whatever δ
	}
	for _, d := range ds {
		if d.Eta != want[d.ID] {
			t.Errorf("job %s: eta %d, want %d (%+v)", d.ID, d.Eta, want[d.ID], d.Estimate)
		}
	}
	checks, err := CrossCheckDemands(ds, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 4*9 {
		t.Errorf("%d checks, want 36", len(checks))
	}
	for _, c := range checks {
		if !c.OK || !strings.HasPrefix(c.Name, "rs/") {
			t.Errorf("%s: %v %s", c.Name, c.OK, c.Detail)
		}
	}
	// A tampered demand is caught.
	ds[0].Eta++
	checks, _ = CrossCheckDemands(ds, p)
	if checks[8].Name != "rs/a/eta" || checks[8].OK {
		t.Errorf("tampered eta: %+v", checks[8])
	}
}
