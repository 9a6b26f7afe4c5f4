package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Stat summarizes one metric over the seeds of a group: mean, median and the 95%
// confidence interval of the mean (Student's t with n−1 degrees of freedom; null with
// one seed, which has no spread). It is the one statistic of coraopt's outputs: sweep
// merge prints mean, median and interval, Replicate's summaries (simulate
// --replications) mean and Std.
type Stat struct {
	Mean   float64     `json:"mean"`
	Median float64     `json:"median"`
	CI95   *[2]float64 `json:"ci95"`
	// Std is the sample standard deviation (n−1 in the denominator; 0 with one seed).
	// Merged output gives the interval instead, so it is not a key there.
	Std float64 `json:"-"`
}

// NewStat summarizes xs (at least one value).
func NewStat(xs []float64) Stat {
	s := Stat{Mean: stat.Mean(xs, nil)}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	n := len(sorted)
	if n%2 == 1 {
		s.Median = sorted[n/2]
	} else {
		s.Median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	if n >= 2 {
		s.Std = stat.StdDev(xs, nil)
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
		h := t * s.Std / math.Sqrt(float64(n))
		s.CI95 = &[2]float64{s.Mean - h, s.Mean + h}
	}
	return s
}

// Group aggregates the cells of one workload and one policy (with its parameters) over
// their seeds.
type Group struct {
	Workload     string         `json:"workload"`
	Policy       string         `json:"policy"` // PolicySpec.Label
	Params       map[string]any `json:"params,omitempty"`
	Seeds        int            `json:"seeds"`
	MinUtility   Stat           `json:"min_utility"`
	SumUtility   Stat           `json:"sum_utility"`
	DeadlinesMet Stat           `json:"deadlines_met"`
	MissPenalty  Stat           `json:"deadline_miss_penalty"`
	// MinGap and SumGap are the gaps to the bounds (sweeps with "bound"): MinGap to the
	// lexmax bound's minimum (absent when some seed's lexmax vector is not proven,
	// sim.VsBound.LexmaxUnproven), SumGap to the sum bound (sim.VsBound).
	MinGap *Stat        `json:"min_gap,omitempty"`
	SumGap *Stat        `json:"sum_gap,omitempty"`
	Timing *GroupTiming `json:"timing,omitempty"`
}

// GroupMetric is one aggregated metric of a group: Key names it in CSV and figure
// files (timing's with a "timing." prefix), Title in tables and on axes.
type GroupMetric struct {
	Key, Title string
	Stat       *Stat
}

// Metrics lists the group's aggregated metrics in output order: min and sum utility,
// deadlines met, miss penalty, the gaps to the lexmax and the sum bound (sweeps with
// "bound"; the min gap only where a lexmax was proven) and the
// decision p99 (with timing).
func (g *Group) Metrics() []GroupMetric {
	out := []GroupMetric{
		{"min_utility", "min utility", &g.MinUtility},
		{"sum_utility", "sum utility", &g.SumUtility},
		{"deadlines_met", "deadlines met", &g.DeadlinesMet},
		{"deadline_miss_penalty", "miss penalty", &g.MissPenalty},
	}
	if g.MinGap != nil {
		out = append(out, GroupMetric{"min_gap", "min gap to lexmax bound", g.MinGap})
	}
	if g.SumGap != nil {
		out = append(out, GroupMetric{"sum_gap", "sum gap to sum bound", g.SumGap})
	}
	if g.Timing != nil {
		out = append(out, GroupMetric{"timing.decision_p99_us", "decision p99 µs", &g.Timing.DecisionP99Micros})
	}
	return out
}

// GroupTiming aggregates the wall-clock figures of a group's cells.
type GroupTiming struct {
	DecisionP99Micros Stat `json:"decision_p99_us"`
	WallSeconds       Stat `json:"wall_seconds"`
}

// Failed is a cell that recorded an error instead of metrics.
type Failed struct {
	Cell     int    `json:"cell"`
	Workload string `json:"workload"`
	Policy   string `json:"policy"`
	Seed     uint64 `json:"seed"`
	Error    string `json:"error"`
}

// Merged is `coraopt sweep merge -o json`.
type Merged struct {
	Sweep  string   `json:"sweep"`
	Cells  int      `json:"cells"`
	Groups []Group  `json:"groups"`
	Failed []Failed `json:"failed,omitempty"`
	Timing *struct {
		// CellSeconds is the cells' summed run time: divided by the sweep's wall time
		// it is the parallelism achieved.
		CellSeconds float64 `json:"cell_seconds"`
	} `json:"timing,omitempty"`
}

// Source is one part: its name for messages and its records.
type Source struct {
	Name string
	Part *Part
}

// IncompleteError is a merge that lacks cells or has some twice: the check failed.
type IncompleteError struct {
	Cells     int
	Missing   []int
	Duplicate []string // "cell 17: a.jsonl:3, b.jsonl:9"
}

func (e *IncompleteError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d cells missing: %s", len(e.Missing), e.Cells, Ranges(e.Missing)))
	}
	if len(e.Duplicate) > 0 {
		parts = append(parts, fmt.Sprintf("%d cells recorded more than once: %s", len(e.Duplicate), strings.Join(e.Duplicate, "; ")))
	}
	return strings.Join(parts, "\n")
}

// Ranges writes ascending integers compactly: 0-9, 12, 15-16.
func Ranges(xs []int) string {
	var b strings.Builder
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(xs[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(xs[j]))
		}
		i = j + 1
	}
	return b.String()
}

// RecordError is a record that contradicts the cell its index names: Field is the
// record's JSON key that disagrees with the sweep file.
type RecordError struct {
	Cell       int
	Field      string
	Got, Want  string
	OtherSweep bool // Field is "sweep": a record of another sweep, or of an edited one
}

func (e *RecordError) Error() string {
	if e.OtherSweep {
		return fmt.Sprintf("a record of sweep %s, but the sweep file is sweep %s (another sweep file, or this one or a workload of it changed since the run)", e.Got, e.Want)
	}
	if e.Field == "cells" || e.Field == "cell" {
		return fmt.Sprintf("field %q is %s, but the sweep file's grid has %s cells", e.Field, e.Got, e.Want)
	}
	return fmt.Sprintf("field %q is %s, but cell %d of the sweep file has %s", e.Field, e.Got, e.Cell, e.Want)
}

// CheckRecord reports the first field of r — sweep, cells, workload, policy, params,
// seed — that contradicts the cell its index names in s (a *RecordError), or nil. Merge
// groups records by those fields, so a record that lies about them would otherwise
// land in a group of its own or in another cell's.
func (s *Sweep) CheckRecord(r *Record) error {
	n := s.NumCells()
	q := strconv.Quote
	switch {
	case r.Sweep != s.Fingerprint:
		return &RecordError{Cell: r.Cell, Field: "sweep", Got: r.Sweep, Want: s.Fingerprint, OtherSweep: true}
	case r.Cells != n:
		return &RecordError{Cell: r.Cell, Field: "cells", Got: strconv.Itoa(r.Cells), Want: strconv.Itoa(n)}
	case r.Cell < 0 || r.Cell >= n:
		return &RecordError{Cell: r.Cell, Field: "cell", Got: strconv.Itoa(r.Cell), Want: strconv.Itoa(n)}
	}
	c := s.Cell(r.Cell)
	ws, ps, seed := s.Workloads[c.Workload], s.Policies[c.Policy], s.Seeds[c.SeedAt]
	switch {
	case r.Workload != ws.Label():
		return &RecordError{Cell: r.Cell, Field: "workload", Got: q(r.Workload), Want: "workload " + q(ws.Label())}
	case r.Policy != ps.Name:
		return &RecordError{Cell: r.Cell, Field: "policy", Got: q(r.Policy), Want: "policy " + q(ps.Name)}
	case r.Label() != ps.Label():
		// Labels write the parameters as JSON does, which is how groups tell them apart.
		return &RecordError{Cell: r.Cell, Field: "params", Got: q(r.Label()), Want: q(ps.Label())}
	case r.Seed != seed:
		return &RecordError{Cell: r.Cell, Field: "seed", Got: strconv.FormatUint(r.Seed, 10), Want: "seed " + strconv.FormatUint(seed, 10)}
	}
	return nil
}

// maxListed bounds the records an error lists one by one.
const maxListed = 10

// Join checks the parts against the sweep — every record true to its cell
// (CheckRecord), every cell present exactly once — and returns the records in cell
// order. A missing or repeated cell gives an *IncompleteError; a record of another
// sweep or one that contradicts its cell, a plain error naming the part, the line and
// the field.
func (s *Sweep) Join(parts []Source) ([]*Record, error) {
	var bad []string
	nbad := 0
	for _, src := range parts {
		for j, rec := range src.Part.Records {
			err := s.CheckRecord(rec)
			if err == nil {
				continue
			}
			at := fmt.Sprintf("%s:%d", src.Name, src.Part.Line[j])
			var re *RecordError
			if errors.As(err, &re) && re.OtherSweep {
				// Every record of such a part says the same: name the first.
				return nil, fmt.Errorf("%s: %w", at, err)
			}
			if nbad++; len(bad) < maxListed {
				bad = append(bad, fmt.Sprintf("%s: %v", at, err))
			}
		}
	}
	if nbad > 0 {
		more := ""
		if nbad > len(bad) {
			more = fmt.Sprintf("\n… and %d more", nbad-len(bad))
		}
		what := "1 record contradicts"
		if nbad > 1 {
			what = fmt.Sprintf("%d records contradict", nbad)
		}
		return nil, fmt.Errorf("%s the cell its index names in the sweep file (a corrupted or edited part):\n%s%s", what, strings.Join(bad, "\n"), more)
	}
	n := s.NumCells()
	byCell := make([]*Record, n)
	where := make([][]string, n)
	for _, src := range parts {
		for j, rec := range src.Part.Records {
			byCell[rec.Cell] = rec
			where[rec.Cell] = append(where[rec.Cell], fmt.Sprintf("%s:%d", src.Name, src.Part.Line[j]))
		}
	}
	ie := &IncompleteError{Cells: n}
	for i, w := range where {
		switch {
		case len(w) == 0:
			ie.Missing = append(ie.Missing, i)
		case len(w) > 1:
			ie.Duplicate = append(ie.Duplicate, fmt.Sprintf("cell %d: %s", i, strings.Join(w, ", ")))
		}
	}
	if len(ie.Missing) > 0 || len(ie.Duplicate) > 0 {
		return nil, ie
	}
	return byCell, nil
}

// Aggregate groups the records (in cell order, as Join returns them) per workload and
// policy, in order of their first cell, and summarizes each metric over the seeds.
// Failed cells are listed and left out of their group. With timing false the result has
// no wall-clock figures, so its bytes depend on nothing but the sweep.
func Aggregate(recs []*Record, timing bool) (*Merged, error) {
	m := &Merged{Sweep: recs[0].Sweep, Cells: len(recs), Groups: []Group{}}
	type acc struct {
		g                                     Group
		minU, sumU, met, pen, minG, sumG, p99 []float64
		wall                                  []float64
	}
	var order []string
	groups := map[string]*acc{}
	cellSeconds := 0.0
	for _, r := range recs {
		key := r.Workload + "\x00" + r.Label()
		a := groups[key]
		if a == nil {
			a = &acc{g: Group{Workload: r.Workload, Policy: r.Label(), Params: r.Params}}
			groups[key] = a
			order = append(order, key)
		}
		if r.Timing != nil {
			cellSeconds += r.Timing.WallSeconds + r.Timing.BoundSeconds
		}
		if r.Error != "" {
			m.Failed = append(m.Failed, Failed{Cell: r.Cell, Workload: r.Workload, Policy: r.Label(), Seed: r.Seed, Error: r.Error})
			continue
		}
		get := func(k string) (float64, error) {
			raw, ok := r.Metrics[k]
			if !ok {
				return 0, fmt.Errorf("cell %d has no metric %s", r.Cell, k)
			}
			var x float64
			if err := json.Unmarshal(raw, &x); err != nil {
				return 0, fmt.Errorf("cell %d: metric %s: %w", r.Cell, k, err)
			}
			return x, nil
		}
		vals := make([]float64, len(aggregated))
		for k, name := range aggregated {
			x, err := get(name)
			if err != nil {
				return nil, err
			}
			vals[k] = x
		}
		a.minU, a.sumU, a.met, a.pen = append(a.minU, vals[0]), append(a.sumU, vals[1]), append(a.met, vals[2]), append(a.pen, vals[3])
		if raw, ok := r.Metrics["vs_bound"]; ok {
			var vb struct {
				MinGap   float64 `json:"min_gap"`
				SumGap   float64 `json:"sum_gap"`
				Unproven bool    `json:"lexmax_unproven"`
			}
			if err := json.Unmarshal(raw, &vb); err != nil {
				return nil, fmt.Errorf("cell %d: vs_bound: %w", r.Cell, err)
			}
			a.sumG = append(a.sumG, vb.SumGap)
			if !vb.Unproven {
				// A gap to a lexmax vector that is not proven is no gap to a bound.
				a.minG = append(a.minG, vb.MinGap)
			}
		}
		if r.Timing != nil {
			a.p99, a.wall = append(a.p99, r.Timing.DecisionP99Micros), append(a.wall, r.Timing.WallSeconds)
		}
	}
	for _, key := range order {
		a := groups[key]
		if len(a.minU) == 0 {
			continue // every cell failed: listed under failed
		}
		g := a.g
		g.Seeds = len(a.minU)
		g.MinUtility, g.SumUtility, g.DeadlinesMet, g.MissPenalty = NewStat(a.minU), NewStat(a.sumU), NewStat(a.met), NewStat(a.pen)
		if len(a.sumG) == len(a.minU) {
			y := NewStat(a.sumG)
			g.SumGap = &y
		}
		if len(a.minG) == len(a.minU) {
			x := NewStat(a.minG)
			g.MinGap = &x
		}
		if timing && len(a.p99) > 0 {
			g.Timing = &GroupTiming{DecisionP99Micros: NewStat(a.p99), WallSeconds: NewStat(a.wall)}
		}
		m.Groups = append(m.Groups, g)
	}
	if timing {
		m.Timing = &struct {
			CellSeconds float64 `json:"cell_seconds"`
		}{cellSeconds}
	}
	return m, nil
}
