package workload

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/coraopt/coraopt/sched"
)

// Encode writes w as a workload file that Decode reads back to the same workload.
func Encode(out io.Writer, w *Workload) error {
	f := map[string]any{"jobs": nil}
	if w.Name != "" {
		f["name"] = w.Name
	}
	if w.TimeUnit != 1 && w.TimeUnit != 0 {
		f["time_unit"] = w.TimeUnit
	}
	cl := map[string]any{}
	if onlyPools(&w.Cluster) {
		cl["pools"] = w.Cluster.Pools
	} else {
		cl["workers"] = w.Cluster.Workers
	}
	if len(w.Cluster.Capacity) > 0 {
		steps := make([][2]any, len(w.Cluster.Capacity))
		for k, st := range w.Cluster.Capacity {
			steps[k] = [2]any{st.Time, st.Slots}
		}
		cl["capacity"] = steps
	}
	f["cluster"] = cl
	jobs := make([]map[string]any, len(w.Jobs))
	for i := range w.Jobs {
		j := &w.Jobs[i]
		u, err := utilityJSON(j.Utility)
		if err != nil {
			return fmt.Errorf("workload: jobs[%d].utility: %w", i, err)
		}
		m := map[string]any{"id": j.ID, "arrival": j.Arrival, "utility": u}
		if j.Priority != 1 {
			m["priority"] = j.Priority
		}
		if j.Deadline > 0 {
			m["deadline"] = j.Deadline
		}
		if len(j.After) > 0 {
			m["after"] = j.After
		}
		if j.Workflow != "" {
			m["workflow"] = j.Workflow
		}
		stages := make([]map[string]any, len(j.Stages))
		for s, st := range j.Stages {
			sm := map[string]any{"pool": st.Pool, "tasks": st.Tasks}
			if st.TaskRuntimes != nil {
				sm["task_runtimes"] = st.TaskRuntimes
			} else {
				sm["runtime"] = st.Runtime
			}
			if st.Data > 0 {
				sm["data"] = st.Data
			}
			if st.TaskData != nil {
				sm["task_data"] = st.TaskData
			}
			if st.SlowStart != 0 && st.SlowStart != 1 {
				sm["slow_start"] = st.SlowStart
			}
			stages[s] = sm
		}
		m["stages"] = stages
		jobs[i] = m
	}
	f["jobs"] = jobs
	enc := json.NewEncoder(out)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("workload: encoding: %w", err)
	}
	return nil
}

// onlyPools reports whether the workers are the single speed-1 worker Validate makes
// from a pools-only file.
func onlyPools(c *Cluster) bool {
	if len(c.Workers) == 0 {
		return true
	}
	if len(c.Workers) != 1 || c.Workers[0].Count != 1 || c.Workers[0].Speed != 1 {
		return false
	}
	for _, p := range c.Pools {
		if c.Workers[0].Slots[p.Name] != p.Slots {
			return false
		}
	}
	return len(c.Workers[0].Slots) == len(c.Pools)
}

// utilityJSON is u's JSON object with its "type".
func utilityJSON(u sched.Utility) (map[string]any, error) {
	if u == nil {
		return nil, fmt.Errorf("no utility")
	}
	data, err := json.Marshal(u)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	m["type"] = u.Type()
	return m, nil
}

// poolNames lists the pool names, sorted, for messages.
func poolNames(c *Cluster) []string {
	names := make([]string, len(c.Pools))
	for k := range c.Pools {
		names[k] = c.Pools[k].Name
	}
	sort.Strings(names)
	return names
}
