package woha

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/coraopt/coraopt/workload/hadoop1"
)

// Job is one wjob J_i^j of woha.txt §II (hadoop1.WorkflowJob): m_i^j map tasks and
// r_i^j reduce tasks with estimated per-task durations M_i^j and R_i^j (§IV-A), and the
// prerequisite set P_i^j by job ID within the same workflow.
type Job = hadoop1.WorkflowJob

// Workflow is W_i = {J_i, P_i, S_i, D_i} of woha.txt §II (hadoop1.Workflow): the
// workload package that generates WOHA's workflows owns the type, and the planner reads
// it.
type Workflow = hadoop1.Workflow

// FieldError is one problem with one field, named by its path from the workload root.
type FieldError struct {
	Path string
	Msg  string
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

// Validate checks every workflow and returns all problems found, joined, each a
// *FieldError whose path reads like workflows[2].jobs[1].after[0]. A nil result means
// every workflow can be handed to Compile, GenerateReqs and the schedulers.
func Validate(ws []Workflow) error {
	var errs []error
	add := func(path, format string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Msg: fmt.Sprintf(format, a...)})
	}
	seenWF := map[string]int{}
	for i := range ws {
		w := &ws[i]
		p := fmt.Sprintf("workflows[%d]", i)
		if w.ID == "" {
			add(p+".id", "must not be empty")
		} else if k, dup := seenWF[w.ID]; dup {
			add(p+".id", "duplicate workflow %q (also workflows[%d])", w.ID, k)
		} else {
			seenWF[w.ID] = i
		}
		if !finite(w.Arrival) || w.Arrival < 0 {
			add(p+".arrival", "must be a finite number >= 0, got %v", w.Arrival)
		}
		if !finite(w.Deadline) || w.Deadline <= 0 {
			add(p+".deadline", "must be a finite number > 0, got %v", w.Deadline)
		}
		errs = append(errs, validateJobs(w, p)...)
	}
	return errors.Join(errs...)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func validateJobs(w *Workflow, p string) []error {
	var errs []error
	add := func(path, format string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Msg: fmt.Sprintf(format, a...)})
	}
	if len(w.Jobs) == 0 {
		add(p+".jobs", "must contain at least one job")
		return errs
	}
	index := map[string]int{}
	for j := range w.Jobs {
		job := &w.Jobs[j]
		jp := fmt.Sprintf("%s.jobs[%d]", p, j)
		if job.ID == "" {
			add(jp+".id", "must not be empty")
		} else if k, dup := index[job.ID]; dup {
			add(jp+".id", "duplicate job %q (also %s.jobs[%d])", job.ID, p, k)
		} else {
			index[job.ID] = j
		}
		if job.Maps < 0 {
			add(jp+".maps", "must be >= 0, got %d", job.Maps)
		}
		if job.Reduces < 0 {
			add(jp+".reduces", "must be >= 0, got %d", job.Reduces)
		}
		if !finite(job.MapTime) || job.MapTime < 0 {
			add(jp+".map_time", "must be a finite number >= 0, got %v", job.MapTime)
		}
		if !finite(job.ReduceTime) || job.ReduceTime < 0 {
			add(jp+".reduce_time", "must be a finite number >= 0, got %v", job.ReduceTime)
		}
	}
	edgesOK := true
	for j := range w.Jobs {
		job := &w.Jobs[j]
		seen := map[string]int{}
		for a, pre := range job.After {
			ap := fmt.Sprintf("%s.jobs[%d].after[%d]", p, j, a)
			k, ok := index[pre]
			switch {
			case !ok:
				add(ap, "unknown job %q", pre)
				edgesOK = false
			case k == j:
				add(ap, "job %q cannot come after itself", pre)
				edgesOK = false
			default:
				if b, dup := seen[pre]; dup {
					add(ap, "duplicate prerequisite %q (also after[%d])", pre, b)
				}
				seen[pre] = a
			}
		}
	}
	if edgesOK && len(index) == len(w.Jobs) {
		if cyc := findCycle(w, index); cyc != nil {
			names := make([]string, len(cyc))
			for k, j := range cyc {
				names[k] = fmt.Sprintf("%q", w.Jobs[j].ID)
			}
			add(fmt.Sprintf("%s.jobs[%d].after", p, cyc[0]), "cycle %s", strings.Join(names, " after "))
		}
	}
	return errs
}

// findCycle returns the job indices of one cycle of "after" edges, first index repeated
// last, so that it reads left to right as "a after b after c after a"; nil if acyclic.
func findCycle(w *Workflow, index map[string]int) []int {
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(w.Jobs))
	parent := make([]int, len(w.Jobs))
	// Iterative DFS over prerequisite edges so that deep chains cannot overflow the stack.
	type frame struct{ j, next int }
	for s := range w.Jobs {
		if color[s] != white {
			continue
		}
		stack := []frame{{s, 0}}
		color[s] = grey
		parent[s] = -1
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			after := w.Jobs[top.j].After
			if top.next == len(after) {
				color[top.j] = black
				stack = stack[:len(stack)-1]
				continue
			}
			k := index[after[top.next]]
			top.next++
			switch color[k] {
			case white:
				color[k] = grey
				parent[k] = top.j
				stack = append(stack, frame{k, 0})
			case grey:
				// top.j waits for k, and parent[x] waits for x along the DFS path from k.
				cyc := []int{k}
				for x := top.j; x != k; x = parent[x] {
					cyc = append(cyc, x)
				}
				cyc = append(cyc, k)
				// cyc is k, top.j, parent(top.j), ..., k: reversed, each entry waits for the next.
				for a, b := 0, len(cyc)-1; a < b; a, b = a+1, b-1 {
					cyc[a], cyc[b] = cyc[b], cyc[a]
				}
				return cyc
			}
		}
	}
	return nil
}

// dag is a validated workflow's structure by job index.
type dag struct {
	prereq     [][]int // P_i^j
	dependents [][]int // D_i^j
	topo       []int   // prerequisites before dependents
}

// compile builds the index form of a workflow that Validate accepted.
func compile(w *Workflow) *dag {
	n := len(w.Jobs)
	index := make(map[string]int, n)
	for j := range w.Jobs {
		index[w.Jobs[j].ID] = j
	}
	d := &dag{prereq: make([][]int, n), dependents: make([][]int, n)}
	indeg := make([]int, n)
	for j := range w.Jobs {
		for _, pre := range w.Jobs[j].After {
			k := index[pre]
			d.prereq[j] = append(d.prereq[j], k)
			d.dependents[k] = append(d.dependents[k], j)
			indeg[j]++
		}
	}
	queue := make([]int, 0, n)
	for j := 0; j < n; j++ {
		if indeg[j] == 0 {
			queue = append(queue, j)
		}
	}
	for h := 0; h < len(queue); h++ {
		for _, k := range d.dependents[queue[h]] {
			indeg[k]--
			if indeg[k] == 0 {
				queue = append(queue, k)
			}
		}
	}
	d.topo = queue
	return d
}
