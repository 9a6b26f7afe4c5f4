package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/coraopt/coraopt/sched"
)

// MaxInputBytes is the largest workload file Decode reads.
const MaxInputBytes = 256 << 20

// Decode reads one workload file, validates it against the JSON Schema (Schema) and the
// Go checks of Validate, and returns it. A bad file yields a *sched.ValidationError
// listing every problem with its JSON path (`jobs[3].stages[0].pool: unknown pool
// "gpu"`), the same error type the instance file gives, so the CLI exits 2 on both.
func Decode(r io.Reader) (*Workload, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("workload: reading: %w", err)
	}
	return Parse(data)
}

// DecodeFile is Decode on the named file.
func DecodeFile(path string) (*Workload, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	defer f.Close()
	return Decode(f)
}

func invalid(path, format string, args ...any) error {
	return &sched.ValidationError{Problems: []sched.Problem{{Path: path, Msg: fmt.Sprintf(format, args...)}}}
}

// Parse is Decode on a byte slice.
func Parse(data []byte) (*Workload, error) {
	if len(data) > MaxInputBytes {
		return nil, invalid("", "document is larger than %d bytes", MaxInputBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, invalid("", "empty document: expected a JSON object")
	}
	if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte{'\n'})
			return nil, invalid("", "syntax error at line %d (byte %d): %v", line, se.Offset, se)
		}
		return nil, invalid("", "syntax error: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, invalid("", "syntax error: %v", err)
	}
	ps, err := schemaProblems(doc)
	if err != nil {
		return nil, err
	}
	if len(ps) > 0 {
		return nil, &sched.ValidationError{Problems: ps}
	}
	// The document fits the schema, so every value below has the type it should.
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, invalid("", "%v", err)
	}
	w, ps := f.workload()
	if len(ps) > 0 {
		return nil, &sched.ValidationError{Problems: ps}
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

type fileJSON struct {
	Name      string     `json:"name"`
	TimeUnit  *float64   `json:"time_unit"`
	Cluster   clusterJS  `json:"cluster"`
	Jobs      []jobJS    `json:"jobs"`
	Workflows []Workflow `json:"workflows"`
}

type clusterJS struct {
	Pools    []Pool              `json:"pools"`
	Workers  []Worker            `json:"workers"`
	Capacity [][]json.RawMessage `json:"capacity"`
}

type jobJS struct {
	ID        string          `json:"id"`
	Arrival   float64         `json:"arrival"`
	Priority  *float64        `json:"priority"`
	Deadline  float64         `json:"deadline"`
	Utility   json.RawMessage `json:"utility"`
	Stages    []stageJS       `json:"stages"`
	After     []string        `json:"after"`
	Workflow  string          `json:"workflow"`
	Estimates *Estimates      `json:"estimates"`
}

type stageJS struct {
	Pool         string    `json:"pool"`
	Tasks        int       `json:"tasks"`
	Runtime      *Runtime  `json:"runtime"`
	TaskRuntimes []float64 `json:"task_runtimes"`
	Data         float64   `json:"data"`
	TaskData     []float64 `json:"task_data"`
	SlowStart    float64   `json:"slow_start"`
}

func (f *fileJSON) workload() (*Workload, []sched.Problem) {
	var ps []sched.Problem
	w := &Workload{Name: f.Name, TimeUnit: 1}
	if f.TimeUnit != nil {
		w.TimeUnit = *f.TimeUnit
	}
	w.Cluster.Pools = f.Cluster.Pools
	w.Workflows = f.Workflows
	w.Cluster.Workers = f.Cluster.Workers
	for k, raw := range f.Cluster.Capacity {
		var st CapacityStep
		if json.Unmarshal(raw[0], &st.Time) != nil || json.Unmarshal(raw[1], &st.Slots) != nil {
			ps = append(ps, sched.Problem{Path: index("cluster.capacity", k), Msg: "must be [time, {pool: slots}]"})
		}
		w.Cluster.Capacity = append(w.Cluster.Capacity, st)
	}
	w.Jobs = make([]Job, len(f.Jobs))
	for i, jf := range f.Jobs {
		j := &w.Jobs[i]
		*j = Job{ID: jf.ID, Arrival: jf.Arrival, Priority: 1, Deadline: jf.Deadline, After: jf.After, Workflow: jf.Workflow, Estimates: jf.Estimates}
		if jf.Priority != nil {
			j.Priority = *jf.Priority
		}
		u, err := decodeUtility(jf.Utility)
		if err != nil {
			ps = append(ps, sched.Problem{Path: key(index("jobs", i), "utility"), Msg: err.Error()})
		}
		j.Utility = u
		for _, sf := range jf.Stages {
			j.Stages = append(j.Stages, Stage{Pool: sf.Pool, Tasks: sf.Tasks, Runtime: sf.Runtime, TaskRuntimes: sf.TaskRuntimes, Data: sf.Data, TaskData: sf.TaskData, SlowStart: sf.SlowStart})
		}
	}
	return w, ps
}

// decodeUtility reads a utility the schema has accepted into sched's types.
func decodeUtility(raw json.RawMessage) (sched.Utility, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, err
	}
	switch head.Type {
	case "sigmoid":
		return unmarshalAs[sched.Sigmoid](raw)
	case "linear":
		return unmarshalAs[sched.Linear](raw)
	case "step":
		return unmarshalAs[sched.Step](raw)
	case "constant":
		return unmarshalAs[sched.Constant](raw)
	case "piecewise":
		return unmarshalAs[sched.Piecewise](raw)
	case "table":
		return unmarshalAs[sched.Table](raw)
	case "rds":
		return unmarshalAs[sched.RDS](raw)
	}
	return nil, fmt.Errorf("unknown utility type %q", head.Type)
}

func unmarshalAs[U sched.Utility](raw json.RawMessage) (sched.Utility, error) {
	var u U
	if err := json.Unmarshal(raw, &u); err != nil {
		return nil, err
	}
	return u, nil
}

// Validate checks what the schema cannot say and completes the cluster (see
// Cluster): unique job ids and pool names, pools named by workers, stages and the
// capacity trace exist, `after` names known jobs without cycles, one explicit runtime per
// task, at most one of data and task_data, non-increasing utilities, finite positive
// numbers where the simulator divides by them, worker speeds within the schema's
// bounds. It returns a *sched.ValidationError listing every problem.
func (w *Workload) Validate() error {
	var ps []sched.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, sched.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if !(w.TimeUnit > 0) || math.IsInf(w.TimeUnit, 0) {
		add("time_unit", "must be a finite number > 0")
	}
	c := &w.Cluster
	givenPools := len(c.Workers) == 0
	switch {
	case len(c.Pools) > 0 && len(c.Workers) > 0 && !w.completed():
		add("cluster", `must give exactly one of "pools" and "workers"`)
	case len(c.Pools) == 0 && len(c.Workers) == 0:
		add("cluster", `must give one of "pools" and "workers"`)
	case len(c.Workers) == 0:
		seen := map[string]bool{}
		slots := map[string]int{}
		for p, pool := range c.Pools {
			if pool.Name == "" || seen[pool.Name] {
				add(key(index("cluster.pools", p), "name"), "must be a non-empty unique name, got %q", pool.Name)
			}
			if pool.Slots < 0 {
				add(key(index("cluster.pools", p), "slots"), "must be >= 0")
			}
			seen[pool.Name] = true
			slots[pool.Name] = pool.Slots
		}
		c.Workers = []Worker{{Count: 1, Slots: slots, Speed: 1}}
	case len(c.Pools) == 0:
		totals := map[string]int{}
		for k := range c.Workers {
			wk := &c.Workers[k]
			p := index("cluster.workers", k)
			if wk.Count == 0 {
				wk.Count = 1
			}
			if wk.Speed == 0 {
				wk.Speed = 1
			}
			if wk.Count < 0 {
				add(key(p, "count"), "must be >= 1")
			}
			if lim := limits(); !(wk.Speed >= lim.MinSpeed && wk.Speed <= lim.MaxSpeed) {
				add(key(p, "speed"), "must be in [%g, %g], got %g", lim.MinSpeed, lim.MaxSpeed, wk.Speed)
			}
			for name, n := range wk.Slots {
				if name == "" || n < 0 {
					add(key(key(p, "slots"), name), "must name a pool and give slots >= 0")
				}
				totals[name] += wk.Count * n
			}
		}
		names := make([]string, 0, len(totals))
		for name := range totals {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			c.Pools = append(c.Pools, Pool{Name: name, Slots: totals[name]})
		}
	}
	for k, st := range c.Capacity {
		p := index("cluster.capacity", k)
		if !(st.Time >= 0) || math.IsInf(st.Time, 0) || (k > 0 && st.Time <= c.Capacity[k-1].Time) {
			add(index(p, 0), "must be a finite time >= 0, later than the previous step's")
		}
		names := make([]string, 0, len(st.Slots))
		for name := range st.Slots {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if c.PoolIndex(name) < 0 {
				add(key(index(p, 1), name), "unknown pool %q", name)
			} else if st.Slots[name] < 0 {
				add(key(index(p, 1), name), "must be >= 0")
			}
		}
	}
	ids := make(map[string]int, len(w.Jobs))
	for i := range w.Jobs {
		if prev, dup := ids[w.Jobs[i].ID]; dup {
			add(key(index("jobs", i), "id"), "duplicate id %q (jobs[%d] has it)", w.Jobs[i].ID, prev)
			continue
		} else if w.Jobs[i].ID == "" {
			add(key(index("jobs", i), "id"), "must not be empty")
			continue
		}
		ids[w.Jobs[i].ID] = i
	}
	wfs := w.validateWorkflows(add)
	for i := range w.Jobs {
		j := &w.Jobs[i]
		p := index("jobs", i)
		w.completeFromWorkflow(wfs, i, add)
		finite := func(field string, v float64, lo float64) {
			if !(v >= lo) || math.IsInf(v, 0) {
				add(key(p, field), "must be a finite number >= %g", lo)
			}
		}
		finite("arrival", j.Arrival, 0)
		finite("deadline", j.Deadline, 0)
		if !(j.Priority > 0) || math.IsInf(j.Priority, 0) {
			add(key(p, "priority"), "must be a finite number > 0")
		}
		if msg := checkUtility(j.Utility); msg != "" {
			add(key(p, "utility"), "%s", msg)
		}
		if len(j.Stages) == 0 {
			add(key(p, "stages"), "must have at least 1 stage")
		}
		for s := range j.Stages {
			sp := index(key(p, "stages"), s)
			checkStage(c, &j.Stages[s], sp, add)
			st := &j.Stages[s]
			if st.SlowStart == 0 {
				st.SlowStart = 1
			}
			switch f := st.SlowStart; {
			case !(f > 0 && f <= 1):
				add(key(sp, "slow_start"), "must be a fraction in (0, 1]")
			case s == 0 && f != 1:
				add(key(sp, "slow_start"), "the first stage has no previous stage to overlap")
			}
		}
		for k, dep := range j.After {
			d, ok := ids[dep]
			switch {
			case !ok:
				add(index(key(p, "after"), k), "unknown job %q", dep)
			case d == i:
				add(index(key(p, "after"), k), "a job cannot wait for itself")
			}
		}
	}
	checkEmptyPools(w, givenPools, add)
	if len(ps) == 0 {
		if cyc := w.cycle(ids); cyc != "" {
			add("jobs", "the after edges form a cycle: %s", cyc)
		}
	}
	if len(ps) > 0 {
		return &sched.ValidationError{Problems: ps}
	}
	return nil
}

// checkEmptyPools refuses a pool with no slot that a stage runs on: no capacity step
// can raise a pool above its slots, so the run could only stop with the job stuck.
// The problem names the pool's slots field (cluster.pools[i].slots; cluster.workers when
// the cluster is given as workers) and the first stage on it.
func checkEmptyPools(w *Workload, givenPools bool, add func(string, string, ...any)) {
	reported := map[int]bool{}
	for i := range w.Jobs {
		for s, st := range w.Jobs[i].Stages {
			k := w.Cluster.PoolIndex(st.Pool)
			if k < 0 || w.Cluster.Pools[k].Slots != 0 || reported[k] {
				continue
			}
			reported[k] = true
			user := index(key(index("jobs", i), "stages"), s)
			if givenPools {
				add(key(index("cluster.pools", k), "slots"), "must be >= 1: %s runs on pool %q", user, st.Pool)
			} else {
				add("cluster.workers", "pool %q has 0 slots on every worker: %s runs on it", st.Pool, user)
			}
		}
	}
}

// validateWorkflows checks the declared workflows and returns their indices by id.
func (w *Workload) validateWorkflows(add func(string, string, ...any)) map[string]int {
	ids := make(map[string]int, len(w.Workflows))
	for k, wf := range w.Workflows {
		p := index("workflows", k)
		if _, dup := ids[wf.ID]; dup || wf.ID == "" {
			add(key(p, "id"), "must be a non-empty unique id, got %q", wf.ID)
		}
		ids[wf.ID] = k
		if !(wf.Arrival >= 0) || math.IsInf(wf.Arrival, 0) {
			add(key(p, "arrival"), "must be a finite number >= 0")
		}
		if !(wf.Deadline > 0) || math.IsInf(wf.Deadline, 0) {
			add(key(p, "deadline"), "must be a finite number > 0 (seconds after arrival)")
		}
	}
	return ids
}

// completeFromWorkflow checks job i against its declared workflow, if any, and gives it
// the workflow's deadline when it has none of its own. When workflows are declared every
// job's workflow must be one of them.
func (w *Workload) completeFromWorkflow(wfs map[string]int, i int, add func(string, string, ...any)) {
	j := &w.Jobs[i]
	p := index("jobs", i)
	if e := j.Estimates; e != nil {
		for _, f := range []struct {
			name string
			v    float64
		}{{"map_time", e.MapTime}, {"reduce_time", e.ReduceTime}, {"eta", e.Eta}, {"cm_max", e.CmMax}, {"cr_max", e.CrMax}} {
			if !(f.v >= 0) || math.IsInf(f.v, 0) {
				add(key(key(p, "estimates"), f.name), "must be a finite number >= 0")
			}
		}
	}
	if len(w.Workflows) == 0 || j.Workflow == "" {
		return
	}
	k, ok := wfs[j.Workflow]
	if !ok {
		add(key(p, "workflow"), "unknown workflow %q (not in workflows)", j.Workflow)
		return
	}
	wf := &w.Workflows[k]
	if j.Arrival < wf.Arrival {
		add(key(p, "arrival"), "%g is before its workflow %q is submitted (%g)", j.Arrival, wf.ID, wf.Arrival)
		return
	}
	if j.Deadline == 0 && wf.Deadline > 0 {
		j.Deadline = wf.Arrival + wf.Deadline - j.Arrival
		if !(j.Deadline > 0) {
			add(key(p, "arrival"), "%g is at or after its workflow %q's deadline", j.Arrival, wf.ID)
		}
	}
}

// completed reports whether Validate already filled in the pools from the workers
// (then both are set, and validating again must not call that a conflict).
func (w *Workload) completed() bool {
	totals := map[string]int{}
	for _, wk := range w.Cluster.Workers {
		for name, n := range wk.Slots {
			totals[name] += wk.Count * n
		}
	}
	if len(totals) != len(w.Cluster.Pools) {
		return false
	}
	for _, p := range w.Cluster.Pools {
		if t, ok := totals[p.Name]; !ok || t != p.Slots {
			return false
		}
	}
	return true
}

func checkStage(c *Cluster, st *Stage, p string, add func(string, string, ...any)) {
	if c.PoolIndex(st.Pool) < 0 {
		add(key(p, "pool"), "unknown pool %q (pools are %v)", st.Pool, poolNames(c))
	}
	if st.Tasks < 1 {
		add(key(p, "tasks"), "must be >= 1")
	}
	if !(st.Data >= 0) || math.IsInf(st.Data, 0) {
		add(key(p, "data"), "must be a finite number >= 0")
	}
	if st.Data != 0 && st.TaskData != nil {
		add(p, `must give at most one of "data" and "task_data"`)
	}
	if st.TaskData != nil && len(st.TaskData) != st.Tasks {
		add(key(p, "task_data"), "has %d entries for %d tasks", len(st.TaskData), st.Tasks)
	}
	for k, d := range st.TaskData {
		if !(d >= 0) || math.IsInf(d, 0) {
			add(index(key(p, "task_data"), k), "must be a finite number >= 0")
		}
	}
	switch {
	case (st.Runtime == nil) == (st.TaskRuntimes == nil):
		add(p, `must give exactly one of "runtime" and "task_runtimes"`)
	case st.TaskRuntimes != nil:
		if len(st.TaskRuntimes) != st.Tasks {
			add(key(p, "task_runtimes"), "has %d entries for %d tasks", len(st.TaskRuntimes), st.Tasks)
		}
		for k, r := range st.TaskRuntimes {
			if !(r > 0) || math.IsInf(r, 0) {
				add(index(key(p, "task_runtimes"), k), "must be a finite number > 0")
			}
		}
	default:
		if msg := checkRuntime(st.Runtime); msg != "" {
			add(key(p, "runtime"), "%s", msg)
		}
	}
}

func checkRuntime(r *Runtime) string {
	pos := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	switch r.Type {
	case "fixed":
		if !pos(r.Value) {
			return "value must be a finite number > 0"
		}
	case "gaussian":
		if !pos(r.Mean) || !(r.Std >= 0) || math.IsInf(r.Std, 0) {
			return "mean must be > 0 and std >= 0, both finite"
		}
	case "exponential":
		if !pos(r.Mean) {
			return "mean must be a finite number > 0"
		}
	case "uniform":
		if !pos(r.Min) || !pos(r.Max) || r.Max < r.Min {
			return "min and max must be finite numbers > 0 with min <= max"
		}
	case "empirical":
		if len(r.Samples) == 0 || slices.ContainsFunc(r.Samples, func(v float64) bool { return !pos(v) }) {
			return "samples must be at least one finite number > 0"
		}
	default:
		return fmt.Sprintf("unknown runtime type %q (one of fixed, gaussian, exponential, uniform, empirical)", r.Type)
	}
	return ""
}

// checkUtility says what is wrong with u as a utility of the response time, or "".
// It must be non-increasing, so that completing later never earns more — the property
// the offline bound rests on.
func checkUtility(u sched.Utility) string {
	finite := func(vs ...float64) bool {
		for _, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return true
	}
	switch u := u.(type) {
	case nil:
		return "required"
	case sched.Sigmoid:
		if !finite(u.Priority, u.Deadline, u.Decay) || u.Decay < 0 {
			return "decay must be >= 0 and every field finite"
		}
	case sched.Linear:
		if !finite(u.Priority, u.Budget, u.Slope) || u.Slope < 0 {
			return "slope must be >= 0 and every field finite"
		}
	case sched.Step:
		if !finite(u.Value, u.Deadline, u.Late) || u.Late > u.Value {
			return "late must be <= value (utilities never increase)"
		}
	case sched.Constant:
		if !finite(u.Value) {
			return "value must be finite"
		}
	case sched.Piecewise:
		if len(u.Points) == 0 {
			return "points must not be empty"
		}
		for k, pt := range u.Points {
			if !finite(pt[0], pt[1]) {
				return fmt.Sprintf("points[%d] must be finite", k)
			}
			if k > 0 && (pt[0] < u.Points[k-1][0] || pt[1] > u.Points[k-1][1]) {
				return fmt.Sprintf("points[%d]: times must not decrease and utilities must not increase", k)
			}
		}
	case sched.Table:
		if len(u.Values) == 0 {
			return "values must not be empty"
		}
		for k, v := range u.Values {
			if !finite(v) || (k > 0 && v > u.Values[k-1]) {
				return fmt.Sprintf("values[%d] must be finite and not above values[%d]", k, k-1)
			}
		}
	case sched.RDS:
		if !finite(u.Priority, u.Soft, u.Hard) || u.Soft <= 0 || u.Hard < u.Soft || u.Hard > 2*u.Soft || u.Priority < 0 {
			return "need priority >= 0 and 0 < soft <= hard <= 2·soft (rds.txt eq. 4)"
		}
	default:
		return fmt.Sprintf("unsupported utility type %q", u.Type())
	}
	return ""
}

// cycle returns a cycle of after edges as "a -> b -> a", or "".
func (w *Workload) cycle(ids map[string]int) string {
	state := make([]byte, len(w.Jobs)) // 0 new, 1 on the stack, 2 done
	var stack []int
	var visit func(i int) string
	visit = func(i int) string {
		state[i] = 1
		stack = append(stack, i)
		for _, dep := range w.Jobs[i].After {
			d := ids[dep]
			switch state[d] {
			case 1:
				k := slices.Index(stack, d)
				s := ""
				for _, x := range stack[k:] {
					s += w.Jobs[x].ID + " -> "
				}
				return s + w.Jobs[d].ID
			case 0:
				if c := visit(d); c != "" {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[i] = 2
		return ""
	}
	for i := range w.Jobs {
		if state[i] == 0 {
			if c := visit(i); c != "" {
				return c
			}
		}
	}
	return ""
}
