package external

import (
	"encoding/json"
	"fmt"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/external/protocol"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// describe is w as the hello message describes it: the pools, every worker as the
// engine indexes them (policies.Workers) and the jobs as policies.JobInfos gives them. The capacity trace and true runtimes are
// left out: a policy learns capacity steps as events, runtimes as tasks finish.
func describe(w *workload.Workload, infos []policies.JobInfo) (*protocol.Workload, error) {
	d := &protocol.Workload{Name: w.Name, TimeUnit: w.TimeUnit, Jobs: make([]protocol.Job, len(infos))}
	for _, p := range w.Cluster.Pools {
		d.Pools = append(d.Pools, protocol.Pool{Name: p.Name, Slots: p.Slots})
	}
	for _, wk := range policies.Workers(w) {
		d.Workers = append(d.Workers, protocol.Worker{Slots: wk.Slots, Speed: wk.Speed})
	}
	for i := range infos {
		info := &infos[i]
		u, err := sched.UtilityJSON(info.Utility)
		if err != nil {
			return nil, fmt.Errorf("job %s: %w", info.ID, err)
		}
		j := protocol.Job{ID: info.ID, Arrival: info.Arrival, Rank: info.Rank, Priority: info.Priority,
			Deadline: finite(info.Deadline), Target: finite(info.TargetTime(d.TimeUnit)), Utility: u,
			Workflow: info.Workflow, After: info.After, Estimates: info.Estimates}
		for _, st := range info.Stages {
			j.Stages = append(j.Stages, protocol.Stage{Pool: st.Pool, Tasks: st.Tasks, StartAfter: st.StartAfter,
				Runtime: st.Runtime, Data: st.Data, TaskData: st.TaskData})
		}
		d.Jobs[i] = j
	}
	return d, nil
}

// encodeHello is the hello message as one line.
func encodeHello(h *protocol.Hello) ([]byte, error) {
	data, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("encoding hello: %w", err)
	}
	return append(data, '\n'), nil
}
