package bench

import (
	"math"
	"slices"
	"time"
)

// Summary compares one solver with the others of a group — a family of instances
// and a problem class, such as the Netlib LPs or the max-min TAS MIPs — as Mittelmann's
// benchmarks do: the shifted geometric mean of its times over the instances of the
// group every solver of the group attempted, relative to the best solver's.
type Summary struct {
	Family string
	Class  Class
	Solver string
	// Attempted and Solved count the solver's rows in the group and those it solved
	// (conclusive and in agreement).
	Attempted, Solved int
	// Instances is the number of instances in the comparison: those of the group that
	// every solver of the group attempted.
	Instances int
	// SGM is the shifted geometric mean of the times over those instances, an unsolved
	// one charged the time limit (or its own time when there is no limit, or when it ran
	// longer); 0 when Instances is 0.
	SGM time.Duration
	// Relative is SGM over the smallest SGM of the group (1 for the best); NaN when the
	// group has no comparison.
	Relative float64
}

type group struct {
	family string
	class  Class
}

// Summarize computes the per-group, per-solver summary of rows (see Summary). Groups
// and solvers appear in the order of their first row. Rows of cases that failed to
// prepare or had no solver (solver "-") are left out.
func Summarize(rows []Row, timeLimit, shift time.Duration) []Summary {
	if shift == 0 {
		shift = DefaultShift
	}
	type key struct {
		g                group
		instance, solver string
	}
	var groups []group
	solversOf := map[group][]string{}
	instancesOf := map[group][]string{}
	byKey := map[key]*Row{}
	for i := range rows {
		r := &rows[i]
		if r.Solver == "-" {
			continue
		}
		g := group{r.Family, r.Class}
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
		if !slices.Contains(solversOf[g], r.Solver) {
			solversOf[g] = append(solversOf[g], r.Solver)
		}
		if !slices.Contains(instancesOf[g], r.Instance) {
			instancesOf[g] = append(instancesOf[g], r.Instance)
		}
		byKey[key{g, r.Instance, r.Solver}] = r
	}
	var out []Summary
	for _, g := range groups {
		var common []string
		for _, inst := range instancesOf[g] {
			all := true
			for _, s := range solversOf[g] {
				if byKey[key{g, inst, s}] == nil {
					all = false
					break
				}
			}
			if all {
				common = append(common, inst)
			}
		}
		first := len(out)
		best := time.Duration(-1)
		for _, s := range solversOf[g] {
			sum := Summary{Family: g.family, Class: g.class, Solver: s, Instances: len(common), Relative: math.NaN()}
			for _, inst := range instancesOf[g] {
				if r := byKey[key{g, inst, s}]; r != nil {
					sum.Attempted++
					if r.Solved {
						sum.Solved++
					}
				}
			}
			if len(common) > 0 {
				times := make([]time.Duration, len(common))
				for i, inst := range common {
					times[i] = charged(byKey[key{g, inst, s}], timeLimit)
				}
				sum.SGM = ShiftedGeoMean(times, shift)
				if best < 0 || sum.SGM < best {
					best = sum.SGM
				}
			}
			out = append(out, sum)
		}
		if len(common) == 0 {
			continue
		}
		for i := first; i < len(out); i++ {
			switch {
			case best > 0:
				out[i].Relative = float64(out[i].SGM) / float64(best)
			case out[i].SGM == 0:
				out[i].Relative = 1
			}
		}
	}
	return out
}

// charged is the time a row counts with in the shifted geometric mean: its median when
// solved, else the time limit (its own time when longer, or when there is no limit).
func charged(r *Row, timeLimit time.Duration) time.Duration {
	if r.Solved {
		return r.Wall.Median
	}
	return max(r.Wall.Median, timeLimit)
}

// Scaling is the empirical growth of one method's time over a series of sizes.
type Scaling struct {
	Family, Solver string
	Points         []ScalingPoint
	// Time fits the median time against N.
	Time PowerFit
	// PerLayer fits the median time divided by the layers (onion peeling's levels)
	// against N; nil when the method reports no layers.
	PerLayer *PowerFit
}

// ScalingPoint is one size of a series.
type ScalingPoint struct {
	N      int
	Median time.Duration
	Layers float64 // 0 when not reported
}

// FitScaling fits time ∝ N^k for every (family, solver) series among the solved rows
// with N > 0 and at least two distinct sizes, in the order of their first row.
func FitScaling(rows []Row) []Scaling {
	type key struct{ family, solver string }
	var keys []key
	points := map[key][]ScalingPoint{}
	for _, r := range rows {
		if r.N <= 0 || !r.Solved || r.Wall.Median <= 0 {
			continue
		}
		k := key{r.Family, r.Solver}
		if _, ok := points[k]; !ok {
			keys = append(keys, k)
		}
		points[k] = append(points[k], ScalingPoint{N: r.N, Median: r.Wall.Median, Layers: r.Metrics["layers"]})
	}
	var out []Scaling
	for _, k := range keys {
		pts := points[k]
		slices.SortStableFunc(pts, func(a, b ScalingPoint) int { return a.N - b.N })
		n := make([]float64, len(pts))
		t := make([]float64, len(pts))
		perLayer := make([]float64, len(pts))
		layered := true
		for i, p := range pts {
			n[i], t[i] = float64(p.N), p.Median.Seconds()
			if p.Layers > 0 {
				perLayer[i] = t[i] / p.Layers
			} else {
				layered = false
			}
		}
		fit, err := FitPower(n, t)
		if err != nil {
			continue
		}
		s := Scaling{Family: k.family, Solver: k.solver, Points: pts, Time: fit}
		if layered {
			if f, err := FitPower(n, perLayer); err == nil {
				s.PerLayer = &f
			}
		}
		out = append(out, s)
	}
	return out
}
