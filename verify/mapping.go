package verify

import (
	"fmt"
	"math"
	"strings"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

// mappingChecks maps a schedule to container queues (rush.txt §III-C, Alg. 4,
// formulations/tas.MapToQueues) with both roundings of η_i into tasks — round-up-tasks,
// which RS uses, and exact-volume — and reports for each:
//
//	mapping-structure   every task on a queue that is open in each of its slots, no
//	                    overlap on a queue, task lengths R_i (the last one shorter with
//	                    exact-volume), each job's volume and task count
//	mapping-bound       Theorem 3: every job's mapped completion ≤ T_i + R_i
//
// Theorem 3's proof needs constant capacity and tasks carrying exactly η_i (exact-volume,
// or R_i dividing η_i); formulations/tas's tests exhibit the bound failing without
// either. Where the conditions hold the bound is a claim and may fail; where they do not,
// the measured excess is reported as information and the detail says which condition
// is missing. The mapping is of one resource, RUSH's containers: instances with more
// resources skip these checks.
func mappingChecks(in *sched.Instance, s *sched.Schedule, prefix string) Report {
	var rep Report
	for _, rounding := range []tas.Rounding{tas.RoundUpTasks, tas.ExactVolume} {
		suffix := ""
		if rounding == tas.ExactVolume {
			suffix = "/exact-volume"
		}
		structure, bound := prefix+"/mapping-structure"+suffix, prefix+"/mapping-bound"+suffix
		if len(in.Resources) != 1 {
			reason := fmt.Sprintf("Alg. 4 maps tasks onto the containers of one resource; the instance has %d", len(in.Resources))
			rep.Add(Skip(structure, reason), Skip(bound, reason))
			continue
		}
		m, err := tas.MapToQueues(in, s, tas.MappingOptions{Resource: 0, Rounding: rounding})
		if err != nil {
			rep.Add(Fail(structure, 0, "mapping failed: "+err.Error()), Skip(bound, "no mapping"))
			continue
		}
		rep.Add(MappingStructure(structure, in, s, m, rounding), MappingBound(bound, in, m, rounding))
	}
	return rep
}

// MappingStructure checks a mapping of schedule s's jobs (resource 0) on its own terms:
// queue k is open in slot t when k < C_t (the last slot's capacity continuing beyond the
// horizon); tasks on a queue do not overlap; every task is R_i slots long (with
// exact-volume the last of a job may be shorter); each job gets ⌈η_i/R_i⌉·R_i
// container-slots (round-up-tasks) or exactly η_i (exact-volume) in the number of tasks
// the mapping reports; Target is the schedule's completion and Completion the end of the
// job's last task.
func MappingStructure(name string, in *sched.Instance, s *sched.Schedule, m *tas.Mapping, rounding tas.Rounding) Check {
	n := len(in.Jobs)
	if m == nil || len(m.Target) != n || len(m.Tasks) != n || len(m.Volume) != n || len(m.Completion) != n {
		return Fail(name, 0, "the mapping does not have one entry per job")
	}
	capa := in.Resources[0].Capacity
	open := func(k, slot int) bool { return k < capa[min(slot, len(capa))-1] }
	var t tally
	volume, tasks, end := make([]int, n), make([]int, n), make([]int, n)
	for k, q := range m.Queues {
		last := 0
		for _, task := range q {
			if task.Job < 0 || task.Job >= n {
				t.add(math.Inf(1), "queue %d holds a task of job %d, which does not exist", k, task.Job)
				continue
			}
			id := in.Jobs[task.Job].ID
			if task.Start < last || task.End <= task.Start {
				t.add(float64(last-task.Start), "queue %d: task of job %s in (%d, %d] overlaps the previous one (ends %d) or is empty", k, id, task.Start, task.End, last)
			}
			for slot := task.Start + 1; slot <= task.End; slot++ {
				if slot < 1 || !open(k, slot) {
					t.add(1, "queue %d is closed in slot %d, where job %s's task runs", k, slot, id)
					break
				}
			}
			R := max(in.Jobs[task.Job].TaskSlots, 1)
			if l := task.End - task.Start; l > R || (rounding == tas.RoundUpTasks && l != R) {
				t.add(math.Abs(float64(l-R)), "job %s has a task of %d slots, R = %d", id, l, R)
			}
			volume[task.Job] += task.End - task.Start
			tasks[task.Job]++
			end[task.Job] = max(end[task.Job], task.End)
			last = task.End
		}
	}
	for j, job := range in.Jobs {
		eta, R := job.Demand[0], max(job.TaskSlots, 1)
		want := eta
		if rounding == tas.RoundUpTasks {
			want = (eta + R - 1) / R * R
		}
		if volume[j] != want {
			t.add(math.Abs(float64(volume[j]-want)), "job %s gets %d container-slots, want %d (η = %d, R = %d, %s)", job.ID, volume[j], want, eta, R, rounding)
		}
		if tasks[j] != m.Tasks[j] || volume[j] != m.Volume[j] || end[j] != m.Completion[j] {
			t.add(math.Abs(float64(end[j]-m.Completion[j])), "job %s: the mapping reports %d tasks, volume %d, completion %d; its queues hold %d, %d, %d",
				job.ID, m.Tasks[j], m.Volume[j], m.Completion[j], tasks[j], volume[j], end[j])
		}
		if m.Target[j] != s.Jobs[j].Completion {
			t.add(math.Abs(float64(m.Target[j]-s.Jobs[j].Completion)), "job %s: target %d, the schedule completes it in slot %d", job.ID, m.Target[j], s.Jobs[j].Completion)
		}
	}
	return t.check(name, fmt.Sprintf("%s: %d queues; tasks on open queues, no overlap, lengths R_i, each job's volume", rounding, len(m.Queues)))
}

// MappingBound checks Theorem 3 (rush.txt §III-C): every job's mapped completion is at
// most T_i + R_i. MaxViolation is the largest excess in slots. Where the theorem's
// conditions fail (capacity varying over time; round-up-tasks with some R_i not dividing
// η_i) the excess is information, not a failure.
func MappingBound(name string, in *sched.Instance, m *tas.Mapping, rounding tas.Rounding) Check {
	worst, late := 0, []string{}
	for j, job := range in.Jobs {
		R := max(job.TaskSlots, 1)
		if ex := m.Completion[j] - (m.Target[j] + R); ex > 0 {
			worst = max(worst, ex)
			late = append(late, fmt.Sprintf("%s (%d > %d + %d)", job.ID, m.Completion[j], m.Target[j], R))
		}
	}
	// The mapping's own verdict must match the recomputation.
	if m.BoundHolds != (len(late) == 0) {
		return Fail(name, float64(worst), fmt.Sprintf("the mapping reports BoundHolds = %t, the recomputed excess is %d slots", m.BoundHolds, worst))
	}
	var why []string
	capa := in.Resources[0].Capacity
	for _, c := range capa {
		if c != capa[0] {
			why = append(why, "the capacity varies over time")
			break
		}
	}
	if rounding == tas.RoundUpTasks {
		for _, job := range in.Jobs {
			if R := max(job.TaskSlots, 1); job.Demand[0]%R != 0 {
				why = append(why, fmt.Sprintf("tasks are rounded up (job %s: η = %d is not a multiple of R = %d)", job.ID, job.Demand[0], R))
				break
			}
		}
	}
	measured := "every job finishes by T_i + R_i"
	if len(late) > 0 {
		measured = fmt.Sprintf("late by up to %d slots: %s", worst, strings.Join(late, ", "))
	}
	if len(why) > 0 {
		return Info(name, float64(worst), fmt.Sprintf("Theorem 3 does not apply here (%s), so this is a measurement: %s", strings.Join(why, "; "), measured))
	}
	if len(late) > 0 {
		return Fail(name, float64(worst), "Theorem 3's conditions hold (constant capacity, tasks carrying exactly η_i) but the bound fails: "+measured)
	}
	return Pass(name, 0, fmt.Sprintf("Theorem 3 (%s): %s", rounding, measured))
}
