package workload

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/coraopt/coraopt/sched"
)

// Encode writes w as a workload file that Decode reads back to the same workload. It
// writes one job at a time (jobWriter), holding no copy of the whole document.
func Encode(out io.Writer, w *Workload) error {
	jw, err := startJobs(out, w)
	if err != nil {
		return err
	}
	for i := range w.Jobs {
		if err := jw.job(&w.Jobs[i]); err != nil {
			return err
		}
	}
	return jw.finish(w)
}

// jobWriter writes a workload file as encoding/json writes the whole document's map
// indented by one space — keys sorted: cluster, jobs, name, time_unit, workflows — but
// job by job, so a converter can stream jobs it never holds together (WriteSWF).
type jobWriter struct {
	out  *bufio.Writer
	jobs int
}

// startJobs writes the document up to the jobs array's first element: the cluster is
// w's (validated: pools and workers both set), w.Jobs is not read.
func startJobs(out io.Writer, w *Workload) (*jobWriter, error) {
	jw := &jobWriter{out: bufio.NewWriterSize(out, 1<<16)}
	jw.out.WriteString("{\n \"cluster\": ")
	if err := jw.value(clusterJSON(&w.Cluster), " "); err != nil {
		return nil, err
	}
	jw.out.WriteString(",\n \"jobs\": [")
	return jw, nil
}

// clusterJSON is the file's "cluster" object.
func clusterJSON(c *Cluster) map[string]any {
	cl := map[string]any{}
	if onlyPools(c) {
		cl["pools"] = c.Pools
	} else {
		cl["workers"] = c.Workers
	}
	if len(c.Capacity) > 0 {
		steps := make([][2]any, len(c.Capacity))
		for k, st := range c.Capacity {
			steps[k] = [2]any{st.Time, st.Slots}
		}
		cl["capacity"] = steps
	}
	return cl
}

// value writes v indented as the element of a document whose lines start with prefix.
func (jw *jobWriter) value(v any, prefix string) error {
	data, err := json.MarshalIndent(v, prefix, " ")
	if err != nil {
		return fmt.Errorf("workload: encoding: %w", err)
	}
	jw.out.Write(data)
	return nil
}

// job writes the next job.
func (jw *jobWriter) job(j *Job) error {
	m, err := jobJSON(j)
	if err != nil {
		return fmt.Errorf("workload: jobs[%d].%w", jw.jobs, err)
	}
	jw.next()
	return jw.value(m, "  ")
}

// rendered writes the next job as job would, already rendered by the caller.
func (jw *jobWriter) rendered(data []byte) {
	jw.next()
	jw.out.Write(data)
}

// next starts the next element of the jobs array.
func (jw *jobWriter) next() {
	if jw.jobs > 0 {
		jw.out.WriteByte(',')
	}
	jw.out.WriteString("\n  ")
	jw.jobs++
}

// jobJSON is one element of the file's "jobs".
func jobJSON(j *Job) (map[string]any, error) {
	u, err := utilityJSON(j.Utility)
	if err != nil {
		return nil, fmt.Errorf("utility: %w", err)
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
	if j.Estimates != nil {
		m["estimates"] = j.Estimates
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
	return m, nil
}

// finish closes the jobs array, writes w's name, time unit and workflows, and flushes.
func (jw *jobWriter) finish(w *Workload) error {
	if jw.jobs > 0 {
		jw.out.WriteString("\n ")
	}
	jw.out.WriteString("]")
	if w.Name != "" {
		jw.out.WriteString(",\n \"name\": ")
		if err := jw.value(w.Name, " "); err != nil {
			return err
		}
	}
	if w.TimeUnit != 1 && w.TimeUnit != 0 {
		jw.out.WriteString(",\n \"time_unit\": ")
		if err := jw.value(w.TimeUnit, " "); err != nil {
			return err
		}
	}
	if len(w.Workflows) > 0 {
		jw.out.WriteString(",\n \"workflows\": ")
		if err := jw.value(w.Workflows, " "); err != nil {
			return err
		}
	}
	jw.out.WriteString("\n}\n")
	if err := jw.out.Flush(); err != nil {
		return fmt.Errorf("workload: writing: %w", err)
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
