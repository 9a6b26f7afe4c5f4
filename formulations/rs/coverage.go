package rs

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// CoverageConfig describes the robustness experiment of rush.txt §V-A (Fig. 3): a job of
// Tasks tasks whose runtimes are N(TaskMean, TaskStd²) slots, so its true total demand
// v is the sum of the Tasks runtimes; the empirical (Gaussian) estimator sees k task
// runtimes, WCDE turns its reference into η at (θ, δ), and the experiment measures how
// often η ≥ v.
type CoverageConfig struct {
	Theta  float64
	Ks     []int     // sample counts k, each in [2, Tasks]
	Deltas []float64 // KL budgets δ ≥ 0
	Reps   int       // repetitions per (k, δ); all cells share them (common random numbers)
	Seed   uint64
	Tasks  int
	// TaskMean and TaskStd are the true per-task runtime distribution (slots). Runtimes
	// are Gaussian as in the paper, not truncated at 0 (P(runtime < 0) = 0.13% at 60 ± 20),
	// so that the true distribution of v is exactly N(Tasks·μ, Tasks·σ²).
	TaskMean, TaskStd float64
	// Bins and Width quantize the references (see Quantization); Width 1 gives one bin
	// per container-slot.
	Bins  int
	Width float64
	// Independent draws the k samples from a separate run of the job (history); otherwise
	// they are the runtimes of the job's own first k tasks, which are part of v (the
	// paper's setting: the estimator learns from the job's completed tasks).
	Independent bool
	// Progress, when set, is called after each repetition with the number done.
	Progress func(done int) `json:"-"`
}

// DefaultCoverageConfig is the paper's experiment: 100 tasks of 60 ± 20 slots, θ = 0.9
// (§V-A does not state θ; 0.9 is the usual choice and the one the task asks for), k and
// δ on Fig. 3's range, 2000 repetitions, unit-width bins.
func DefaultCoverageConfig() CoverageConfig {
	return CoverageConfig{
		Theta:    0.9,
		Ks:       []int{5, 10, 15, 25, 35, 50, 75, 100},
		Deltas:   []float64{0, 0.1, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0},
		Reps:     2000,
		Seed:     1,
		Tasks:    100,
		TaskMean: 60,
		TaskStd:  20,
		Width:    1,
	}
}

// CoverageCell is one (k, δ) point of the experiment.
type CoverageCell struct {
	K     int     `json:"k"`
	Delta float64 `json:"delta"`
	// Coverage is the fraction of repetitions with v ≤ η; StdErr its binomial standard
	// error √(c(1−c)/reps).
	Coverage float64 `json:"coverage"`
	StdErr   float64 `json:"std_err"`
	// CondCoverage is the mean over repetitions of P(v ≤ η | the samples seen), computed
	// exactly from the known true distribution: the same expectation as Coverage with
	// less noise; CondStdErr is its standard error. Guaranteed is the fraction of repetitions in which that conditional
	// probability is ≥ θ (the estimate is a valid θ-quantile for that run).
	CondCoverage float64 `json:"cond_coverage"`
	CondStdErr   float64 `json:"cond_std_err"`
	Guaranteed   float64 `json:"guaranteed"`
	// Model is the coverage predicted in closed form (see Coverage).
	Model   float64 `json:"model"`
	MeanEta float64 `json:"mean_eta"`
	// SupportEdge counts repetitions whose η was the top of the quantized range.
	SupportEdge int `json:"support_edge"`
}

// CoverageResult is the experiment's table, Cells[i][j] for Ks[i] and Deltas[j], and the
// paper's claims checked against it.
type CoverageResult struct {
	Config CoverageConfig
	// TrueMean and TrueStd are those of v: Tasks·μ and √Tasks·σ.
	TrueMean, TrueStd float64
	Cells             [][]CoverageCell
	Claims            []Claim
}

// Claim is one statement of the paper checked against the table.
type Claim struct {
	Name string `json:"name"`
	// Statement is the paper's claim in words.
	Statement string `json:"statement"`
	// Holds says whether the table bears it out (point estimates against θ); Checked is
	// false when the grid has no cell the claim speaks about.
	Holds   bool `json:"holds"`
	Checked bool `json:"checked"`
	// Detail gives the decisive cell with its standard error.
	Detail string `json:"detail"`
}

// Coverage runs the experiment. Each repetition draws the Tasks true runtimes (and, with
// Independent, Tasks more for the estimator) from a PCG stream seeded by (Seed, rep), so
// the result depends only on the configuration; every cell uses the same repetitions,
// which makes Coverage exactly non-decreasing in δ for each k (WCDE's η is).
//
// The closed-form Model: with x̄ and s the sample mean and standard deviation of k
// samples and N tasks, η ≈ N·x̄ + √N·s·z*, z* the standard normal quantile of
// WorstCaseTail(θ, δ), and v − N·x̄ is Gaussian and independent of s, so
//
//	P(v ≤ η) = F_{t,k−1}(z*·c),  c = 1/√(1 + N/k)   (Independent)
//	                             c = √(k/(N−k))     (the job's own first k tasks; 1 at k = N)
//
// where F_{t,k−1} is Student's t distribution with k−1 degrees of freedom. Rounding η
// up to a bin edge is not in the model and can only raise the measured coverage.
func Coverage(ctx context.Context, cfg CoverageConfig) (*CoverageResult, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	N := float64(cfg.Tasks)
	res := &CoverageResult{Config: cfg, TrueMean: N * cfg.TaskMean, TrueStd: math.Sqrt(N) * cfg.TaskStd}
	maxDelta := slices.Max(cfg.Deltas)
	q := Quantization{Bins: cfg.Bins, Width: cfg.Width, Theta: cfg.Theta, MaxDelta: maxDelta}
	nk, nd := len(cfg.Ks), len(cfg.Deltas)
	covered := make([]int, nk*nd)
	guaranteed := make([]int, nk*nd)
	edge := make([]int, nk*nd)
	cond := make([]float64, nk*nd)
	cond2 := make([]float64, nk*nd)
	etaSum := make([]float64, nk*nd)
	truth := make([]float64, cfg.Tasks)
	var history []float64
	if cfg.Independent {
		history = make([]float64, cfg.Tasks)
	}
	for rep := range cfg.Reps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(rep)))
		v := 0.0
		for i := range truth {
			truth[i] = cfg.TaskMean + cfg.TaskStd*rng.NormFloat64()
			v += truth[i]
		}
		samples := truth
		if cfg.Independent {
			for i := range history {
				history[i] = cfg.TaskMean + cfg.TaskStd*rng.NormFloat64()
			}
			samples = history
		}
		for i, k := range cfg.Ks {
			ref, err := Empirical(samples[:k], cfg.Tasks, q)
			if err != nil {
				return nil, fmt.Errorf("rep %d, k %d: %w", rep, k, err)
			}
			// P(v ≤ x | what the estimator saw): the unseen part of v is Gaussian.
			seenSum, unseen := 0.0, cfg.Tasks
			if !cfg.Independent {
				for _, x := range samples[:k] {
					seenSum += x
				}
				unseen = cfg.Tasks - k
			}
			condCDF := func(x float64) float64 {
				if unseen == 0 {
					if v <= x {
						return 1
					}
					return 0
				}
				m := seenSum + float64(unseen)*cfg.TaskMean
				s := math.Sqrt(float64(unseen)) * cfg.TaskStd
				return 0.5 * math.Erfc(-(x-m)/(s*math.Sqrt2))
			}
			for j, d := range cfg.Deltas {
				e, err := WorstCaseDemand(ref.PMF, cfg.Theta, d)
				if err != nil {
					return nil, err
				}
				c := i*nd + j
				eta := float64(e.Eta)
				if v <= eta {
					covered[c]++
				}
				p := condCDF(eta)
				cond[c] += p
				cond2[c] += p * p
				if p >= cfg.Theta {
					guaranteed[c]++
				}
				if e.SupportEdge {
					edge[c]++
				}
				etaSum[c] += eta
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(rep + 1)
		}
	}
	reps := float64(cfg.Reps)
	res.Cells = make([][]CoverageCell, nk)
	for i, k := range cfg.Ks {
		res.Cells[i] = make([]CoverageCell, nd)
		for j, d := range cfg.Deltas {
			c := i*nd + j
			cov := float64(covered[c]) / reps
			cm := cond[c] / reps
			cv := math.Max(cond2[c]/reps-cm*cm, 0) * reps / math.Max(reps-1, 1)
			model, err := coverageModel(cfg, k, d)
			if err != nil {
				return nil, err
			}
			res.Cells[i][j] = CoverageCell{
				K: k, Delta: d,
				Coverage:     cov,
				StdErr:       math.Sqrt(cov * (1 - cov) / reps),
				CondCoverage: cm,
				CondStdErr:   math.Sqrt(cv / reps),
				Guaranteed:   float64(guaranteed[c]) / reps,
				Model:        model,
				MeanEta:      etaSum[c] / reps,
				SupportEdge:  edge[c],
			}
		}
	}
	res.Claims = res.checkClaims()
	return res, nil
}

// coverageModel is the closed-form coverage described on Coverage.
func coverageModel(cfg CoverageConfig, k int, delta float64) (float64, error) {
	b, err := WorstCaseTail(cfg.Theta, delta)
	if err != nil {
		return 0, err
	}
	if b == 0 {
		return 1, nil
	}
	z := normalUpperQuantile(b)
	N, K := float64(cfg.Tasks), float64(k)
	var c float64
	switch {
	case cfg.Independent:
		c = 1 / math.Sqrt(1+N/K)
	case k == cfg.Tasks:
		return 1, nil
	default:
		c = math.Sqrt(K / (N - K))
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: K - 1}.CDF(z * c), nil
}

// checkClaims compares the table with what rush.txt §V-A says about Fig. 3.
func (r *CoverageResult) checkClaims() []Claim {
	theta := r.Config.Theta
	cell := func(c CoverageCell) string {
		return fmt.Sprintf("k=%d delta=%g: coverage %.4f ± %.4f (theta %g)", c.K, c.Delta, c.Coverage, c.StdErr, theta)
	}
	enough := Claim{
		Name:      "35-samples-delta-0.7",
		Statement: "with at least 35 runtime samples, an entropy threshold delta >= 0.7 gives coverage >= theta",
		Holds:     true,
	}
	var worst *CoverageCell
	for i := range r.Cells {
		for j := range r.Cells[i] {
			c := &r.Cells[i][j]
			if c.K >= 35 && c.Delta >= 0.7 {
				enough.Checked = true
				if worst == nil || c.Coverage < worst.Coverage {
					worst = c
				}
			}
		}
	}
	if worst != nil {
		enough.Holds = worst.Coverage >= theta
		enough.Detail = "lowest such cell " + cell(*worst)
	}
	few := Claim{
		Name:      "25-samples-no-delta",
		Statement: "with 25 runtime samples no entropy threshold delta gives coverage >= theta",
		Holds:     true,
	}
	var best *CoverageCell
	for i := range r.Cells {
		for j := range r.Cells[i] {
			c := &r.Cells[i][j]
			if c.K == 25 {
				few.Checked = true
				if best == nil || c.Coverage > best.Coverage {
					best = c
				}
			}
		}
	}
	if best != nil {
		few.Holds = best.Coverage < theta
		few.Detail = "highest such cell " + cell(*best)
		// The smallest δ at which k = 25 reaches θ, if any.
		var first *CoverageCell
		for i := range r.Cells {
			for j := range r.Cells[i] {
				c := &r.Cells[i][j]
				if c.K == 25 && c.Coverage >= theta && (first == nil || c.Delta < first.Delta) {
					first = c
				}
			}
		}
		if first != nil {
			few.Detail += fmt.Sprintf("; reaches theta from delta=%g (%.4f ± %.4f)", first.Delta, first.Coverage, first.StdErr)
		}
	}
	enough.Holds = enough.Checked && enough.Holds
	few.Holds = few.Checked && few.Holds
	return []Claim{enough, few}
}

func (c CoverageConfig) check() error {
	if err := checkThetaDelta(c.Theta, 0); err != nil {
		return err
	}
	if c.Tasks < 2 {
		return fmt.Errorf("rs: coverage: %d tasks: need at least 2", c.Tasks)
	}
	if c.Reps < 1 {
		return fmt.Errorf("rs: coverage: %d repetitions: need at least 1", c.Reps)
	}
	if len(c.Ks) == 0 || len(c.Deltas) == 0 {
		return fmt.Errorf("rs: coverage: need at least one k and one delta")
	}
	for _, k := range c.Ks {
		if k < 2 || k > c.Tasks {
			return fmt.Errorf("rs: coverage: k = %d: must be in [2, %d] (the empirical estimator needs 2 samples; the job has %d tasks)", k, c.Tasks, c.Tasks)
		}
	}
	for _, d := range c.Deltas {
		if err := checkThetaDelta(c.Theta, d); err != nil {
			return fmt.Errorf("coverage: %w", err)
		}
	}
	if math.IsNaN(c.TaskMean) || math.IsInf(c.TaskMean, 0) || !(c.TaskStd > 0) || math.IsInf(c.TaskStd, 1) {
		return fmt.Errorf("rs: coverage: task runtime N(%v, %v²): mean must be finite, std positive and finite", c.TaskMean, c.TaskStd)
	}
	return nil
}
