package hadoop1

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// WorkflowJob is one wjob J_i^j of woha.txt §II: m_i^j map tasks and r_i^j reduce
// tasks whose estimated per-task durations M_i^j and R_i^j (§IV-A) drive the plan. After
// names the prerequisite set P_i^j by job ID within the same workflow.
type WorkflowJob struct {
	ID         string
	Maps       int
	Reduces    int
	MapTime    float64 // estimated seconds per map task (M_i^j)
	ReduceTime float64 // estimated seconds per reduce task (R_i^j)
	After      []string
}

// Workflow is W_i = {J_i, P_i, S_i, D_i} of woha.txt §II, as WOHA's planner
// (policies/woha) reads it. Arrival is the submission time S_i and Deadline the relative
// deadline D_i − S_i (§V-A states deadlines this way), both in seconds.
type Workflow struct {
	ID       string
	Arrival  float64
	Deadline float64
	Jobs     []WorkflowJob
}

// AbsDeadline is D_i.
func (w *Workflow) AbsDeadline() float64 { return w.Arrival + w.Deadline }

// Tasks is Σ_j (m_i^j + r_i^j).
func (w *Workflow) Tasks() int {
	n := 0
	for _, j := range w.Jobs {
		n += j.Maps + j.Reduces
	}
	return n
}

// WOHAConfig shapes the random workflows Generate draws.
type WOHAConfig struct {
	Workflows        int     // how many
	LayersMin        int     // jobs are arranged in LayersMin..LayersMax layers
	LayersMax        int     //
	WidthMax         int     // 1..WidthMax jobs per layer
	ExtraEdgeProb    float64 // chance of each extra edge to any earlier layer
	MeanInterarrival float64 // seconds between submissions (exponential)
	Slots            int     // cluster slots (map + reduce) the deadlines are scaled to
	SlackMin         float64 // relative deadline = slack × lower bound on the workspan,
	SlackMax         float64 // slack uniform in [SlackMin, SlackMax]
	MaxMaps          int     // cap on map tasks per job
}

// DefaultWOHAConfig is a small cluster's day: 20 workflows of 2-6 layers, one every 5
// minutes on average, on the paper's 32 workers × (2 map + 1 reduce) slots (§VI-A).
func DefaultWOHAConfig() WOHAConfig {
	return WOHAConfig{Workflows: 20, LayersMin: 2, LayersMax: 6, WidthMax: 4, ExtraEdgeProb: 0.2,
		MeanInterarrival: 300, Slots: 96, SlackMin: 1.5, SlackMax: 3, MaxMaps: 2000}
}

func (c WOHAConfig) validate() error {
	switch {
	case c.Workflows < 0:
		return fmt.Errorf("hadoop1: WOHAConfig.Workflows must be >= 0, got %d", c.Workflows)
	case c.LayersMin < 1 || c.LayersMax < c.LayersMin:
		return fmt.Errorf("hadoop1: WOHAConfig layers must satisfy 1 <= LayersMin <= LayersMax, got %d, %d", c.LayersMin, c.LayersMax)
	case c.WidthMax < 1:
		return fmt.Errorf("hadoop1: WOHAConfig.WidthMax must be >= 1, got %d", c.WidthMax)
	case !(c.ExtraEdgeProb >= 0 && c.ExtraEdgeProb <= 1):
		return fmt.Errorf("hadoop1: WOHAConfig.ExtraEdgeProb must be in [0, 1], got %v", c.ExtraEdgeProb)
	case !(c.MeanInterarrival >= 0) || math.IsInf(c.MeanInterarrival, 0):
		return fmt.Errorf("hadoop1: WOHAConfig.MeanInterarrival must be a finite number >= 0, got %v", c.MeanInterarrival)
	case c.Slots < 1:
		return fmt.Errorf("hadoop1: WOHAConfig.Slots must be >= 1, got %d", c.Slots)
	case !(c.SlackMin > 0) || !(c.SlackMax >= c.SlackMin) || math.IsInf(c.SlackMax, 0):
		return fmt.Errorf("hadoop1: WOHAConfig slack must satisfy 0 < SlackMin <= SlackMax < inf, got %v, %v", c.SlackMin, c.SlackMax)
	case c.MaxMaps < 1:
		return fmt.Errorf("hadoop1: WOHAConfig.MaxMaps must be >= 1, got %d", c.MaxMaps)
	}
	return nil
}

// GenerateWOHA draws cfg.Workflows random layered DAGs, the same ones for the same seed.
// Task statistics follow the Yahoo! trace as woha.txt §V-A describes it (Figs. 5, 6):
//
//   - map task time log-normal, median 30 s, 80% within 10-100 s;
//   - reduce task time log-normal, median 150 s: about 60% above 100 s, 10% above 1,000 s;
//   - maps per job log-normal, median 40: about 30% of jobs above 100;
//   - reduces per job log-normal, median 5 (about 70% below 10), never more than the
//     job's maps, and 10% of jobs map-only.
//
// Each job below the first layer waits for one random job of the layer above and, with
// probability ExtraEdgeProb each, for any job of an earlier layer. Submissions form a
// Poisson process; a workflow's relative deadline is a random slack times a lower bound
// on its workspan, max(critical path, work / Slots).
func GenerateWOHA(seed uint64, cfg WOHAConfig) ([]Workflow, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x776f6861)) // "woha"
	ws := make([]Workflow, cfg.Workflows)
	at := 0.0
	for i := range ws {
		if i > 0 && cfg.MeanInterarrival > 0 {
			at += rng.ExpFloat64() * cfg.MeanInterarrival
		}
		widths := make([]int, cfg.LayersMin+rng.IntN(cfg.LayersMax-cfg.LayersMin+1))
		for l := range widths {
			widths[l] = 1 + rng.IntN(cfg.WidthMax)
		}
		ws[i] = drawWorkflow(rng, cfg, fmt.Sprintf("wf%03d", i), math.Round(at), widths)
	}
	return ws, nil
}

// drawWorkflow draws the jobs of one layered DAG with the given layer widths.
func drawWorkflow(rng *rand.Rand, cfg WOHAConfig, id string, arrival float64, widths []int) Workflow {
	logNormal := func(median, sigma float64) float64 {
		return median * math.Exp(sigma*rng.NormFloat64())
	}
	w := Workflow{ID: id, Arrival: arrival}
	var prev [][]string // job IDs by layer
	for l, width := range widths {
		var ids []string
		for k := 0; k < width; k++ {
			maps := min(cfg.MaxMaps, max(1, int(math.Round(logNormal(40, 1.75)))))
			reduces := 0
			if rng.Float64() >= 0.1 {
				reduces = min(maps, max(1, int(math.Round(logNormal(5, 1.2)))))
			}
			job := WorkflowJob{
				ID:         fmt.Sprintf("j%02d", len(w.Jobs)),
				Maps:       maps,
				Reduces:    reduces,
				MapTime:    math.Max(1, math.Round(logNormal(30, 0.9))),
				ReduceTime: math.Max(1, math.Round(logNormal(150, 1.48))),
			}
			if l > 0 {
				above := prev[l-1]
				first := above[rng.IntN(len(above))]
				job.After = append(job.After, first)
				for _, layer := range prev {
					for _, pid := range layer {
						if pid != first && rng.Float64() < cfg.ExtraEdgeProb {
							job.After = append(job.After, pid)
						}
					}
				}
			}
			ids = append(ids, job.ID)
			w.Jobs = append(w.Jobs, job)
		}
		prev = append(prev, ids)
	}
	slack := cfg.SlackMin + rng.Float64()*(cfg.SlackMax-cfg.SlackMin)
	w.Deadline = math.Ceil(slack * workspanLowerBound(&w, cfg.Slots))
	return w
}

// workspanLowerBound is max(critical path, total work / slots): no schedule on slots
// slots finishes w sooner.
func workspanLowerBound(w *Workflow, slots int) float64 {
	path, work := criticalPathAndWork(w)
	return math.Max(path, work/float64(slots))
}

// criticalPathAndWork is the longest chain of job durations (map time if the job has
// maps, plus reduce time if it has reduces) and the total task-seconds.
func criticalPathAndWork(w *Workflow) (path, work float64) {
	topo, dependents := topoOrder(w)
	chain := make([]float64, len(w.Jobs))
	for k := len(topo) - 1; k >= 0; k-- {
		j := topo[k]
		job := &w.Jobs[j]
		own := 0.0
		if job.Maps > 0 {
			own += job.MapTime
		}
		if job.Reduces > 0 {
			own += job.ReduceTime
		}
		best := 0.0
		for _, c := range dependents[j] {
			best = math.Max(best, chain[c])
		}
		chain[j] = own + best
		path = math.Max(path, chain[j])
		work += float64(job.Maps)*job.MapTime + float64(job.Reduces)*job.ReduceTime
	}
	return path, work
}

// Fig2 is woha.txt Fig. 2 reconstructed (the paper draws the topology; this one matches
// its text): three copies of "a (6 maps, 3 reduces) then b (3 maps)" with unit task
// times, submitted at 0 with D = 9, 9, 50, for a cluster of 3 map + 3 reduce slots. On 6
// slots one copy takes 3 time units, so a cap-6 plan asks for nothing before time 6 and
// W1 or W2 misses; the searched cap is 2 for W1 and W2 and all three meet (see
// TestFig2ResourceCap).
func Fig2() []Workflow {
	mk := func(id string, d float64) Workflow {
		return Workflow{ID: id, Deadline: d, Jobs: []WorkflowJob{
			{ID: "a", Maps: 6, Reduces: 3, MapTime: 1, ReduceTime: 1},
			{ID: "b", Maps: 3, MapTime: 1, After: []string{"a"}},
		}}
	}
	return []Workflow{mk("W1", 9), mk("W2", 9), mk("W3", 50)}
}

// ThreeWorkflows is the setup of woha.txt §V-A/§VI-A: three copies of one 33-job
// topology submitted at 0, 5 and 10 minutes with relative deadlines of 80, 70 and 60
// minutes, for 32 workers × (2 map + 1 reduce) slots. The paper's Fig. 7 topology is a
// drawing we do not have, so the topology is a random DAG of 33 jobs in 8 layers
// (seeded) with the task statistics of GenerateWOHA, then rescaled so that the experiment
// is contended but feasible as the paper's is: task times shrink (never grow) until the
// critical path is at most 30 minutes, and task counts scale until the three copies
// together need 75% of the cluster's 96 slots over the 70 minutes from the first
// submission to the last deadline.
func ThreeWorkflows(seed uint64) []Workflow {
	const (
		slots       = 96
		window      = 70 * 60.0
		utilization = 0.75
		maxPath     = 30 * 60.0
	)
	rng := rand.New(rand.NewPCG(seed, 0x33776f6861))
	widths := []int{1, 1, 1, 1, 1, 1, 1, 1}
	for k := 8; k < 33; k++ {
		l := rng.IntN(len(widths))
		for widths[l] == 6 {
			l = (l + 1) % len(widths)
		}
		widths[l]++
	}
	w := drawWorkflow(rng, DefaultWOHAConfig(), "W", 0, widths)
	path, work := criticalPathAndWork(&w)
	timeScale := math.Min(1, maxPath/path)
	countScale := utilization * slots * window / 3 / (work * timeScale)
	for j := range w.Jobs {
		job := &w.Jobs[j]
		job.MapTime = math.Max(1, math.Round(job.MapTime*timeScale))
		job.ReduceTime = math.Max(1, math.Round(job.ReduceTime*timeScale))
		hadReduces := job.Reduces > 0
		job.Maps = max(1, int(math.Round(float64(job.Maps)*countScale)))
		job.Reduces = min(job.Maps, int(math.Round(float64(job.Reduces)*countScale)))
		if hadReduces && job.Reduces == 0 {
			job.Reduces = 1
		}
	}
	out := make([]Workflow, 3)
	for i := range out {
		jobs := make([]WorkflowJob, len(w.Jobs))
		for j, job := range w.Jobs {
			job.After = append([]string(nil), job.After...)
			jobs[j] = job
		}
		out[i] = Workflow{ID: fmt.Sprintf("W%d", i+1), Arrival: float64(300 * i),
			Deadline: float64(60 * (80 - 10*i)), Jobs: jobs}
	}
	return out
}

// topoOrder is the jobs of w with prerequisites first, and each job's dependents (the
// workflows here are acyclic by construction). Any topological order gives the same
// critical path and work: both are exact sums of whole seconds.
func topoOrder(w *Workflow) (topo []int, dependents [][]int) {
	n := len(w.Jobs)
	index := make(map[string]int, n)
	for j := range w.Jobs {
		index[w.Jobs[j].ID] = j
	}
	dependents = make([][]int, n)
	indeg := make([]int, n)
	for j := range w.Jobs {
		for _, pre := range w.Jobs[j].After {
			k := index[pre]
			dependents[k] = append(dependents[k], j)
			indeg[j]++
		}
	}
	for j := range n {
		if indeg[j] == 0 {
			topo = append(topo, j)
		}
	}
	for h := 0; h < len(topo); h++ {
		for _, k := range dependents[topo[h]] {
			if indeg[k]--; indeg[k] == 0 {
				topo = append(topo, k)
			}
		}
	}
	return topo, dependents
}

// TruthModel says how a WOHA task's true runtime relates to its job's estimate.
type TruthModel int

const (
	// Exact: every task takes exactly its estimate (Fig. 2, the three-workflow
	// experiment: the paper's comparison is about scheduling, not estimation).
	Exact TruthModel = iota
	// Noisy: a task takes U[0.8, 1.2] × its estimate, drawn per task from the
	// simulation seed (plans are built from estimates; true runtimes differ, §IV-A).
	Noisy
)

// FromWOHA writes WOHA workflows as a workload on the given cluster. Each job becomes
// a workload job with id "<workflow>/<job>", a map stage and (when it has reduces) a
// reduce stage, its estimates as estimates.map_time/reduce_time, the workflow's
// submission time as arrival and a step utility worth 1 until the workflow's deadline.
func FromWOHA(name string, ws []Workflow, cluster workload.Cluster, truth TruthModel) (*workload.Workload, error) {
	w := &workload.Workload{Name: name, TimeUnit: 1, Cluster: cluster}
	rt := func(est float64) *workload.Runtime {
		if truth == Noisy {
			return &workload.Runtime{Type: "uniform", Min: 0.8 * est, Max: 1.2 * est}
		}
		return &workload.Runtime{Type: "fixed", Value: est}
	}
	for _, wf := range ws {
		w.Workflows = append(w.Workflows, workload.Workflow{ID: wf.ID, Arrival: wf.Arrival, Deadline: wf.Deadline})
		for _, job := range wf.Jobs {
			j := workload.Job{ID: wf.ID + "/" + job.ID, Arrival: wf.Arrival, Priority: 1, Deadline: wf.Deadline,
				Utility: sched.Step{Value: 1, Deadline: wf.Deadline}, Workflow: wf.ID,
				Estimates: &workload.Estimates{MapTime: job.MapTime, ReduceTime: job.ReduceTime}}
			for _, a := range job.After {
				j.After = append(j.After, wf.ID+"/"+a)
			}
			if job.Maps > 0 {
				j.Stages = append(j.Stages, workload.Stage{Pool: "map", Tasks: job.Maps, Runtime: rt(job.MapTime)})
			}
			if job.Reduces > 0 {
				j.Stages = append(j.Stages, workload.Stage{Pool: "reduce", Tasks: job.Reduces, Runtime: rt(job.ReduceTime)})
			}
			if len(j.Stages) == 0 {
				return nil, fmt.Errorf("hadoop1: workflow %q job %q has no tasks", wf.ID, job.ID)
			}
			w.Jobs = append(w.Jobs, j)
		}
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

// WOHACluster is the paper's cluster: workers × (2 map + 1 reduce) slots (§VI-A: 32).
func WOHACluster(workers int) workload.Cluster {
	return workload.Cluster{Workers: []workload.Worker{{Count: workers, Slots: map[string]int{"map": 2, "reduce": 1}, Speed: 1}}}
}

// WOHAFamily generates one of the WOHA families:
//
//	woha       n random workflows (GenerateWOHA, default config, seed), 32 × (2 + 1)
//	           slots, true task times U[0.8, 1.2] × estimate
//	woha-fig2  Fig. 2 (Fig2): 3 map + 3 reduce slots, exact task times
//	woha-3wf   the three-workflow experiment (ThreeWorkflows(seed)), 32 × (2 + 1)
//	           slots, exact task times
func WOHAFamily(family string, n int, seed uint64) (*workload.Workload, error) {
	switch family {
	case "woha":
		cfg := DefaultWOHAConfig()
		cfg.Workflows = n
		ws, err := GenerateWOHA(seed, cfg)
		if err != nil {
			return nil, err
		}
		return FromWOHA(fmt.Sprintf("woha-%d-seed%d", n, seed), ws, WOHACluster(cfg.Slots/3), Noisy)
	case "woha-fig2":
		cl := workload.Cluster{Pools: []workload.Pool{{Name: "map", Slots: 3}, {Name: "reduce", Slots: 3}}}
		return FromWOHA("woha-fig2", Fig2(), cl, Exact)
	case "woha-3wf":
		return FromWOHA(fmt.Sprintf("woha-3wf-seed%d", seed), ThreeWorkflows(seed), WOHACluster(32), Exact)
	}
	return nil, fmt.Errorf("hadoop1: unknown WOHA family %q", family)
}
