package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/workload"
)

// classes are cora.txt §III-C's completion-time classes (workload.CTClass).
var classes = []string{"critical", "sensitive", "insensitive"}

// seeds is how many runtime seeds (1..seeds) each cora experiment pools; the box plots
// draw seed 1.
const seeds = 3

// The simulate JSON, the fields read here.
type simOut struct {
	simRep
	Replications []simRep `json:"replications"`
}

type simRep struct {
	Policies []struct {
		Name string `json:"name"`
		Jobs []job  `json:"jobs"`
	} `json:"policies"`
	Bound *struct {
		SortedUtilities []float64 `json:"sorted_utilities"`
	} `json:"bound"`
}

type job struct {
	Completion *float64 `json:"completion"`
	Deadline   *float64 `json:"deadline"`
	Utility    float64  `json:"utility"`
}

// ClassStat is one class's Δ under one policy: the box plot's median and hinges (gonum
// plot's: the medians of the lower and upper halves), and the share of jobs with Δ ≤ 0.
type ClassStat struct {
	N              int
	Q1, Median, Q3 float64
	MetShare       float64
}

func median(s []float64) float64 {
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func newClassStat(deltas []float64) ClassStat {
	s := slices.Sorted(slices.Values(deltas))
	c := ClassStat{N: len(s), Median: median(s), Q1: median(s[:len(s)/2]), Q3: median(s[len(s)/2:])}
	met := 0
	for _, d := range s {
		if d <= 0 {
			met++
		}
	}
	if len(s) > 0 {
		c.MetShare = float64(met) / float64(len(s))
	}
	return c
}

// PolicyResult is one policy's outcome in one experiment, pooled over the seeds: Δ per
// class, and the mean over seeds of the min and sum utility of the critical and
// sensitive jobs (cora.txt Tables I and II).
type PolicyResult struct {
	Policy  string               `json:"policy"`
	Classes map[string]ClassStat `json:"classes"`
	MinCS   float64              `json:"min_utility_crit_sens"`
	SumCS   float64              `json:"sum_utility_crit_sens"`
	// MinAll is the minimum over every job (mean over seeds), what the bound's minimum
	// bounds.
	MinAll float64 `json:"min_utility_all"`
}

// Experiment is one workload under several policies.
type Experiment struct {
	Gen      []string       `json:"gen"`
	Simulate []string       `json:"simulate"`
	Counts   map[string]int `json:"class_counts"`
	Results  []PolicyResult `json:"results"`
	// BoundMin and BoundSum are the offline bound's min and sum over all jobs (mean over
	// seeds), when the experiment asks for the bound.
	BoundMin *float64 `json:"bound_min,omitempty"`
	BoundSum *float64 `json:"bound_sum,omitempty"`
}

func (e *Experiment) result(policy string) *PolicyResult {
	for k := range e.Results {
		if e.Results[k].Policy == policy {
			return &e.Results[k]
		}
	}
	return nil
}

// runExperiment generates the workload (`coraopt gen genArgs`), simulates it under the
// policies with the invariants checked on every run (`--check`), and pools Δ per class.
// With plots, the Δ box plot of seed 1 is copied to plots/<name>-delta-box.png.
func runExperiment(ctx context.Context, dir, name string, genArgs []string, policies string, bound bool, plots string) (*Experiment, error) {
	path := filepath.Join(dir, name+".json")
	var wl bytes.Buffer
	if err := coraopt(ctx, &wl, append([]string{"gen"}, genArgs...)...); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, wl.Bytes(), 0o644); err != nil {
		return nil, err
	}
	wk, err := workload.Parse(wl.Bytes())
	if err != nil {
		return nil, err
	}
	simArgs := []string{"--policies", policies, "--seed", "1", "--replications", fmt.Sprint(seeds), "--check"}
	if bound {
		simArgs = append(simArgs, "--bound", "--slot", "60")
	}
	args := slices.Concat([]string{"simulate", path}, simArgs, []string{"-o", "json"})
	figs := ""
	if plots != "" {
		figs = filepath.Join(dir, name+"-figs")
		args = append(args, "--plots", figs)
	}
	var js bytes.Buffer
	if err := coraopt(ctx, &js, args...); err != nil {
		return nil, err
	}
	var so simOut
	if err := json.Unmarshal(js.Bytes(), &so); err != nil {
		return nil, err
	}
	if plots != "" {
		png, err := os.ReadFile(filepath.Join(figs, "delta-box.png"))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(plots, name+"-delta-box.png"), png, 0o644); err != nil {
			return nil, err
		}
	}
	e := &Experiment{Gen: genArgs, Simulate: simArgs, Counts: map[string]int{}}
	class := make([]string, len(wk.Jobs))
	for i, j := range wk.Jobs {
		class[i] = workload.CTClass(j.Utility)
		e.Counts[class[i]]++
	}
	reps := append([]simRep{so.simRep}, so.Replications...) // seed 1, then seeds 2, 3, …
	if len(reps) != seeds {
		return nil, fmt.Errorf("%s: %d replications in the output, want %d", name, len(reps), seeds)
	}
	for _, pol := range strings.Split(policies, ",") {
		deltas := map[string][]float64{}
		pr := PolicyResult{Policy: pol, Classes: map[string]ClassStat{}}
		found := 0
		for _, rep := range reps {
			for _, r := range rep.Policies {
				if r.Name != pol {
					continue
				}
				found++
				if len(r.Jobs) != len(wk.Jobs) {
					return nil, fmt.Errorf("%s %s: %d jobs in the output, %d in the workload", name, pol, len(r.Jobs), len(wk.Jobs))
				}
				mn, sum, mnAll := math.Inf(1), 0.0, math.Inf(1)
				for i, j := range r.Jobs {
					mnAll = min(mnAll, j.Utility)
					if j.Completion != nil && j.Deadline != nil {
						deltas[class[i]] = append(deltas[class[i]], *j.Completion-*j.Deadline)
					}
					if class[i] == "critical" || class[i] == "sensitive" {
						mn, sum = min(mn, j.Utility), sum+j.Utility
					}
				}
				pr.MinCS += mn / seeds
				pr.SumCS += sum / seeds
				pr.MinAll += mnAll / seeds
			}
		}
		if found != seeds {
			return nil, fmt.Errorf("%s: policy %s ran %d times, want %d", name, pol, found, seeds)
		}
		for _, c := range classes {
			if len(deltas[c]) > 0 {
				pr.Classes[c] = newClassStat(deltas[c])
			}
		}
		e.Results = append(e.Results, pr)
	}
	if bound {
		var bmin, bsum float64
		for _, rep := range reps {
			if rep.Bound == nil || len(rep.Bound.SortedUtilities) == 0 {
				return nil, fmt.Errorf("%s: no bound in the output", name)
			}
			bmin += rep.Bound.SortedUtilities[0] / seeds
			for _, u := range rep.Bound.SortedUtilities {
				bsum += u / seeds
			}
		}
		e.BoundMin, e.BoundSum = &bmin, &bsum
	}
	return e, nil
}

// deltaCells prints a class's median [Q1, Q3] and Δ≤0 share, or dashes.
func deltaCells(s ClassStat, ok bool) string {
	if !ok {
		return "– | –"
	}
	return fmt.Sprintf("%.0f [%.0f, %.0f] | %.0f%%", s.Median, s.Q1, s.Q3, 100*s.MetShare)
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// commands prints the experiment's two command lines.
func commands(w io.Writer, e *Experiment, file string) {
	fmt.Fprintf(w, "```console\n$ coraopt gen %s > %s\n$ coraopt simulate %s %s -o json\n```\n\n",
		strings.Join(e.Gen, " "), file, file, strings.Join(e.Simulate, " "))
}
