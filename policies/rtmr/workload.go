package rtmr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

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

// WorkloadJob is a generated job with its hidden truth.
type WorkloadJob struct {
	Job
	Truth Truth `json:"truth"`
}

// Workload is a generated RTMR workload: a cluster and jobs in arrival order.
type Workload struct {
	Family       string        `json:"family"`
	Seed         uint64        `json:"seed"`
	RuntimeModel RuntimeModel  `json:"runtime_model"`
	Cluster      Cluster       `json:"cluster"`
	Jobs         []WorkloadJob `json:"jobs"`
}

// GenParams are the generator's knobs that the paper does not fix; DefaultGenParams
// documents the values used and why.
type GenParams struct {
	MeanInterArrival float64    // seconds (§V: 14)
	BlockMB          float64    // input per map task (Table II: 128 MB)
	MapCost          [2]float64 // per-job map cost, seconds/MB at speed 1, uniform in range
	ReduceCost       [2]float64 // per-job reduce cost, seconds/MB at speed 1
	Eta              [2]float64 // per-job true δ^r/δ
	NoiseLo          float64    // a task takes between NoiseLo and 1 × its job's worst case
	BeyondFactor     float64    // under Beyond the factor's upper end is this instead of 1
	TypeI, TypeII    Worker     // Table I's worker types
	NTypeI, NTypeII  int        // 20 and 10
}

// DefaultGenParams are the defaults of RTMRWorkload1 and RTMRWorkload2.
//
// Speeds from Table I. Both worker types run 2.2 GHz Opteron cores of the same generation,
// so a core computes equally fast on either; what differs is how many tasks share a node's
// memory controllers, disk and 1 Gbps link: a type I node runs 4 map tasks and a reduce on
// two dual-core sockets (two cores per memory controller), a type II node 2 map tasks and
// a reduce on two single-core sockets. Map tasks scan their 128 MB block and reduces merge
// and sort theirs, both memory-bound, so we run every slot of a type I node at 0.8 of the
// speed of a type II node (1). One speed per worker, as the simulator's Worker has. These
// speeds are our derivation, not the paper's measurements; GenParams can change them.
//
// Costs. The paper gives no task times. A 128 MB map task takes 128·[0.20, 0.30] s = 26–38
// s on a type II node (32–48 s on type I) — Loadgen on 2012 nodes reads, parses and writes
// its block — and reduces process [0.20, 0.30] s/MB of an intermediate volume of [0.2,
// 0.6] times the input. With these the 21-minute workload keeps the 100 map slots busy,
// which is the regime where admission control matters (the paper's RTMR rejects 43% of
// workload I). Each task's true time is its job's worst case times a factor uniform in
// [0.5, 1] (Within) or [0.5, 1.3] (Beyond).
func DefaultGenParams() GenParams {
	return GenParams{
		MeanInterArrival: 14,
		BlockMB:          128,
		MapCost:          [2]float64{0.20, 0.30},
		ReduceCost:       [2]float64{0.20, 0.30},
		Eta:              [2]float64{0.2, 0.6},
		NoiseLo:          0.5,
		BeyondFactor:     1.3,
		TypeI:            Worker{MapSlots: 4, ReduceSlots: 1, MapSpeed: 0.8, ReduceSpeed: 0.8},
		TypeII:           Worker{MapSlots: 2, ReduceSlots: 1, MapSpeed: 1, ReduceSpeed: 1},
		NTypeI:           20,
		NTypeII:          10,
	}
}

// bin is one row of Table III or IV: how many jobs, and ranges for maps, reduces and the
// relative deadline.
type bin struct {
	jobs          int
	maps, reduces [2]int
	deadline      [2]float64
}

// Table III, with Table II's job counts for its first six bins (38, 16, 14, 8, 6, 6: 88
// jobs, 88 × 14 s ≈ the paper's 21 minutes).
var workload1 = []bin{
	{38, [2]int{1, 1}, [2]int{1, 5}, [2]float64{200, 300}},
	{16, [2]int{2, 2}, [2]int{1, 5}, [2]float64{200, 300}},
	{14, [2]int{10, 10}, [2]int{5, 10}, [2]float64{300, 400}},
	{8, [2]int{50, 50}, [2]int{10, 20}, [2]float64{500, 800}},
	{6, [2]int{100, 100}, [2]int{20, 30}, [2]float64{1000, 1500}},
	{6, [2]int{200, 200}, [2]int{30, 30}, [2]float64{2000, 2500}},
}

// Table IV (89 jobs). Map counts are uniform within each bin's range.
var workload2 = []bin{
	{9, [2]int{1, 10}, [2]int{1, 5}, [2]float64{200, 300}},
	{24, [2]int{10, 50}, [2]int{5, 10}, [2]float64{300, 500}},
	{25, [2]int{50, 100}, [2]int{15, 30}, [2]float64{1000, 1500}},
	{18, [2]int{100, 200}, [2]int{25, 50}, [2]float64{1500, 2500}},
	{13, [2]int{200, 300}, [2]int{35, 70}, [2]float64{2500, 3500}},
}

// RTMRWorkload1 is workload I of rtmr.txt §V (Tables II–III) for seed and runtime model.
func RTMRWorkload1(seed uint64, rm RuntimeModel, p GenParams) (*Workload, error) {
	return generate("rtmr-1", workload1, seed, rm, p)
}

// RTMRWorkload2 is workload II of rtmr.txt §V (Table IV). Bins 4 and 5 have jobs with more
// reduce tasks than the cluster's 30 reduce slots, as in the paper; WithReducesAtMost
// drops them for the Deadline Constraint runs as §V does.
func RTMRWorkload2(seed uint64, rm RuntimeModel, p GenParams) (*Workload, error) {
	return generate("rtmr-2", workload2, seed, rm, p)
}

// Generate dispatches on family name: "rtmr-1" or "rtmr-2".
func Generate(family string, seed uint64, rm RuntimeModel) (*Workload, error) {
	switch family {
	case "rtmr-1":
		return RTMRWorkload1(seed, rm, DefaultGenParams())
	case "rtmr-2":
		return RTMRWorkload2(seed, rm, DefaultGenParams())
	}
	return nil, fmt.Errorf("family: unknown %q (want rtmr-1 or rtmr-2)", family)
}

func generate(family string, bins []bin, seed uint64, rm RuntimeModel, p GenParams) (*Workload, error) {
	hi := 1.0
	switch rm {
	case Within:
	case Beyond:
		hi = p.BeyondFactor
	default:
		return nil, fmt.Errorf("runtime_model: unknown %q (want within or beyond)", rm)
	}
	rng := rand.New(rand.NewPCG(seed, 0x72746d72)) // "rtmr"
	w := &Workload{Family: family, Seed: seed, RuntimeModel: rm}
	for range p.NTypeI {
		w.Cluster.Workers = append(w.Cluster.Workers, p.TypeI)
	}
	for range p.NTypeII {
		w.Cluster.Workers = append(w.Cluster.Workers, p.TypeII)
	}
	minMap, minRed := math.Inf(1), math.Inf(1)
	for _, wk := range w.Cluster.Workers {
		if wk.MapSlots > 0 {
			minMap = min(minMap, wk.MapSpeed)
		}
		if wk.ReduceSlots > 0 {
			minRed = min(minRed, wk.ReduceSpeed)
		}
	}
	var kinds []int // bin index per job, then shuffled: Zaharia's schedule mixes sizes
	for b, row := range bins {
		for range row.jobs {
			kinds = append(kinds, b)
		}
	}
	rng.Shuffle(len(kinds), func(i, k int) { kinds[i], kinds[k] = kinds[k], kinds[i] })
	uni := func(r [2]float64) float64 { return r[0] + (r[1]-r[0])*rng.Float64() }
	unii := func(r [2]int) int { return r[0] + rng.IntN(r[1]-r[0]+1) }
	t := 0.0
	for i, b := range kinds {
		if i > 0 {
			t += rng.ExpFloat64() * p.MeanInterArrival
		}
		row := bins[b]
		m := unii(row.maps)
		sizes := make([]float64, m)
		for k := range sizes {
			sizes[k] = p.BlockMB
		}
		tr := Truth{MapCost: uni(p.MapCost), ReduceCost: uni(p.ReduceCost), Eta: uni(p.Eta), NoiseLo: p.NoiseLo, NoiseHi: hi}
		j := WorkloadJob{
			Job: Job{
				ID:       fmt.Sprintf("j%03d", i),
				Arrival:  t,
				Deadline: math.Round(uni(row.deadline)),
				MapSizes: sizes,
				Reduces:  unii(row.reduces),
				// Worst case on the slowest slot with the factor at 1: a bound under Within.
				Est: &Estimates{Eta: tr.Eta, CmMax: tr.MapCost / minMap, CrMax: tr.ReduceCost / minRed},
			},
			Truth: tr,
		}
		w.Jobs = append(w.Jobs, j)
	}
	return w, nil
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
	h := splitmix(splitmix(splitmix(w.Seed^0x9e3779b97f4a7c15)+uint64(i)) + uint64(stage)<<32 + uint64(task))
	u := float64(h>>11) / (1 << 53)
	return tr.NoiseLo + (tr.NoiseHi-tr.NoiseLo)*u
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// ReduceInput is the true δ_task^r of job i.
func (w *Workload) ReduceInput(i, task int) float64 {
	j := &w.Jobs[i]
	return j.Truth.Eta * j.Input() * j.Share(task)
}

// TaskRuntime is the true execution time of a task of job i on a slot of the given speed.
func (w *Workload) TaskRuntime(i int, stage Stage, task int, speed float64) float64 {
	j := &w.Jobs[i]
	if stage == Map {
		return j.MapSizes[task] * j.Truth.MapCost / speed * w.factor(i, Map, task)
	}
	return w.ReduceInput(i, task) * j.Truth.ReduceCost / speed * w.factor(i, Reduce, task)
}
