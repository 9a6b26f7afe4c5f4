package rtmr

import (
	"math"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// The tests drive the core schedulers with workloads that carry their hidden truth
// (driver_test.go's stand-in for the simulator): hand-built ones whose true costs are
// stated, random ones, and the generated workloads I and II of workload/hadoop1 read
// back from their workload files (generated).

// RuntimeModel says how true task times relate to the declared worst-case estimates.
type RuntimeModel string

const (
	// Within: every task's true time is at most its estimate (the Appendix's assumption;
	// RTMR's guarantee applies).
	Within RuntimeModel = "within"
	// Beyond: a task may take up to GenParams.BeyondFactor times the time Within allows,
	// so some exceed their estimates and the guarantee no longer holds.
	Beyond RuntimeModel = "beyond"
)

// Truth is what the scheduler does not know about a job: its true per-unit costs on a
// slot of speed 1, its true intermediate-data ratio and the range of the per-task factor.
type Truth struct {
	MapCost    float64 `json:"map_cost"`    // seconds per MB at speed 1
	ReduceCost float64 `json:"reduce_cost"` // seconds per MB at speed 1
	Eta        float64 `json:"eta"`         // true δ^r/δ
	NoiseLo    float64 `json:"noise_lo"`    // per-task factor drawn from [NoiseLo, NoiseHi]
	NoiseHi    float64 `json:"noise_hi"`
}

// WorkloadJob is a job with its hidden truth: the Truth's costs, or (for a generated
// workload read back from its file) the true runtimes at speed 1 and reduce inputs.
type WorkloadJob struct {
	Job
	Truth Truth `json:"truth"`
	// runtimes[stage][task] are the true task times at speed 1 and reduceInputs the
	// true δ_i^r, when given: they take the Truth's place.
	runtimes     [2][]float64
	reduceInputs []float64
}

// Workload is an RTMR workload for the driver: a cluster and jobs in arrival order.
type Workload struct {
	Family       string        `json:"family"`
	Seed         uint64        `json:"seed"`
	RuntimeModel RuntimeModel  `json:"runtime_model"`
	Cluster      Cluster       `json:"cluster"`
	Jobs         []WorkloadJob `json:"jobs"`
}

// WithReducesAtMost is w without the jobs that have more than q reduce tasks (§V leaves
// them out of workload II when it runs the Deadline Constraint scheduler).
func (w *Workload) WithReducesAtMost(q int) *Workload {
	out := *w
	out.Jobs = slices.DeleteFunc(slices.Clone(w.Jobs), func(j WorkloadJob) bool { return j.Reduces > q })
	return &out
}

// factor is the per-task runtime factor of task (stage, task) of job i: a pure function
// of (seed, i, stage, task), so every policy sees the same runtimes (common random
// numbers) and adding a job changes nobody else's.
func (w *Workload) factor(i int, stage Stage, task int) float64 {
	tr := w.Jobs[i].Truth
	return tr.NoiseLo + (tr.NoiseHi-tr.NoiseLo)*hadoop1.RTMRTaskNoise(w.Seed, i, int(stage), task)
}

// ReduceInput is the true δ_task^r of job i.
func (w *Workload) ReduceInput(i, task int) float64 {
	j := &w.Jobs[i]
	if j.reduceInputs != nil {
		return j.reduceInputs[task]
	}
	return j.Truth.Eta * j.Input() * j.Share(task)
}

// TaskRuntime is the true execution time of a task of job i on a slot of the given speed.
func (w *Workload) TaskRuntime(i int, stage Stage, task int, speed float64) float64 {
	j := &w.Jobs[i]
	if rt := j.runtimes[stage]; rt != nil {
		return rt[task] / speed // as the simulator runs a workload file
	}
	if stage == Map {
		return j.MapSizes[task] * j.Truth.MapCost / speed * w.factor(i, Map, task)
	}
	return w.ReduceInput(i, task) * j.Truth.ReduceCost / speed * w.factor(i, Reduce, task)
}

// generated is workload I or II (workload/hadoop1.RTMRFamilyBeyond) read back as the
// driver's workload: one worker per file worker (its one speed for both pools), the
// declared estimates, and each task's true time and reduce input from the file.
func generated(t testing.TB, family string, seed uint64, model RuntimeModel, factor float64) *Workload {
	t.Helper()
	f, err := hadoop1.RTMRFamilyBeyond(family, seed, string(model), factor)
	if err != nil {
		t.Fatal(err)
	}
	return fromFile(t, f, family, seed, model)
}

func fromFile(t testing.TB, f *workload.Workload, family string, seed uint64, model RuntimeModel) *Workload {
	t.Helper()
	w := &Workload{Family: family, Seed: seed, RuntimeModel: model}
	for _, wk := range f.Cluster.Workers {
		for range wk.Count {
			w.Cluster.Workers = append(w.Cluster.Workers, Worker{MapSlots: wk.Slots["map"], ReduceSlots: wk.Slots["reduce"],
				MapSpeed: wk.Speed, ReduceSpeed: wk.Speed})
		}
	}
	for _, fj := range f.Jobs {
		e := fj.Estimates
		j := WorkloadJob{Job: Job{ID: fj.ID, Arrival: fj.Arrival, Deadline: fj.Deadline, MapSizes: slices.Clone(fj.Stages[0].TaskData),
			Est: &Estimates{Eta: e.Eta, CmMax: e.CmMax, CrMax: e.CrMax}}}
		j.runtimes[Map] = fj.Stages[0].TaskRuntimes
		if len(fj.Stages) > 1 {
			red := fj.Stages[1]
			j.Reduces, j.runtimes[Reduce], j.reduceInputs = red.Tasks, red.TaskRuntimes, red.TaskData
		} else {
			j.runtimes[Reduce] = []float64{}
		}
		if math.IsNaN(j.Deadline) || len(j.runtimes[Map]) != j.M() {
			t.Fatalf("%s: not an RTMR job", fj.ID)
		}
		w.Jobs = append(w.Jobs, j)
	}
	return w
}
