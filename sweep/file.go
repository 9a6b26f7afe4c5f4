package sweep

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

//go:embed sweep.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the sweep file, as published in
// sweep/sweep.schema.json (a fresh copy on each call). Parse checks the same rules in Go
// so that every problem is reported at its JSON path; a test holds the two together.
func Schema() []byte { return slices.Clone(schemaJSON) }

// MaxFileBytes is the largest sweep file Parse reads.
const MaxFileBytes = 16 << 20

// MaxCells bounds the grid's size (workloads × policies × seeds).
const MaxCells = 1 << 24

// File is a parsed sweep file.
type File struct {
	// Name labels the sweep (job names on Slurm); it does not enter the fingerprint.
	Name      string
	Workloads []WorkloadSpec
	Policies  []PolicySpec
	// Seeds are the seeds of the true task runtimes, in file order ("seeds", or
	// "replications" R from "seed" s: s, s+1, …, s+R−1).
	Seeds []uint64
	// Bound scores each cell against the offline bound in slots of Slot seconds.
	Bound bool
	Slot  float64
	// Metrics are the sim.Metrics keys each record keeps, in the order of AllMetrics.
	Metrics []string
	// Check verifies the simulator's invariants on every run (slower).
	Check bool
}

// WorkloadSpec is a workload file (Path, relative to the sweep file's directory unless
// absolute) or a generator (Family with Jobs, Seed and, for rush, BudgetRatio).
type WorkloadSpec struct {
	Path        string
	Family      string
	Jobs        int
	Seed        uint64
	BudgetRatio float64
}

// Label names the workload in records and aggregates: the path as the sweep file
// writes it, or family:jobs=N:seed=S (with :budget_ratio=R for rush).
func (w WorkloadSpec) Label() string {
	if w.Path != "" {
		return w.Path
	}
	l := fmt.Sprintf("%s:jobs=%d:seed=%d", w.Family, w.Jobs, w.Seed)
	if w.Family == "rush" {
		l += ":budget_ratio=" + strconv.FormatFloat(w.BudgetRatio, 'g', -1, 64)
	}
	return l
}

// PolicySpec is a registered policy (policies/all) with its parameters, or an external
// policy: a program (Exec, a command line) that speaks the policy protocol
// (docs/protocol.md) and receives the parameters in its hello.
type PolicySpec struct {
	Name   string
	Params all.Params
	// Exec is an external policy's command line (the entry's "exec", or CMD of
	// "exec:NAME=CMD"), split at blanks outside quotes and run without a shell in the
	// sweep file's directory; empty for a registered policy.
	Exec string
	// Timeout is the longest wait for each of its replies (the entry's "timeout", in
	// seconds); 0 waits as long as it takes.
	Timeout time.Duration
}

// Label names the policy in records' groups: the name, or name(k=v,…) with the
// parameters in key order and values as JSON writes them.
func (p PolicySpec) Label() string {
	if len(p.Params) == 0 {
		return p.Name
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(p.Params)) {
		v, _ := json.Marshal(p.Params[k])
		parts = append(parts, k+"="+string(v))
	}
	return p.Name + "(" + strings.Join(parts, ",") + ")"
}

// AllMetrics are the sim.Metrics keys a record may keep, in the order records list
// them ("name" and "timing" are not metrics: the policy is the record's, timing is
// kept apart).
var AllMetrics = []string{
	"min_utility", "sum_utility", "zero_utility_jobs", "deadlines_met", "jobs_with_deadline",
	"rejected", "deadline_miss_penalty", "mean_tardiness", "utilization", "makespan",
	"mean_response", "events", "decision_rounds", "clairvoyant", "vs_bound",
	"sorted_utilities", "jobs",
}

// defaultMetrics are kept when the file names none: every scalar metric.
var defaultMetrics = AllMetrics[:len(AllMetrics)-2]

// aggregated are the metrics Merge aggregates; every record keeps them.
var aggregated = []string{"min_utility", "sum_utility", "deadlines_met", "deadline_miss_penalty"}

// problems collects path-precise problems in document order.
type problems []sched.Problem

func (ps *problems) add(path, format string, args ...any) {
	*ps = append(*ps, sched.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Parse reads a sweep file. A bad file yields a *sched.ValidationError listing every
// problem with its JSON path (`policies[1].delta: must be a number`), the error type
// the instance and workload files give, so the CLI exits 2 on all of them. Policies are
// checked against the registry by constructing each once with its parameters.
func Parse(data []byte) (*File, error) {
	f, _, ps, err := parse(data)
	if err != nil {
		return nil, err
	}
	if len(ps) > 0 {
		return nil, &sched.ValidationError{Problems: ps}
	}
	return f, nil
}

// parse reads what it can of a sweep file: the file with every field that parsed, the
// index in the document's workloads of each of f.Workloads (a bad entry is left out) and
// the problems. A document that is no JSON object is an error (a *sched.ValidationError)
// with no file.
func parse(data []byte) (f *File, workloadAt []int, ps problems, err error) {
	if len(data) > MaxFileBytes {
		return nil, nil, nil, invalid("", "document is larger than %d bytes", MaxFileBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, nil, invalid("", "empty document: expected a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte{'\n'})
			return nil, nil, nil, invalid("", "syntax error at line %d (byte %d): %v", line, se.Offset, se)
		}
		return nil, nil, nil, invalid("", "syntax error: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, nil, invalid("", "syntax error: more than one JSON value")
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return nil, nil, nil, invalid("", "must be an object, got %s", typeName(doc))
	}
	f = &File{Slot: 60}
	for _, k := range slices.Sorted(maps.Keys(top)) {
		switch k {
		case "name", "workloads", "policies", "seeds", "replications", "seed", "bound", "slot", "metrics", "check":
		default:
			ps.add(k, "unknown field")
		}
	}
	if v, ok := top["name"]; ok {
		f.Name, _ = str(&ps, "name", v)
	}
	f.Workloads, workloadAt = parseWorkloads(&ps, top)
	f.Policies = parsePolicies(&ps, top)
	f.Seeds = parseSeeds(&ps, top)
	if v, ok := top["bound"]; ok {
		f.Bound = boolean(&ps, "bound", v)
	}
	if v, ok := top["slot"]; ok {
		if x, ok := number(&ps, "slot", v); ok {
			if !(x > 0) || math.IsInf(x, 0) {
				ps.add("slot", "must be > 0")
			}
			f.Slot = x
		}
	}
	if v, ok := top["check"]; ok {
		f.Check = boolean(&ps, "check", v)
	}
	f.Metrics = parseMetrics(&ps, top)
	if len(ps) == 0 {
		if n := len(f.Workloads) * len(f.Policies) * len(f.Seeds); n > MaxCells {
			ps.add("", "the grid has %d cells, more than the limit of %d", n, MaxCells)
		}
	}
	return f, workloadAt, ps, nil
}

func invalid(path, format string, args ...any) error {
	return &sched.ValidationError{Problems: []sched.Problem{{Path: path, Msg: fmt.Sprintf(format, args...)}}}
}

// parseWorkloads returns the workloads that parsed and the index of each in the
// document's list.
func parseWorkloads(ps *problems, top map[string]any) ([]WorkloadSpec, []int) {
	v, ok := top["workloads"]
	if !ok {
		ps.add("workloads", "required")
		return nil, nil
	}
	arr, ok := array(ps, "workloads", v)
	if !ok {
		return nil, nil
	}
	var out []WorkloadSpec
	var at []int
	seen := map[string]int{}
	for i, e := range arr {
		path := fmt.Sprintf("workloads[%d]", i)
		var w WorkloadSpec
		switch x := e.(type) {
		case string:
			if x == "" {
				ps.add(path, "must not be empty")
				continue
			}
			w.Path = x
		case map[string]any:
			var ok bool
			if w, ok = parseGenerator(ps, path, x); !ok {
				continue
			}
		default:
			ps.add(path, "must be a path (string) or a generator {\"family\", \"jobs\", \"seed\"}, got %s", typeName(e))
			continue
		}
		if j, dup := seen[w.Label()]; dup {
			ps.add(path, "the same workload as workloads[%d]", j)
			continue
		}
		seen[w.Label()] = i
		out = append(out, w)
		at = append(at, i)
	}
	return out, at
}

func parseGenerator(ps *problems, path string, x map[string]any) (WorkloadSpec, bool) {
	n := len(*ps)
	w := WorkloadSpec{Seed: 1, BudgetRatio: 2}
	for _, k := range slices.Sorted(maps.Keys(x)) {
		switch k {
		case "family", "jobs", "seed", "budget_ratio":
		default:
			ps.add(path+"."+k, "unknown field")
		}
	}
	if v, ok := x["family"]; !ok {
		ps.add(path+".family", "required")
	} else if s, ok := str(ps, path+".family", v); ok {
		switch s {
		case "cora", "rush", "rds":
			w.Family = s
		default:
			ps.add(path+".family", "must be one of cora, rush, rds, got %q", s)
		}
	}
	if v, ok := x["jobs"]; !ok {
		ps.add(path+".jobs", "required")
	} else if j, ok := integer(ps, path+".jobs", v, 1, workload.MaxGeneratedJobs); ok { // gen's bound
		w.Jobs = int(j)
	}
	if v, ok := x["seed"]; ok {
		if s, ok := integer(ps, path+".seed", v, 0, math.MaxInt64); ok {
			w.Seed = uint64(s)
		}
	}
	if v, ok := x["budget_ratio"]; ok {
		if w.Family != "" && w.Family != "rush" {
			ps.add(path+".budget_ratio", "only the rush family takes a budget ratio")
		} else if r, ok := number(ps, path+".budget_ratio", v); ok {
			if !(r > 0) || math.IsInf(r, 0) {
				ps.add(path+".budget_ratio", "must be > 0")
			}
			w.BudgetRatio = r
		}
	}
	return w, len(*ps) == n
}

func parsePolicies(ps *problems, top map[string]any) []PolicySpec {
	v, ok := top["policies"]
	if !ok {
		ps.add("policies", "required")
		return nil
	}
	arr, ok := array(ps, "policies", v)
	if !ok {
		return nil
	}
	var out []PolicySpec
	var labels []string
	var at []int
	for i, e := range arr {
		path := fmt.Sprintf("policies[%d]", i)
		var p PolicySpec
		switch x := e.(type) {
		case string:
			p.Name = x
			if external.IsSpec(x) {
				c, err := external.ParseSpec(x)
				if err != nil {
					ps.add(path, "%v", err)
					continue
				}
				_, cmd, _ := strings.Cut(x, "=")
				p.Name, p.Exec = c.Name, cmd
			}
		case map[string]any:
			nv, ok := x["name"]
			if !ok {
				ps.add(path+".name", "required")
				continue
			}
			if p.Name, ok = str(ps, path+".name", nv); !ok {
				continue
			}
			if ev, ok := x["exec"]; ok {
				if p.Exec, ok = str(ps, path+".exec", ev); !ok {
					continue
				}
				if _, err := external.SplitCommand(p.Exec); err != nil {
					ps.add(path+".exec", "%v", err)
					continue
				}
				if tv, ok := x["timeout"]; ok {
					n, isNum := tv.(json.Number)
					f, err := n.Float64()
					if !isNum || err != nil || !(f >= 0) || math.IsInf(f, 0) {
						ps.add(path+".timeout", "must be a number of seconds >= 0 (0: no limit), got %v", tv)
						continue
					}
					p.Timeout = time.Duration(f * float64(time.Second))
				}
			}
			for k, pv := range x {
				if k == "name" || (p.Exec != "" && (k == "exec" || k == "timeout")) {
					continue
				}
				if p.Params == nil {
					p.Params = all.Params{}
				}
				p.Params[k] = plain(pv)
			}
		default:
			ps.add(path, "must be a policy name (string) or {\"name\", parameters…}, got %s", typeName(e))
			continue
		}
		if p.Exec != "" {
			if err := external.CheckName(p.Name); err != nil {
				ps.add(path, "%v", err)
				continue
			}
			if slices.Contains(all.Names(), p.Name) {
				ps.add(path, "%q is a registered policy's name; name the exec policy otherwise", p.Name)
				continue
			}
		} else if _, err := all.NewWithParams(p.Name, p.Params); err != nil {
			var pe *all.ParamError
			switch {
			case errors.As(err, &pe) && pe.Key != "":
				ps.add(path+"."+pe.Key, "%s", pe.Msg)
			case errors.As(err, &pe):
				ps.add(path, "%s", pe.Msg)
			default:
				where := path
				if _, isObj := e.(map[string]any); isObj {
					where += ".name"
				}
				ps.add(where, "%v", err)
			}
			continue
		}
		labels = append(labels, p.Label())
		at = append(at, i)
		out = append(out, p)
	}
	// The rule simulate --policies follows: each policy (with its parameters) once.
	if j, k := all.Repeated(labels); k >= 0 {
		ps.add(fmt.Sprintf("policies[%d]", at[k]), "the same policy as policies[%d]", at[j])
	}
	return out
}

func parseSeeds(ps *problems, top map[string]any) []uint64 {
	sv, hasSeeds := top["seeds"]
	rv, hasReps := top["replications"]
	bv, hasBase := top["seed"]
	switch {
	case hasSeeds && (hasReps || hasBase):
		ps.add("seeds", `give either "seeds" or "replications" (with an optional first "seed"), not both`)
		return nil
	case hasSeeds:
		arr, ok := array(ps, "seeds", sv)
		if !ok {
			return nil
		}
		var out []uint64
		seen := map[uint64]int{}
		for i, e := range arr {
			path := fmt.Sprintf("seeds[%d]", i)
			s, ok := integer(ps, path, e, 0, math.MaxInt64)
			if !ok {
				continue
			}
			if j, dup := seen[uint64(s)]; dup {
				ps.add(path, "repeats seeds[%d]", j)
				continue
			}
			seen[uint64(s)] = i
			out = append(out, uint64(s))
		}
		return out
	case hasReps:
		r, ok := integer(ps, "replications", rv, 1, MaxCells)
		if !ok {
			return nil
		}
		base := int64(1)
		if hasBase {
			if base, ok = integer(ps, "seed", bv, 0, math.MaxInt64-MaxCells); !ok {
				return nil
			}
		}
		out := make([]uint64, r)
		for k := range out {
			out[k] = uint64(base) + uint64(k)
		}
		return out
	case hasBase:
		ps.add("replications", `required with "seed"`)
		return nil
	}
	ps.add("seeds", `required: give "seeds" or "replications"`)
	return nil
}

func parseMetrics(ps *problems, top map[string]any) []string {
	v, ok := top["metrics"]
	if !ok {
		return slices.Clone(defaultMetrics)
	}
	arr, ok := array(ps, "metrics", v)
	if !ok {
		return nil
	}
	keep := map[string]bool{}
	for _, k := range aggregated {
		keep[k] = true
	}
	keep["vs_bound"] = true // kept whenever there is a bound
	for i, e := range arr {
		path := fmt.Sprintf("metrics[%d]", i)
		s, ok := str(ps, path, e)
		if !ok {
			continue
		}
		if !slices.Contains(AllMetrics, s) {
			ps.add(path, "unknown metric %q (have %s)", s, strings.Join(AllMetrics, ", "))
			continue
		}
		keep[s] = true
	}
	var out []string
	for _, m := range AllMetrics {
		if keep[m] {
			out = append(out, m)
		}
	}
	return out
}

func array(ps *problems, path string, v any) ([]any, bool) {
	arr, ok := v.([]any)
	if !ok {
		ps.add(path, "must be an array, got %s", typeName(v))
		return nil, false
	}
	if len(arr) == 0 {
		ps.add(path, "must have at least 1 entry, got 0")
		return nil, false
	}
	return arr, true
}

func str(ps *problems, path string, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		ps.add(path, "must be a string, got %s", typeName(v))
		return "", false
	}
	if s == "" {
		ps.add(path, "must not be empty")
		return "", false
	}
	return s, true
}

func boolean(ps *problems, path string, v any) bool {
	b, ok := v.(bool)
	if !ok {
		ps.add(path, "must be a boolean, got %s", typeName(v))
	}
	return b
}

func number(ps *problems, path string, v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		ps.add(path, "must be a number, got %s", typeName(v))
		return 0, false
	}
	x, err := n.Float64()
	if err != nil {
		ps.add(path, "must be a finite number, got %s", n)
		return 0, false
	}
	return x, true
}

func integer(ps *problems, path string, v any, lo, hi int64) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		ps.add(path, "must be an integer, got %s", typeName(v))
		return 0, false
	}
	x, err := n.Int64()
	if err != nil {
		// JSON Schema counts 1e3 and 100.0 as integers; so does the sweep file.
		f, ferr := n.Float64()
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) >= math.Ldexp(1, 63) {
			ps.add(path, "must be an integer from %d to %d, got %s", lo, hi, n)
			return 0, false
		}
		x = int64(f)
	}
	if x < lo || x > hi {
		ps.add(path, "must be from %d to %d, got %d", lo, hi, x)
		return 0, false
	}
	return x, true
}

// plain turns json.Number (from UseNumber) back into float64, as policies' Params expect.
func plain(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x.String()
		}
		return f
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	}
	return v
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
