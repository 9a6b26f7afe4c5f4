package woha

import (
	"fmt"
	"sort"
)

// Rule is an intra-workflow job prioritization of woha.txt §V-C.
type Rule int

const (
	// HLF, Highest Level First: a job with no dependents is on level 0, any other job is
	// one level above its highest dependent; higher level first.
	HLF Rule = iota
	// LPF, Longest Path First: the longest chain of dependents starting at the job, each
	// job weighing MapTime + ReduceTime; longer first.
	LPF
	// MPF, Maximum Parallelism First: more direct dependents |D_i^j| first.
	MPF
)

func (r Rule) String() string {
	switch r {
	case HLF:
		return "hlf"
	case LPF:
		return "lpf"
	case MPF:
		return "mpf"
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// ParseRule reads "hlf", "lpf" or "mpf".
func ParseRule(s string) (Rule, error) {
	for _, r := range []Rule{HLF, LPF, MPF} {
		if r.String() == s {
			return r, nil
		}
	}
	return 0, fmt.Errorf("unknown priority rule %q (want hlf, lpf or mpf)", s)
}

// Scores returns each job's score under r (higher means more urgent): its level for HLF,
// its longest dependent path in seconds for LPF, its number of direct dependents for MPF.
// w must have passed Validate.
func Scores(w *Workflow, r Rule) []float64 {
	d := compile(w)
	n := len(w.Jobs)
	s := make([]float64, n)
	switch r {
	case HLF, LPF:
		// Dependents come after a job in topological order, so walk it backwards.
		for k := n - 1; k >= 0; k-- {
			j := d.topo[k]
			best := 0.0
			for _, c := range d.dependents[j] {
				if s[c] > best {
					best = s[c]
				}
			}
			if r == HLF {
				if len(d.dependents[j]) > 0 {
					s[j] = best + 1
				}
			} else {
				s[j] = best + w.Jobs[j].MapTime + w.Jobs[j].ReduceTime
			}
		}
	case MPF:
		for j := range s {
			s[j] = float64(len(d.dependents[j]))
		}
	default:
		panic(fmt.Sprintf("woha: unknown rule %d", int(r)))
	}
	return s
}

// Ranks turns r's scores into a strict order: rank 0 is the most urgent job. Ties go to
// the job listed first in the workflow ("ties are broken by using their job IDs in the
// workflow", §V-C; we take the ID's position, which the workload author controls).
func Ranks(w *Workflow, r Rule) []int {
	s := Scores(w, r)
	order := make([]int, len(s))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s[order[a]] > s[order[b]] })
	rank := make([]int, len(s))
	for k, j := range order {
		rank[j] = k
	}
	return rank
}
