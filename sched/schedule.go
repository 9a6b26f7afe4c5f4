package sched

import (
	"maps"
	"slices"
	"strconv"
)

// Schedule is the one result type of every solution path: per job its allocation, its
// completion slot and its utility there, plus the sorted utility vector that
// lexicographic max-min compares.
type Schedule struct {
	Jobs []JobSchedule
	// Sorted is the utility vector in non-decreasing order (the quantity lexmax maximizes).
	Sorted []float64
	Min    float64
	Sum    float64
	// Exact is false when a fast path could not prove optimality (for example onion
	// peeling stopped branching at its budget); verify then certifies it another way.
	Exact bool
}

// JobSchedule is one job's part of a Schedule.
type JobSchedule struct {
	ID string
	// Completion is the last slot with any allocation (0 if the job got nothing).
	Completion int
	Utility    float64
	// Alloc[r][t-1] is the units of resource r held in slot t.
	Alloc [][]int
}

// NewSchedule allocates an empty schedule for in (every Alloc sized T per resource).
func NewSchedule(in *Instance) *Schedule {
	s := &Schedule{Jobs: make([]JobSchedule, len(in.Jobs)), Exact: true}
	for i := range in.Jobs {
		a := make([][]int, len(in.Resources))
		for r := range a {
			a[r] = make([]int, in.Horizon)
		}
		s.Jobs[i] = JobSchedule{ID: in.Jobs[i].ID, Alloc: a}
	}
	return s
}

// Finalize recomputes every job's completion slot and utility from its allocation, and
// the sorted vector, minimum and sum. Call it after filling Alloc.
func (s *Schedule) Finalize(in *Instance) {
	s.Sorted = s.Sorted[:0]
	s.Sum = 0
	for i := range s.Jobs {
		js := &s.Jobs[i]
		js.Completion = CompletionSlot(js.Alloc)
		if js.Completion > 0 {
			js.Utility = in.Jobs[i].Utility.At(js.Completion)
		} else {
			js.Utility = 0
		}
		s.Sorted = append(s.Sorted, js.Utility)
		s.Sum += js.Utility
	}
	slices.Sort(s.Sorted)
	if len(s.Sorted) > 0 {
		s.Min = s.Sorted[0]
	} else {
		s.Min = 0
	}
}

// CompletionSlot is the last slot (1-based) in which any resource is allocated, or 0.
func CompletionSlot(alloc [][]int) int {
	last := 0
	for _, row := range alloc {
		for t := len(row); t > last; t-- {
			if row[t-1] != 0 {
				last = t
				break
			}
		}
	}
	return last
}

// CompareSorted compares two sorted utility vectors lexicographically with an absolute
// tolerance: -1 if a is lexicographically smaller, +1 if larger, 0 if equal within tol.
// Vectors of different lengths compare on the common prefix, then by length.
func CompareSorted(a, b []float64, tol float64) int {
	for k := range min(len(a), len(b)) {
		switch d := a[k] - b[k]; {
		case d < -tol:
			return -1
		case d > tol:
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// ScheduleJSON is the JSON form of a Schedule, as `coraopt solve -o json` prints it and
// as a schedule file is read back: resources by name, one array per resource with the
// units held in slots 1..T ("allocation"), or, in the compact form for large instances,
// the runs of equal non-zero units ("runs"; see JobScheduleJSON). Both forms are read;
// schedule.schema.json (ScheduleSchema) describes them.
type ScheduleJSON struct {
	Jobs            []JobScheduleJSON `json:"jobs"`
	SortedUtilities []float64         `json:"sorted_utilities"`
	MinUtility      float64           `json:"min_utility"`
	SumUtility      float64           `json:"sum_utility"`
	Exact           bool              `json:"exact"`
}

// JobScheduleJSON is one job's part of a ScheduleJSON.
type JobScheduleJSON struct {
	ID         string  `json:"id"`
	Completion int     `json:"completion"`
	Utility    float64 `json:"utility"`
	// Allocation maps each resource name to the units held in slots 1..T (the dense
	// form; omitted in the compact form).
	Allocation map[string][]int `json:"allocation,omitempty"`
	// Runs is the compact form: per resource name, the maximal runs of slots holding the
	// same positive number of units, as [first slot, last slot, units] in increasing
	// order; slots in no run hold nothing, and a resource with nothing has no entry.
	Runs map[string][][3]int `json:"runs,omitempty"`
}

// CompactAbove is the jobs × resources × slots above which `coraopt solve` writes the
// compact form (Runs) unless told otherwise.
const CompactAbove = 1_000_000

// CompactJSON is JSON with every allocation written as runs (JobScheduleJSON.Runs):
// its size grows with the runs, not with jobs × slots.
func (s *Schedule) CompactJSON(in *Instance) ScheduleJSON {
	out := s.JSON(nil)
	for i := range s.Jobs {
		runs := map[string][][3]int{}
		for r, row := range s.Jobs[i].Alloc {
			var rs [][3]int
			for t := 0; t < len(row); {
				if row[t] == 0 {
					t++
					continue
				}
				e := t
				for e+1 < len(row) && row[e+1] == row[t] {
					e++
				}
				rs = append(rs, [3]int{t + 1, e + 1, row[t]})
				t = e + 1
			}
			if len(rs) > 0 {
				runs[resourceName(in, r)] = rs
			}
		}
		out.Jobs[i].Allocation = nil
		out.Jobs[i].Runs = runs
	}
	return out
}

func resourceName(in *Instance, r int) string {
	if in != nil && r < len(in.Resources) {
		return in.Resources[r].Name
	}
	return strconv.Itoa(r)
}

// JSON converts s, a schedule for in, to its JSON form (dense allocations; a nil in
// leaves them out).
func (s *Schedule) JSON(in *Instance) ScheduleJSON {
	out := ScheduleJSON{
		Jobs:            make([]JobScheduleJSON, len(s.Jobs)),
		SortedUtilities: slices.Clone(s.Sorted),
		MinUtility:      s.Min,
		SumUtility:      s.Sum,
		Exact:           s.Exact,
	}
	if out.SortedUtilities == nil {
		out.SortedUtilities = []float64{}
	}
	for i := range s.Jobs {
		js := &s.Jobs[i]
		out.Jobs[i] = JobScheduleJSON{ID: js.ID, Completion: js.Completion, Utility: js.Utility}
		if in == nil {
			continue
		}
		alloc := make(map[string][]int, len(js.Alloc))
		for r, row := range js.Alloc {
			// The rows are the schedule's own: the document is written, not kept.
			alloc[resourceName(in, r)] = row
		}
		out.Jobs[i].Allocation = alloc
	}
	return out
}

// Schedule converts the JSON form back into a Schedule for in, in the instance's job
// order. Every job of in must appear once, every allocation must name a resource of in
// and hold T non-negative entries; resources a job does not list get nothing. The
// completion slots, utilities and sorted vector are recomputed from the allocation
// (Finalize), not taken from the document; Exact is kept. A mismatch yields a
// *ValidationError with JSON paths.
func (d *ScheduleJSON) Schedule(in *Instance) (*Schedule, error) {
	var ps problems
	s := NewSchedule(in)
	s.Exact = d.Exact
	seen := make([]bool, len(in.Jobs))
	for k := range d.Jobs {
		jd := &d.Jobs[k]
		p := pathIndex("jobs", k)
		i := in.JobIndex(jd.ID)
		switch {
		case i < 0:
			ps.add(pathKey(p, "id"), "job %q is not in the instance", jd.ID)
			continue
		case seen[i]:
			ps.add(pathKey(p, "id"), "job %q appears more than once", jd.ID)
			continue
		}
		seen[i] = true
		for _, name := range slices.Sorted(maps.Keys(jd.Runs)) {
			rp := pathKey(pathKey(p, "runs"), name)
			r := in.ResourceIndex(name)
			switch {
			case r < 0:
				ps.add(rp, "unknown resource %q", name)
				continue
			case jd.Allocation[name] != nil:
				ps.add(rp, "resource %q has both an allocation and runs", name)
				continue
			}
			prev := 0
			for k, run := range jd.Runs[name] {
				first, last, units := run[0], run[1], run[2]
				if first <= prev || last < first || last > in.Horizon || units <= 0 {
					ps.add(pathIndex(rp, k), "run [%d, %d, %d]: want slots after %d in increasing order up to the horizon %d, and units > 0", first, last, units, prev, in.Horizon)
					break
				}
				for t := first; t <= last; t++ {
					s.Jobs[i].Alloc[r][t-1] = units
				}
				prev = last
			}
		}
		names := slices.Sorted(maps.Keys(jd.Allocation))
		for _, name := range names {
			row := jd.Allocation[name]
			ap := pathKey(pathKey(p, "allocation"), name)
			r := in.ResourceIndex(name)
			if r < 0 {
				ps.add(ap, "unknown resource %q", name)
				continue
			}
			if len(row) != in.Horizon {
				ps.add(ap, "has %d entries, horizon is %d", len(row), in.Horizon)
				continue
			}
			for t, x := range row {
				if x < 0 {
					ps.add(pathIndex(ap, t), "must be >= 0")
				}
			}
			copy(s.Jobs[i].Alloc[r], row)
		}
	}
	for i, ok := range seen {
		if !ok {
			ps.add("jobs", "job %q of the instance is missing", in.Jobs[i].ID)
		}
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	s.Finalize(in)
	return s, nil
}
