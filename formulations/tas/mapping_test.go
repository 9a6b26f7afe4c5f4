package tas

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sched/schedtest"
)

// checkMapping verifies a mapping's structure: tasks of the right lengths on open
// queues, no overlap, each job's volume.
func checkMapping(t tb, in *sched.Instance, m *Mapping, rounding Rounding) {
	t.Helper()
	capa := in.Resources[0].Capacity
	open := func(k, slot int) bool { return k < capa[min(slot, len(capa))-1] }
	for k, q := range m.Queues {
		last := 0
		for _, task := range q {
			if task.Start < last || task.End <= task.Start {
				t.Fatalf("queue %d: task %+v overlaps or is empty (previous end %d)", k, task, last)
			}
			for slot := task.Start + 1; slot <= task.End; slot++ {
				if !open(k, slot) {
					t.Fatalf("queue %d is closed in slot %d but runs %+v", k, slot, task)
				}
			}
			R := max(in.Jobs[task.Job].TaskSlots, 1)
			if l := task.End - task.Start; l > R || (rounding == RoundUpTasks && l != R) {
				t.Fatalf("task %+v has length %d, R = %d", task, l, R)
			}
			last = task.End
		}
	}
	for j, job := range in.Jobs {
		eta := job.Demand[0]
		R := max(job.TaskSlots, 1)
		want := eta
		if rounding == RoundUpTasks {
			want = (eta + R - 1) / R * R
		}
		if m.Volume[j] != want {
			t.Fatalf("job %d gets %d container-slots, want %d (η=%d, R=%d)", j, m.Volume[j], want, eta, R)
		}
	}
}

// Theorem 3 on the conditions its proof needs: constant capacity and tasks carrying
// exactly η_i. Every job finishes by T_i + R_i.
func TestMapToQueuesTheorem3(t *testing.T) {
	for _, rounding := range []Rounding{ExactVolume, RoundUpTasks} {
		t.Run(fmt.Sprint(rounding), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				in := schedtest.Instance(rt, schedtest.Config{MaxJobs: 8, MaxSlots: 12, MaxCapacity: 6, TaskSlots: true})
				if rounding == RoundUpTasks {
					// R_i must divide η_i: make task_slots a divisor.
					for j := range in.Jobs {
						for R := in.Jobs[j].TaskSlots; R >= 1; R-- {
							if in.Jobs[j].Demand[0]%R == 0 {
								in.Jobs[j].TaskSlots = R
								break
							}
						}
					}
				}
				res, err := OnionPeel(context.Background(), in, Options{})
				if err != nil {
					rt.Fatal(err)
				}
				m, err := MapToQueues(in, res.Schedule, MappingOptions{Rounding: rounding})
				if err != nil {
					rt.Fatal(err)
				}
				checkMapping(rt, in, m, rounding)
				if len(m.Queues) != in.Resources[0].Capacity[0] {
					rt.Fatalf("%d queues for capacity %d", len(m.Queues), in.Resources[0].Capacity[0])
				}
				for j := range in.Jobs {
					R := max(in.Jobs[j].TaskSlots, 1)
					if m.Completion[j] > m.Target[j]+R {
						rt.Fatalf("job %d: completion %d > T_i + R_i = %d + %d", j, m.Completion[j], m.Target[j], R)
					}
				}
				if !m.BoundHolds {
					rt.Fatalf("late jobs %v", m.Late)
				}
			})
		})
	}
}

// mapEDF schedules in by EDF with the given deadlines and maps the schedule.
func mapEDF(t *testing.T, in *sched.Instance, deadlines []int, rounding Rounding) *Mapping {
	t.Helper()
	s, v := EDF(in, deadlines)
	if v != nil {
		t.Fatal(v)
	}
	m, err := MapToQueues(in, s, MappingOptions{Rounding: rounding})
	if err != nil {
		t.Fatal(err)
	}
	checkMapping(t, in, m, rounding)
	return m
}

// Theorem 3 fails when tasks are rounded up: one container; job b has 1 container-slot of
// work but tasks of 3 slots, so its one task occupies slots 2–4 and job c, due in slot 3
// with R = 1, can only run in slot 5 > T_c + R_c = 4. With exact volume b's task is one
// slot long and everything meets the bound.
func TestMapToQueuesRoundingCounterexample(t *testing.T) {
	in := spec{caps: constCaps(5, 1), demand: [][]int{{1}, {1}, {1}},
		util: []sched.Utility{table(1, 0), table(1, 1, 0), table(1, 1, 1, 0)}}.instance()
	in.Jobs[1].TaskSlots = 3
	m := mapEDF(t, in, []int{1, 2, 3}, RoundUpTasks)
	if m.Completion[2] != 5 || m.BoundHolds || len(m.Late) != 1 || m.Late[0] != 2 {
		t.Fatalf("round-up: completions %v late %v, want job 2 late in slot 5", m.Completion, m.Late)
	}
	if m := mapEDF(t, in, []int{1, 2, 3}, ExactVolume); !m.BoundHolds || m.Completion[2] != 3 {
		t.Fatalf("exact volume: completions %v late %v", m.Completion, m.Late)
	}
}

// Theorem 3 fails when capacity varies over time: the single container is open only in
// slots 4, 6 and 8 (and beyond the horizon). A job of 2 container-slots with R = 2 meets
// its target 6 in the slotted schedule (slots 4 and 6) but a 2-slot task needs two open
// slots in a row: slots 8–9, ending at 9 > T + R = 8. No placement rule helps.
func TestMapToQueuesVaryingCapacityCounterexample(t *testing.T) {
	in := spec{caps: [][]int{{0, 0, 0, 1, 0, 1, 0, 1}}, demand: [][]int{{2}}, util: []sched.Utility{table(1, 1, 1, 1, 1, 1, 0, 0)}}.instance()
	in.Jobs[0].TaskSlots = 2
	for _, rounding := range []Rounding{RoundUpTasks, ExactVolume} {
		m := mapEDF(t, in, []int{6}, rounding)
		if m.Target[0] != 6 || m.Completion[0] != 9 || m.BoundHolds {
			t.Fatalf("%v: target %d completion %d late %v, want 6, 9, [0]", rounding, m.Target[0], m.Completion[0], m.Late)
		}
	}
}

func TestMapToQueuesRejects(t *testing.T) {
	in := spec{caps: constCaps(2, 1), demand: [][]int{{1}}, util: []sched.Utility{table(1, 0)}}.instance()
	if _, err := MapToQueues(in, nil, MappingOptions{}); err == nil {
		t.Fatal("nil schedule accepted")
	}
	s, _ := EDF(in, []int{1})
	if _, err := MapToQueues(in, s, MappingOptions{Resource: 1}); err == nil {
		t.Fatal("resource out of range accepted")
	}
	// A container that is never open again cannot take a task.
	in = spec{caps: [][]int{{1, 0}}, demand: [][]int{{1}}, util: []sched.Utility{table(1, 0)}}.instance()
	in.Jobs[0].TaskSlots = 2
	s, _ = EDF(in, []int{1})
	if _, err := MapToQueues(in, s, MappingOptions{}); err == nil {
		t.Fatal("no error for a task that never fits")
	}
}

// The queue index (constant capacity) places every task where the scan over all queues
// does, for any targets — including targets no schedule meets, which exercise step 3.
func TestMapToQueuesIndexMatchesScan(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in := schedtest.Instance(rt, schedtest.Config{MaxJobs: 12, MaxSlots: 10, MaxCapacity: 5, TaskSlots: true})
		s := &sched.Schedule{Jobs: make([]sched.JobSchedule, len(in.Jobs))}
		for j := range s.Jobs {
			s.Jobs[j].Completion = rapid.IntRange(1, in.Horizon).Draw(rt, fmt.Sprintf("target%d", j))
		}
		rounding := rapid.SampledFrom([]Rounding{ExactVolume, RoundUpTasks}).Draw(rt, "rounding")
		fast, err := MapToQueues(in, s, MappingOptions{Rounding: rounding})
		if err != nil {
			rt.Fatal(err)
		}
		ref, err := mapToQueues(in, s, MappingOptions{Rounding: rounding}, true)
		if err != nil {
			rt.Fatal(err)
		}
		if diff := cmp.Diff(ref, fast); diff != "" {
			rt.Fatalf("queue index differs from the scan (-scan +index):\n%s", diff)
		}
		checkMapping(rt, in, fast, rounding)
	})
}
