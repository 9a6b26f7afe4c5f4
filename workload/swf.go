package workload

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
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
	// Load, when > 0, scales the inter-arrival times (every arrival after the first
	// kept job's, by one factor) so that the kept jobs' offered load — their work,
	// runtime × processors, over the machine's processors × the span of their
	// arrivals — is Load, as trace studies compress or stretch a trace to a target
	// utilization; 0 keeps the trace's submit times.
	Load float64
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
	// Cut counts the usable job lines past SWFOptions.MaxJobs, never looked at.
	Cut int `json:"cut_by_max_jobs"`
	// OfferedLoad is the kept jobs' offered load as traced (SWFOptions.Load's
	// definition; 0 when their arrivals span no time); ArrivalScale the factor applied
	// to the inter-arrival times (1 unless SWFOptions.Load is set).
	OfferedLoad  float64 `json:"offered_load"`
	ArrivalScale float64 `json:"arrival_scale"`
}

// Reasons a line is dropped, in plain words (the report's keys); the limits' reasons
// carry the workload file's numbers (swfReasons).
const (
	dropFields     = "not 18 numeric fields"
	dropPartial    = "partial-execution record (status 2, 3 or 4; the job's summary line is kept)"
	dropRuntime    = "runtime unknown or not positive"
	dropProcs      = "processors unknown or not positive"
	dropFractional = "processors not a whole number"
	dropSubmit     = "submit time unknown or negative"
	dropCancelled  = "cancelled before it ran (status 5, runtime ≤ 0)"
	dropTooWide    = "wider than the machine"
	dropDuplicate  = "job number seen before"
)

// swfReasons are the reasons for dropping a job the workload file cannot hold.
type swfReasons struct {
	runtime, deadline, tasks, arrival string
}

func reasonsFor(l fileLimits) swfReasons {
	return swfReasons{
		runtime:  fmt.Sprintf("runtime over %g s, the workload file's limit", l.Runtime),
		deadline: fmt.Sprintf("deadline (deadline factor × runtime) over %g s, the workload file's limit", l.Deadline),
		tasks:    fmt.Sprintf("more than %d processors, the workload file's limit on a stage's tasks", l.Tasks),
		arrival:  fmt.Sprintf("submitted more than %g s after the first kept job, the workload file's limit on arrivals", l.Seconds),
	}
}

// ErrNoSWFJobs is the error (wrapped) of a trace without a usable job; the report
// says why each job line was dropped.
var ErrNoSWFJobs = errors.New("workload: swf: no usable job")

// maxSWFLine is the longest line ReadSWF reads.
const maxSWFLine = 1 << 20

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
// kept. Deadlines and utilities follow opt. A job the workload file cannot hold — a
// runtime, deadline, width or arrival beyond the schema's bounds — is dropped, and the
// report counts it under its reason; a header MaxProcs or MaxNodes beyond the bound on
// a pool's slots is an error. Lines longer than 1 MiB are an error.
func ReadSWF(r io.Reader, opt SWFOptions) (*Workload, *SWFReport, error) {
	t, err := scanSWF(r, opt)
	if err != nil {
		return nil, nil, err
	}
	w := t.header()
	for job := range t.jobs {
		w.Jobs = append(w.Jobs, *job)
	}
	if err := t.finish(w, len(w.Jobs)); err != nil {
		return nil, t.rep, err
	}
	if err := w.Validate(); err != nil {
		return nil, t.rep, fmt.Errorf("workload: swf: %w", err)
	}
	return w, t.rep, nil
}

// WriteSWF is ReadSWF writing the workload file to out (as Encode would write ReadSWF's
// workload) without holding the workload: it keeps a few numbers per job line and
// writes the jobs one at a time. Nothing is written when no job is usable.
func WriteSWF(r io.Reader, out io.Writer, opt SWFOptions) (*SWFReport, error) {
	t, err := scanSWF(r, opt)
	if err != nil {
		return nil, err
	}
	w := t.header()
	if !t.anyUsable() {
		for range t.jobs { // fills in the report; yields nothing
		}
		return t.rep, t.finish(w, 0)
	}
	jw, err := startJobs(out, w)
	if err != nil {
		return t.rep, err
	}
	n := 0
	var buf []byte
	for job := range t.jobs {
		buf = appendSWFJob(buf[:0], job)
		jw.rendered(buf)
		n++
	}
	if err := t.finish(w, n); err != nil {
		return t.rep, err
	}
	return t.rep, jw.finish(w)
}

// swfRecord is what a usable job line keeps until the jobs are written.
type swfRecord struct {
	id, submit, run, prev float64
	procs                 int32
	think                 bool // field 18 is known
}

// swfTrace is a scanned trace: its usable job lines sorted by submit time, the slots,
// the options and the report so far.
type swfTrace struct {
	recs    []swfRecord
	slots   int
	opt     SWFOptions
	rep     *SWFReport
	reasons swfReasons
	lim     fileLimits
}

// scanSWF reads the trace, keeping the usable job lines and counting the others.
func scanSWF(r io.Reader, opt SWFOptions) (*swfTrace, error) {
	if opt.DeadlineFactor == 0 {
		opt.DeadlineFactor = 3
	}
	if opt.TimeUnit == 0 {
		opt.TimeUnit = 60
	}
	switch {
	case !(opt.DeadlineFactor > 0) || math.IsInf(opt.DeadlineFactor, 0):
		return nil, fmt.Errorf("workload: swf: deadline factor %g: need a finite number > 0", opt.DeadlineFactor)
	case !(opt.TimeUnit > 0) || math.IsInf(opt.TimeUnit, 0):
		return nil, fmt.Errorf("workload: swf: time unit %g: need a finite number > 0", opt.TimeUnit)
	case !(opt.Decay >= 0) || math.IsInf(opt.Decay, 0):
		return nil, fmt.Errorf("workload: swf: decay %g: need a finite number >= 0", opt.Decay)
	case opt.MaxJobs < 0:
		return nil, fmt.Errorf("workload: swf: max jobs %d: need 0 (all) or more", opt.MaxJobs)
	case !(opt.Load >= 0) || math.IsInf(opt.Load, 0):
		return nil, fmt.Errorf("workload: swf: load %g: need a finite number > 0 (or 0: as traced)", opt.Load)
	}
	lim := limits()
	t := &swfTrace{opt: opt, rep: &SWFReport{Dropped: map[string]int{}}, reasons: reasonsFor(lim), lim: lim}
	rep := t.rep
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxSWFLine)
	maxProcs, maxNodes := 0, 0
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
				k = strings.TrimSpace(k)
				if (k == "MaxProcs" || k == "MaxNodes") && err == nil && n > lim.Slots {
					return nil, fmt.Errorf("workload: swf: line %d: header %s: %d is more than a workload pool may have (%d slots)", lineNo, k, n, lim.Slots)
				}
				switch k {
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
		switch run := f[3]; {
		case status >= 2 && status <= 4:
			rep.Dropped[dropPartial]++
		case status == 5 && run <= 0:
			rep.Dropped[dropCancelled]++
		case run <= 0:
			rep.Dropped[dropRuntime]++
		case procs <= 0:
			rep.Dropped[dropProcs]++
		case f[1] < 0:
			rep.Dropped[dropSubmit]++
		case procs != math.Trunc(procs):
			rep.Dropped[dropFractional]++
		case procs > float64(lim.Tasks):
			rep.Dropped[t.reasons.tasks]++
		case run > lim.Runtime:
			rep.Dropped[t.reasons.runtime]++
		case !(opt.DeadlineFactor*run <= lim.Deadline):
			rep.Dropped[t.reasons.deadline]++
		default:
			t.recs = append(t.recs, swfRecord{id: f[0], submit: f[1], run: run, procs: int32(procs), prev: f[16], think: f[17] >= 0})
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("workload: swf: line %d is longer than %d bytes", lineNo+1, maxSWFLine)
		}
		return nil, fmt.Errorf("workload: swf: line %d: %w", lineNo+1, err)
	}
	t.slots, rep.Source = maxProcs, "MaxProcs"
	if t.slots <= 0 {
		t.slots, rep.Source = maxNodes, "MaxNodes"
	}
	if t.slots <= 0 {
		rep.Source = "largest job"
		for _, r := range t.recs {
			t.slots = max(t.slots, int(r.procs))
		}
	}
	rep.Slots = t.slots
	// SWF files are sorted by submit time; keep that order, stable for ties.
	slices.SortStableFunc(t.recs, func(a, b swfRecord) int { return cmpFloat(a.submit, b.submit) })
	t.scaleLoad()
	return t, nil
}

// scaleLoad sets the report's offered load and arrival scale from the jobs that jobs
// will keep before the arrival limit (which depends on the scale, and so is left out).
func (t *swfTrace) scaleLoad() {
	rep := t.rep
	rep.ArrivalScale = 1
	work, first, last, n := 0.0, math.NaN(), math.NaN(), 0
	seen := make(map[float64]struct{}, min(len(t.recs), max(t.opt.MaxJobs, 1024)))
	for _, r := range t.recs {
		if t.opt.MaxJobs > 0 && n == t.opt.MaxJobs {
			break
		}
		if _, dup := seen[r.id]; dup || int(r.procs) > t.slots {
			continue
		}
		seen[r.id] = struct{}{}
		if n == 0 {
			first = r.submit
		}
		last = r.submit
		work += r.run * float64(r.procs)
		n++
	}
	if n < 2 || !(last > first) || t.slots <= 0 {
		return
	}
	rep.OfferedLoad = work / (float64(t.slots) * (last - first))
	if t.opt.Load > 0 {
		rep.ArrivalScale = rep.OfferedLoad / t.opt.Load
	}
}

// header is the workload without its jobs.
func (t *swfTrace) header() *Workload {
	return &Workload{TimeUnit: t.opt.TimeUnit, Cluster: Cluster{Pools: []Pool{{Name: "processors", Slots: t.slots}}}}
}

// anyUsable reports whether jobs will yield a job: the first record that fits the
// machine is always kept.
func (t *swfTrace) anyUsable() bool {
	return slices.ContainsFunc(t.recs, func(r swfRecord) bool { return int(r.procs) <= t.slots })
}

// jobs yields the kept jobs in submit order, counting the records it drops. The job
// yielded is the caller's to keep.
func (t *swfTrace) jobs(yield func(*Job) bool) {
	rep, opt := t.rep, t.opt
	kept := make(map[float64]struct{}, min(len(t.recs), max(opt.MaxJobs, 1024)))
	t0 := math.NaN()
	n := 0
	for k, r := range t.recs {
		if opt.MaxJobs > 0 && n == opt.MaxJobs {
			rep.Cut = len(t.recs) - k
			break
		}
		if int(r.procs) > t.slots {
			rep.Dropped[dropTooWide]++
			continue
		}
		if _, dup := kept[r.id]; dup {
			rep.Dropped[dropDuplicate]++
			continue
		}
		if math.IsNaN(t0) {
			t0 = r.submit
		}
		arrival := (r.submit - t0) * rep.ArrivalScale
		if !(arrival <= t.lim.Seconds) {
			rep.Dropped[t.reasons.arrival]++
			continue
		}
		dl := opt.DeadlineFactor * r.run
		var u sched.Utility = sched.Step{Value: 1, Deadline: dl / opt.TimeUnit}
		if opt.Decay > 0 {
			u = sched.Sigmoid{Priority: 1, Deadline: dl / opt.TimeUnit, Decay: opt.Decay}
		}
		job := &Job{ID: swfID(r.id), Arrival: arrival, Priority: 1, Deadline: dl, Utility: u,
			Stages: []Stage{{Pool: "processors", Tasks: int(r.procs), Runtime: &Runtime{Type: "fixed", Value: r.run}}}}
		if r.prev > 0 {
			if _, ok := kept[r.prev]; ok {
				job.After = []string{swfID(r.prev)}
				if r.think {
					rep.ThinkTimes++
				}
			} else {
				rep.EdgesDropped++
			}
		}
		kept[r.id] = struct{}{}
		n++
		if !yield(job) {
			return
		}
	}
}

// finish completes the report and names the workload after its n jobs.
func (t *swfTrace) finish(w *Workload, n int) error {
	t.rep.Jobs = n
	if n == 0 {
		return fmt.Errorf("%w in %d job lines; dropped %s", ErrNoSWFJobs, t.rep.Lines, t.rep.DroppedText())
	}
	w.Name = fmt.Sprintf("swf-%d-jobs", n)
	return nil
}

// appendSWFJob appends a job that swfTrace.jobs made as jobWriter.job writes it (keys
// sorted, indented as the jobs array's element), without the maps and reflection of
// the general path: a 10^6-line trace spends most of its time here.
// TestSWFJobRendering checks it against jobWriter.job.
func appendSWFJob(b []byte, j *Job) []byte {
	st := &j.Stages[0]
	b = append(b, "{\n"...)
	if len(j.After) > 0 {
		b = append(b, "   \"after\": [\n    \""...)
		b = append(b, j.After[0]...) // "swf" and a number: nothing to escape
		b = append(b, "\"\n   ],\n"...)
	}
	b = append(b, "   \"arrival\": "...)
	b = appendJSONFloat(b, j.Arrival)
	if j.Deadline > 0 {
		b = append(b, ",\n   \"deadline\": "...)
		b = appendJSONFloat(b, j.Deadline)
	}
	b = append(b, ",\n   \"id\": \""...)
	b = append(b, j.ID...)
	b = append(b, "\",\n   \"stages\": [\n    {\n     \"pool\": \""...)
	b = append(b, st.Pool...)
	b = append(b, "\",\n     \"runtime\": {\n      \"type\": \"fixed\",\n      \"value\": "...)
	b = appendJSONFloat(b, st.Runtime.Value)
	b = append(b, "\n     },\n     \"tasks\": "...)
	b = strconv.AppendInt(b, int64(st.Tasks), 10)
	b = append(b, "\n    }\n   ],\n   \"utility\": {\n"...)
	switch u := j.Utility.(type) {
	case sched.Step:
		b = append(b, "    \"deadline\": "...)
		b = appendJSONFloat(b, u.Deadline)
		b = append(b, ",\n    \"type\": \"step\",\n    \"value\": "...)
		b = appendJSONFloat(b, u.Value)
	case sched.Sigmoid:
		b = append(b, "    \"deadline\": "...)
		b = appendJSONFloat(b, u.Deadline)
		b = append(b, ",\n    \"decay\": "...)
		b = appendJSONFloat(b, u.Decay)
		b = append(b, ",\n    \"priority\": "...)
		b = appendJSONFloat(b, u.Priority)
		b = append(b, ",\n    \"type\": \"sigmoid\""...)
	}
	return append(b, "\n   }\n  }"...)
}

// appendJSONFloat appends f as encoding/json writes a float64: the shortest
// representation, in exponent form below 1e-6 and from 1e21 on, with the exponent's
// leading zero dropped (1e-07 → 1e-7).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// swfID is the job id of SWF job number id.
func swfID(id float64) string { return "swf" + strconv.FormatFloat(id, 'f', -1, 64) }

// DroppedCounts lists how many job lines were dropped for each reason, most first
// (ties by reason): "3 not 18 numeric fields", "1 wider than the machine".
func (r *SWFReport) DroppedCounts() []string {
	reasons := slices.Collect(maps.Keys(r.Dropped))
	slices.SortFunc(reasons, func(a, b string) int {
		return cmp.Or(cmp.Compare(r.Dropped[b], r.Dropped[a]), strings.Compare(a, b))
	})
	out := make([]string, len(reasons))
	for k, reason := range reasons {
		out[k] = fmt.Sprintf("%d %s", r.Dropped[reason], reason)
	}
	return out
}

// DroppedText is DroppedCounts on one line after their total: "4: 3 not 18 numeric
// fields; 1 wider than the machine", or "none".
func (r *SWFReport) DroppedText() string {
	total := 0
	for _, n := range r.Dropped {
		total += n
	}
	if total == 0 {
		return "none"
	}
	return fmt.Sprintf("%d: %s", total, strings.Join(r.DroppedCounts(), "; "))
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
