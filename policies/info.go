package policies

import (
	"cmp"
	"math"
	"slices"

	"github.com/coraopt/coraopt/workload"
)

// JobInfos is what View.Job answers for every job of w (validated), in workload order:
// what a policy may know about the jobs in advance. The engine builds its View from
// it, and an external policy's handshake (policies/external) sends the same, so both
// see one description.
func JobInfos(w *workload.Workload) []JobInfo {
	n := len(w.Jobs)
	ids := make(map[string]int, n)
	for i := range w.Jobs {
		ids[w.Jobs[i].ID] = i
	}
	infos := make([]JobInfo, n)
	for i := range w.Jobs {
		j := &w.Jobs[i]
		dl := math.Inf(1)
		if j.Deadline > 0 {
			dl = j.Arrival + j.Deadline
		}
		info := JobInfo{Index: i, ID: j.ID, Arrival: j.Arrival, Priority: j.Priority, Deadline: dl,
			Utility: j.Utility, Workflow: j.Workflow, Estimates: j.Estimates}
		for s, st := range j.Stages {
			si := StageInfo{Pool: w.Cluster.PoolIndex(st.Pool), Tasks: st.Tasks, Data: st.Data, TaskData: st.TaskData, Runtime: st.Runtime}
			if s > 0 {
				si.StartAfter = startAfter(st.SlowStart, j.Stages[s-1].Tasks)
			}
			info.Stages = append(info.Stages, si)
		}
		for _, dep := range j.After {
			info.After = append(info.After, ids[dep])
		}
		infos[i] = info
	}
	for r, i := range RankOrder(w) {
		infos[i].Rank = r
	}
	return infos
}

// Workers lists w's machines as the engine indexes them (Slot.Worker, View.Workers): a
// workload worker with Count n is n entries, each with its slots per pool (indexed like
// w.Cluster.Pools; the n entries share one slice) and its speed.
func Workers(w *workload.Workload) []Worker {
	var out []Worker
	for _, wk := range w.Cluster.Workers {
		slots := make([]int, len(w.Cluster.Pools))
		for name, s := range wk.Slots {
			slots[w.Cluster.PoolIndex(name)] = s
		}
		for range wk.Count {
			out = append(out, Worker{Slots: slots, Speed: wk.Speed})
		}
	}
	return out
}

// RankOrder lists w's job indices in (arrival, id) order: JobInfo.Rank's order, in
// which jobs arrive at the engine.
func RankOrder(w *workload.Workload) []int {
	order := make([]int, len(w.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(w.Jobs[a].Arrival, w.Jobs[b].Arrival), cmp.Compare(w.Jobs[a].ID, w.Jobs[b].ID))
	})
	return order
}

// startAfter is Hadoop's slow start threshold: the fraction of the previous stage's
// prev tasks, rounded up (a fraction 0, absent, or 1 waits for all of them).
func startAfter(slowStart float64, prev int) int {
	if slowStart == 0 || slowStart >= 1 {
		return prev
	}
	return int(math.Ceil(slowStart*float64(prev) - 1e-9))
}
