package hadoop1

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// RTMRWorker is one worker type of rtmr.txt Table I: its map and reduce slots and how
// fast they run (a task takes its nominal time divided by the speed).
type RTMRWorker struct {
	MapSlots, ReduceSlots int
	MapSpeed, ReduceSpeed float64
}

// RTMRConfig are the knobs of RTMR's workload generator that the paper does not fix;
// DefaultRTMRConfig documents the values used and why.
type RTMRConfig struct {
	MeanInterArrival float64    // seconds (§V: 14)
	BlockMB          float64    // input per map task (Table II: 128 MB)
	MapCost          [2]float64 // per-job map cost, seconds/MB at speed 1, uniform in range
	ReduceCost       [2]float64 // per-job reduce cost, seconds/MB at speed 1
	Eta              [2]float64 // per-job true δ^r/δ
	NoiseLo          float64    // a task takes between NoiseLo and 1 × its job's worst case
	BeyondFactor     float64    // under "beyond" the factor's upper end is this instead of 1
	TypeI, TypeII    RTMRWorker // Table I's worker types
	NTypeI, NTypeII  int        // 20 and 10
}

// DefaultRTMRConfig is the configuration of the rtmr-1 and rtmr-2 families.
//
// Speeds from Table I. Both worker types run 2.2 GHz Opteron cores of the same generation,
// so a core computes equally fast on either; what differs is how many tasks share a node's
// memory controllers, disk and 1 Gbps link: a type I node runs 4 map tasks and a reduce on
// two dual-core sockets (two cores per memory controller), a type II node 2 map tasks and
// a reduce on two single-core sockets. Map tasks scan their 128 MB block and reduces merge
// and sort theirs, both memory-bound, so we run every slot of a type I node at 0.8 of the
// speed of a type II node (1). One speed per worker, as the simulator's Worker has. These
// speeds are our derivation, not the paper's measurements; RTMRConfig can change them.
//
// Costs. The paper gives no task times. A 128 MB map task takes 128·[0.20, 0.30] s = 26–38
// s on a type II node (32–48 s on type I) — Loadgen on 2012 nodes reads, parses and writes
// its block — and reduces process [0.20, 0.30] s/MB of an intermediate volume of [0.2,
// 0.6] times the input. With these the 21-minute workload keeps the 100 map slots busy,
// which is the regime where admission control matters (the paper's RTMR rejects 43% of
// workload I). Each task's true time is its job's worst case times a factor uniform in
// [0.5, 1] (Within) or [0.5, 1.3] (Beyond).
func DefaultRTMRConfig() RTMRConfig {
	return RTMRConfig{
		MeanInterArrival: 14,
		BlockMB:          128,
		MapCost:          [2]float64{0.20, 0.30},
		ReduceCost:       [2]float64{0.20, 0.30},
		Eta:              [2]float64{0.2, 0.6},
		NoiseLo:          0.5,
		BeyondFactor:     1.3,
		TypeI:            RTMRWorker{MapSlots: 4, ReduceSlots: 1, MapSpeed: 0.8, ReduceSpeed: 0.8},
		TypeII:           RTMRWorker{MapSlots: 2, ReduceSlots: 1, MapSpeed: 1, ReduceSpeed: 1},
		NTypeI:           20,
		NTypeII:          10,
	}
}

// RTMRBin is one row of Table III or IV: how many jobs, and the ranges (inclusive) of
// their map and reduce task counts and relative deadlines (seconds).
type RTMRBin struct {
	Jobs          int
	Maps, Reduces [2]int
	Deadline      [2]float64
}

// RTMRBins is the table of a family: Table III for "rtmr-1", Table IV for "rtmr-2";
// nil for another name. The slice is a copy.
func RTMRBins(family string) []RTMRBin {
	switch family {
	case "rtmr-1":
		return slices.Clone(workload1)
	case "rtmr-2":
		return slices.Clone(workload2)
	}
	return nil
}

// Table III, with Table II's job counts for its first six bins (38, 16, 14, 8, 6, 6: 88
// jobs, 88 × 14 s ≈ the paper's 21 minutes).
var workload1 = []RTMRBin{
	{38, [2]int{1, 1}, [2]int{1, 5}, [2]float64{200, 300}},
	{16, [2]int{2, 2}, [2]int{1, 5}, [2]float64{200, 300}},
	{14, [2]int{10, 10}, [2]int{5, 10}, [2]float64{300, 400}},
	{8, [2]int{50, 50}, [2]int{10, 20}, [2]float64{500, 800}},
	{6, [2]int{100, 100}, [2]int{20, 30}, [2]float64{1000, 1500}},
	{6, [2]int{200, 200}, [2]int{30, 30}, [2]float64{2000, 2500}},
}

// Table IV (89 jobs). Map counts are uniform within each bin's range.
var workload2 = []RTMRBin{
	{9, [2]int{1, 10}, [2]int{1, 5}, [2]float64{200, 300}},
	{24, [2]int{10, 50}, [2]int{5, 10}, [2]float64{300, 500}},
	{25, [2]int{50, 100}, [2]int{15, 30}, [2]float64{1000, 1500}},
	{18, [2]int{100, 200}, [2]int{25, 50}, [2]float64{1500, 2500}},
	{13, [2]int{200, 300}, [2]int{35, 70}, [2]float64{2500, 3500}},
}

// rtmrJob is a generated job: what the scheduler is told (arrival, relative deadline,
// map inputs, reduce count, worst-case estimates) and its hidden truth: per-unit costs on
// a slot of speed 1, the true intermediate-data ratio and the range of the per-task
// factor.
type rtmrJob struct {
	id                  string
	arrival, deadline   float64
	mapSizes            []float64
	reduces             int
	eta                 float64 // δ^r/δ, declared and true
	cmMax, crMax        float64 // the declared worst-case costs
	mapCost, reduceCost float64 // the true costs, seconds per MB at speed 1
	noiseLo, noiseHi    float64 // per-task factor drawn from [noiseLo, noiseHi]
}

// RTMRWorkload generates workload I ("rtmr-1", Tables II–III) or II ("rtmr-2", Table
// IV) of rtmr.txt §V for seed under the runtime model: "within" (every task's true time
// at most its estimate, the Appendix's assumption) or "beyond" (up to cfg.BeyondFactor
// times that, so the guarantee no longer holds). Workload II's bins 4 and 5 have jobs
// with more reduce tasks than the cluster's 30 reduce slots, as in the paper;
// WithReducesAtMost drops them for the Deadline Constraint runs as §V does.
//
// The file has one worker per RTMR worker (a worker's map and reduce speeds must be
// equal: the simulator has one speed per worker), a map stage with the true per-task
// inputs (task_data) and true task times at speed 1, a reduce stage with its true
// inputs and times, the job's declared worst-case estimates, and a step utility worth 1
// by the deadline.
func RTMRWorkload(family string, seed uint64, model string, cfg RTMRConfig) (*workload.Workload, error) {
	bins := RTMRBins(family)
	if bins == nil {
		return nil, fmt.Errorf("hadoop1: unknown RTMR family %q (want rtmr-1 or rtmr-2)", family)
	}
	hi := 1.0
	switch model {
	case "within":
	case "beyond":
		hi = cfg.BeyondFactor
	default:
		return nil, fmt.Errorf("hadoop1: runtime model %q: want within or beyond", model)
	}
	rng := rand.New(rand.NewPCG(seed, 0x72746d72)) // "rtmr"
	var workers []RTMRWorker
	for range cfg.NTypeI {
		workers = append(workers, cfg.TypeI)
	}
	for range cfg.NTypeII {
		workers = append(workers, cfg.TypeII)
	}
	minMap, minRed := math.Inf(1), math.Inf(1)
	for _, wk := range workers {
		if wk.MapSlots > 0 {
			minMap = min(minMap, wk.MapSpeed)
		}
		if wk.ReduceSlots > 0 {
			minRed = min(minRed, wk.ReduceSpeed)
		}
	}
	var kinds []int // bin index per job, then shuffled: Zaharia's schedule mixes sizes
	for b, row := range bins {
		for range row.Jobs {
			kinds = append(kinds, b)
		}
	}
	rng.Shuffle(len(kinds), func(i, k int) { kinds[i], kinds[k] = kinds[k], kinds[i] })
	uni := func(r [2]float64) float64 { return r[0] + (r[1]-r[0])*rng.Float64() }
	unii := func(r [2]int) int { return r[0] + rng.IntN(r[1]-r[0]+1) }
	var jobs []rtmrJob
	t := 0.0
	for i, b := range kinds {
		if i > 0 {
			t += rng.ExpFloat64() * cfg.MeanInterArrival
		}
		row := bins[b]
		m := unii(row.Maps)
		sizes := make([]float64, m)
		for k := range sizes {
			sizes[k] = cfg.BlockMB
		}
		mapCost, reduceCost, eta := uni(cfg.MapCost), uni(cfg.ReduceCost), uni(cfg.Eta)
		deadline := math.Round(uni(row.Deadline))
		reduces := unii(row.Reduces)
		jobs = append(jobs, rtmrJob{id: fmt.Sprintf("j%03d", i), arrival: t, deadline: deadline, mapSizes: sizes, reduces: reduces,
			// Worst case on the slowest slot with the factor at 1: a bound under "within".
			eta: eta, cmMax: mapCost / minMap, crMax: reduceCost / minRed,
			mapCost: mapCost, reduceCost: reduceCost, noiseLo: cfg.NoiseLo, noiseHi: hi})
	}
	return rtmrFile(fmt.Sprintf("%s-seed%d-%s", family, seed, model), seed, workers, jobs)
}

// rtmrFile writes generated jobs as a workload file.
func rtmrFile(name string, seed uint64, workers []RTMRWorker, jobs []rtmrJob) (*workload.Workload, error) {
	w := &workload.Workload{Name: name, TimeUnit: 1}
	for k, wk := range workers {
		if wk.MapSpeed != wk.ReduceSpeed {
			return nil, fmt.Errorf("hadoop1: RTMR worker %d: map speed %g differs from reduce speed %g", k, wk.MapSpeed, wk.ReduceSpeed)
		}
		w.Cluster.Workers = append(w.Cluster.Workers, workload.Worker{Count: 1, Speed: wk.MapSpeed,
			Slots: map[string]int{"map": wk.MapSlots, "reduce": wk.ReduceSlots}})
	}
	for i, rj := range jobs {
		j := workload.Job{ID: rj.id, Arrival: rj.arrival, Priority: 1, Deadline: rj.deadline,
			Utility:   sched.Step{Value: 1, Deadline: rj.deadline},
			Estimates: &workload.Estimates{Eta: rj.eta, CmMax: rj.cmMax, CrMax: rj.crMax}}
		maps := workload.Stage{Pool: "map", Tasks: len(rj.mapSizes), TaskData: rj.mapSizes}
		for k := range rj.mapSizes {
			maps.TaskRuntimes = append(maps.TaskRuntimes, rj.mapSizes[k]*rj.mapCost/1*rtmrFactor(seed, i, 0, k, rj))
		}
		j.Stages = append(j.Stages, maps)
		if rj.reduces > 0 {
			red := workload.Stage{Pool: "reduce", Tasks: rj.reduces}
			for k := range rj.reduces {
				in := rj.reduceInput()
				red.TaskRuntimes = append(red.TaskRuntimes, in*rj.reduceCost/1*rtmrFactor(seed, i, 1, k, rj))
				red.TaskData = append(red.TaskData, in)
			}
			j.Stages = append(j.Stages, red)
		}
		w.Jobs = append(w.Jobs, j)
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

// reduceInput is a reduce task's true input δ_i^r: every reduce task of a generated job
// receives an equal share of the true intermediate data η·δ.
func (j *rtmrJob) reduceInput() float64 {
	input := 0.0
	for _, d := range j.mapSizes {
		input += d
	}
	return j.eta * input * (1 / float64(j.reduces))
}

// rtmrFactor is the per-task runtime factor of task (stage 0 map, 1 reduce; task) of
// job i, in [noiseLo, noiseHi).
func rtmrFactor(seed uint64, i, stage, task int, j rtmrJob) float64 {
	return j.noiseLo + (j.noiseHi-j.noiseLo)*RTMRTaskNoise(seed, i, stage, task)
}

// RTMRTaskNoise is the uniform draw in [0, 1) behind the true time of task task of
// stage stage (0 map, 1 reduce) of job job: a pure function of its arguments, so every
// policy sees the same runtimes (common random numbers) and adding a job changes
// nobody else's.
func RTMRTaskNoise(seed uint64, job, stage, task int) float64 {
	h := splitmix(splitmix(splitmix(seed^0x9e3779b97f4a7c15)+uint64(job)) + uint64(stage)<<32 + uint64(task))
	return float64(h>>11) / (1 << 53)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// WithReducesAtMost is w without the jobs whose reduce stage has more than q tasks
// (§V leaves them out of workload II when it runs the Deadline Constraint scheduler).
func WithReducesAtMost(w *workload.Workload, q int) *workload.Workload {
	out := *w
	out.Jobs = slices.DeleteFunc(slices.Clone(w.Jobs), func(j workload.Job) bool {
		return len(j.Stages) > 1 && j.Stages[len(j.Stages)-1].Tasks > q
	})
	return &out
}

// RTMRFamily generates workload I ("rtmr-1") or II ("rtmr-2") with the given runtime
// model ("within": true task times within the estimates; "beyond": up to
// DefaultRTMRConfig().BeyondFactor = 1.3× them).
func RTMRFamily(family string, seed uint64, model string) (*workload.Workload, error) {
	return RTMRWorkload(family, seed, model, DefaultRTMRConfig())
}

// RTMRFamilyBeyond is RTMRFamily with true task times up to factor × the estimates under
// "beyond" (factor ≥ 1).
func RTMRFamilyBeyond(family string, seed uint64, model string, factor float64) (*workload.Workload, error) {
	if !(factor >= 1) || factor > 100 {
		return nil, fmt.Errorf("hadoop1: beyond factor %g: want a number in [1, 100]", factor)
	}
	cfg := DefaultRTMRConfig()
	cfg.BeyondFactor = factor
	return RTMRWorkload(family, seed, model, cfg)
}
