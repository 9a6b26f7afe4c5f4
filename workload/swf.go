package workload

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/coraopt/coraopt/sched"
)

// SWFOptions are the documented, configurable rules by which ReadSWF turns a trace of
// the Parallel Workloads Archive into a workload. Traces carry no deadlines or
// utilities, so those are synthesized.
type SWFOptions struct {
	// MaxJobs keeps the first MaxJobs jobs (0: all).
	MaxJobs int
	// DeadlineFactor sets each job's deadline to DeadlineFactor × its runtime after
	// submission (default 3: a job may wait twice its runtime).
	DeadlineFactor float64
	// Decay, when > 0, gives sigmoid utilities (priority 1, the deadline, this decay per
	// time unit); 0 gives step utilities: 1 until the deadline, 0 after.
	Decay float64
	// TimeUnit is the utilities' time unit in seconds (default 60).
	TimeUnit float64
}

// SWFReport says what ReadSWF kept and what it dropped, and why.
type SWFReport struct {
	Lines   int            `json:"lines"` // job lines (not comments)
	Jobs    int            `json:"jobs"`
	Slots   int            `json:"slots"`
	Source  string         `json:"slots_from"` // "MaxProcs", "MaxNodes" or "largest job"
	Dropped map[string]int `json:"dropped"`
	// EdgesDropped counts preceding-job links to jobs that were themselves dropped.
	EdgesDropped int `json:"edges_dropped"`
	// ThinkTimes counts jobs whose think time (field 18) is known: the dependency is
	// kept as an `after` edge, but the delay after the preceding job's end is not
	// modelled — the trace's submit time stands (the simulator has no such delay).
	ThinkTimes int `json:"think_times_not_modelled"`
}

// Reasons a line is dropped.
const (
	dropFields    = "not 18 numeric fields"
	dropPartial   = "partial-execution record (status 2, 3 or 4; the job's summary line is kept)"
	dropRuntime   = "runtime unknown or not positive"
	dropProcs     = "processors unknown or not positive"
	dropSubmit    = "submit time unknown or negative"
	dropCancelled = "cancelled before it ran (status 5, runtime ≤ 0)"
	dropTooWide   = "wider than the machine"
	dropDuplicate = "job number seen before"
)

// ReadSWF reads a Standard Workload Format trace (18 whitespace-separated fields per
// line, `;` comments whose header may give MaxProcs or MaxNodes, −1 for unknown). Each
// kept job becomes one stage of as many tasks as allocated processors (field 5, else
// requested, field 8), each running for the job's runtime (field 4) on one slot of a
// single pool "processors" of MaxProcs slots (else MaxNodes, else the widest job):
// a rigid parallel job as independent tasks, a relaxation of gang scheduling.
// Arrival is the submit time (field 2) less the first kept job's. Status (field 11)
// is honoured: partial-execution records are dropped in favour of the job's summary
// line, a cancelled job that never ran is dropped, failed jobs are kept for the time
// they ran. The preceding job (field 17) becomes an `after` edge when that job is
// kept. Deadlines and utilities follow opt.
func ReadSWF(r io.Reader, opt SWFOptions) (*Workload, *SWFReport, error) {
	if opt.DeadlineFactor == 0 {
		opt.DeadlineFactor = 3
	}
	if opt.TimeUnit == 0 {
		opt.TimeUnit = 60
	}
	if !(opt.DeadlineFactor > 0) || !(opt.TimeUnit > 0) || opt.Decay < 0 || opt.MaxJobs < 0 {
		return nil, nil, fmt.Errorf("workload: swf: need deadline factor > 0, time unit > 0, decay >= 0, max jobs >= 0")
	}
	rep := &SWFReport{Dropped: map[string]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	maxProcs, maxNodes := 0, 0
	type rec struct {
		id, submit, run, procs, prev, think float64
	}
	recs := make([]rec, 0, 1024)
	var f [18]float64
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if line[0] == ';' {
			h := string(line[1:])
			if k, v, ok := strings.Cut(h, ":"); ok {
				n, err := strconv.Atoi(strings.TrimSpace(v))
				switch strings.TrimSpace(k) {
				case "MaxProcs":
					if err == nil {
						maxProcs = n
					}
				case "MaxNodes":
					if err == nil {
						maxNodes = n
					}
				}
			}
			continue
		}
		rep.Lines++
		if !swfFields(line, &f) {
			rep.Dropped[dropFields]++
			continue
		}
		status := f[10]
		procs := f[4]
		if procs <= 0 {
			procs = f[7]
		}
		switch {
		case status >= 2 && status <= 4:
			rep.Dropped[dropPartial]++
		case status == 5 && f[3] <= 0:
			rep.Dropped[dropCancelled]++
		case f[3] <= 0:
			rep.Dropped[dropRuntime]++
		case procs <= 0:
			rep.Dropped[dropProcs]++
		case f[1] < 0:
			rep.Dropped[dropSubmit]++
		default:
			recs = append(recs, rec{id: f[0], submit: f[1], run: f[3], procs: procs, prev: f[16], think: f[17]})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("workload: swf: line %d: %w", lineNo+1, err)
	}
	slots, source := maxProcs, "MaxProcs"
	if slots <= 0 {
		slots, source = maxNodes, "MaxNodes"
	}
	if slots <= 0 {
		source = "largest job"
		for _, r := range recs {
			slots = max(slots, int(r.procs))
		}
	}
	rep.Slots, rep.Source = slots, source
	// SWF files are sorted by submit time; keep that order, stable for ties.
	slices.SortStableFunc(recs, func(a, b rec) int { return cmpFloat(a.submit, b.submit) })
	w := &Workload{TimeUnit: opt.TimeUnit, Cluster: Cluster{Pools: []Pool{{Name: "processors", Slots: slots}}}}
	w.Jobs = make([]Job, 0, len(recs))
	kept := make(map[float64]string, len(recs))
	t0 := math.NaN()
	for _, r := range recs {
		if opt.MaxJobs > 0 && len(w.Jobs) == opt.MaxJobs {
			break
		}
		if int(r.procs) > slots {
			rep.Dropped[dropTooWide]++
			continue
		}
		id := "swf" + strconv.FormatFloat(r.id, 'f', -1, 64)
		if _, dup := kept[r.id]; dup {
			rep.Dropped[dropDuplicate]++
			continue
		}
		if math.IsNaN(t0) {
			t0 = r.submit
		}
		dl := opt.DeadlineFactor * r.run
		var u sched.Utility = sched.Step{Value: 1, Deadline: dl / opt.TimeUnit}
		if opt.Decay > 0 {
			u = sched.Sigmoid{Priority: 1, Deadline: dl / opt.TimeUnit, Decay: opt.Decay}
		}
		job := Job{ID: id, Arrival: r.submit - t0, Priority: 1, Deadline: dl, Utility: u,
			Stages: []Stage{{Pool: "processors", Tasks: int(r.procs), Runtime: &Runtime{Type: "fixed", Value: r.run}}}}
		if r.prev > 0 {
			if dep, ok := kept[r.prev]; ok {
				job.After = []string{dep}
				if r.think >= 0 {
					rep.ThinkTimes++
				}
			} else {
				rep.EdgesDropped++
			}
		}
		kept[r.id] = id
		w.Jobs = append(w.Jobs, job)
	}
	rep.Jobs = len(w.Jobs)
	if len(w.Jobs) == 0 {
		return nil, rep, fmt.Errorf("workload: swf: no usable job in %d lines (dropped: %v)", rep.Lines, rep.Dropped)
	}
	w.Name = fmt.Sprintf("swf-%d-jobs", len(w.Jobs))
	if err := w.Validate(); err != nil {
		return nil, rep, fmt.Errorf("workload: swf: %w", err)
	}
	return w, rep, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// swfFields parses exactly 18 numeric fields into f without allocating.
func swfFields(line []byte, f *[18]float64) bool {
	n := 0
	for i := 0; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if n == 18 {
			return false
		}
		v, err := strconv.ParseFloat(string(line[i:j]), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
		f[n] = v
		n++
		i = j
	}
	return n == 18
}
