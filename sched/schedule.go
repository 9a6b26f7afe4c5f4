package sched

import (
	"slices"
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
