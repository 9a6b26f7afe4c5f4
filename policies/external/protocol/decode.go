package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxReplyBytes is the longest reply line the engine reads.
const MaxReplyBytes = 16 << 20

// MaxCount bounds integers in replies (indices, counts): far above any workload's.
const MaxCount = 1 << 30

// FieldError is a reply that breaks the protocol, at a JSON path ("assign[2].count";
// empty for the whole line).
type FieldError struct {
	Path, Msg string
}

func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// DecodeReply reads one reply line (without its newline): its syntax and the types
// and ranges of its members, each problem named at its JSON path. Whether a decision
// fits the round it answers (jobs active, slots free) is the engine's check
// (policies/external).
func DecodeReply(line []byte) (Reply, error) {
	if len(line) > MaxReplyBytes {
		return decodeReply(line)
	}
	if d, ok := fastDecision(line); ok {
		return d, nil
	}
	return decodeReply(line)
}

// decodeReply is DecodeReply's general path: every reply, every problem named.
func decodeReply(line []byte) (Reply, error) {
	if len(line) > MaxReplyBytes {
		return nil, &FieldError{Msg: fmt.Sprintf("line longer than %d bytes", MaxReplyBytes)}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, &FieldError{Msg: "not JSON: " + jsonProblem(line, err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &FieldError{Msg: "more than one JSON value on the line"}
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, &FieldError{Msg: "must be a JSON object, got " + typeName(doc)}
	}
	r := reader{}
	t, _ := r.str(obj, "", "type", true)
	if r.err != nil {
		return nil, r.err
	}
	var out Reply
	switch t {
	case TypeReady:
		m := &Ready{}
		r.only(obj, "", "type", "protocol", "admission", "tick", "conserving", "wake", "events")
		m.Protocol = r.integer(obj, "", "protocol", true, 0, MaxCount, 0)
		m.Admission = r.boolean(obj, "", "admission")
		m.Tick = r.number(obj, "", "tick")
		if m.Tick < 0 {
			r.fail("tick", "must be >= 0 (0: no ticks)")
		}
		m.Conserving = r.boolean(obj, "", "conserving")
		m.Wake = r.kinds(obj, "wake", WakeKinds)
		m.Events = r.kinds(obj, "events", Kinds)
		out = m
	case TypeRefuse:
		m := &Refuse{}
		r.only(obj, "", "type", "reason")
		m.Reason, _ = r.str(obj, "", "reason", true)
		out = m
	case TypeAdmission:
		m := &Admission{}
		r.only(obj, "", "type", "job", "admit")
		m.Job = r.integer(obj, "", "job", true, 0, MaxCount, 0)
		if _, ok := obj["admit"]; !ok && r.err == nil {
			r.fail("admit", "required")
		}
		m.Admit = r.boolean(obj, "", "admit")
		out = m
	case TypeDecision:
		out = r.decision(obj)
	case TypeBye:
		m := &Bye{}
		r.only(obj, "", "type", "counts", "fallbacks")
		if v, ok := obj["counts"]; ok && r.err == nil {
			c, ok := v.(map[string]any)
			if !ok {
				r.fail("counts", "must be an object of integers, got "+typeName(v))
			}
			for _, k := range slices.Sorted(maps.Keys(c)) {
				if m.Counts == nil {
					m.Counts = map[string]int{}
				}
				m.Counts[k] = r.integer(c, "counts", k, true, 0, math.MaxInt32, 0)
			}
		}
		m.Fallbacks = r.integer(obj, "", "fallbacks", false, 0, math.MaxInt32, 0)
		out = m
	case TypeError:
		m := &Failure{}
		r.only(obj, "", "type", "message")
		m.Message, _ = r.str(obj, "", "message", true)
		out = m
	default:
		return nil, &FieldError{Path: "type", Msg: fmt.Sprintf("%q is not a reply (want one of ready, refuse, admission, decision, bye, error)", t)}
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

func (r *reader) decision(obj map[string]any) *Decision {
	m := &Decision{}
	r.only(obj, "", "type", "round", "assign", "targets", "order")
	m.Round = r.integer(obj, "", "round", true, 1, 1<<53-1, 0)
	for i, e := range r.array(obj, "assign") {
		path := "assign[" + strconv.Itoa(i) + "]"
		o, ok := e.(map[string]any)
		if !ok {
			r.fail(path, "must be an object {job, pool, count, worker}, got "+typeName(e))
			break
		}
		r.only(o, path, "job", "pool", "count", "worker")
		a := Assignment{
			Job:   r.integer(o, path, "job", true, 0, MaxCount, 0),
			Pool:  r.integer(o, path, "pool", true, 0, MaxCount, 0),
			Count: r.integer(o, path, "count", false, 1, MaxCount, 1),
		}
		if _, ok := o["worker"]; ok {
			w := r.integer(o, path, "worker", true, 0, MaxCount, 0)
			a.Worker = &w
		}
		if r.err != nil {
			break
		}
		m.Assign = append(m.Assign, a)
	}
	for i, e := range r.array(obj, "targets") {
		path := "targets[" + strconv.Itoa(i) + "]"
		o, ok := e.(map[string]any)
		if !ok {
			r.fail(path, "must be an object {job, pool, target}, got "+typeName(e))
			break
		}
		r.only(o, path, "job", "pool", "target")
		t := Target{
			Job:  r.integer(o, path, "job", true, 0, MaxCount, 0),
			Pool: r.integer(o, path, "pool", true, 0, MaxCount, 0),
		}
		if _, ok := o["target"]; !ok && r.err == nil {
			r.fail(path+".target", "required")
		}
		t.Target = r.number(o, path, "target")
		if r.err == nil && (t.Target < 0 || t.Target > MaxCount) {
			r.fail(path+".target", fmt.Sprintf("must be between 0 and %d, got %g", MaxCount, t.Target))
		}
		if r.err != nil {
			break
		}
		m.Targets = append(m.Targets, t)
	}
	if _, ok := obj["order"]; ok && r.err == nil {
		a := r.array(obj, "order")
		m.Order = make([]int, 0, len(a))
		for i := range a {
			// integer reads members: the element is read as the member "order[i]".
			k := "order[" + strconv.Itoa(i) + "]"
			m.Order = append(m.Order, r.integer(map[string]any{k: a[i]}, "", k, true, 0, MaxCount, 0))
			if r.err != nil {
				break
			}
		}
	}
	if r.err != nil {
		return nil
	}
	return m
}

// kinds reads an array of event kinds among allowed; absent is nil, [] is empty.
func (r *reader) kinds(obj map[string]any, key string, allowed []string) []string {
	if _, ok := obj[key]; !ok || r.err != nil {
		return nil
	}
	a := r.array(obj, key)
	out := make([]string, 0, len(a))
	for i, e := range a {
		k, ok := e.(string)
		if !ok || !slices.Contains(allowed, k) {
			r.fail(key+"["+strconv.Itoa(i)+"]", fmt.Sprintf("must be one of %s, got %s", strings.Join(allowed, ", "), describeValue(e)))
			return nil
		}
		out = append(out, k)
	}
	return out
}

func describeValue(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return typeName(v)
}

// reader reads members of a decoded JSON object, keeping the first problem.
type reader struct {
	err *FieldError
}

func (r *reader) fail(path, msg string) {
	if r.err == nil {
		r.err = &FieldError{Path: path, Msg: msg}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// only fails on the first member (sorted) that is not allowed.
func (r *reader) only(obj map[string]any, path string, allowed ...string) {
	if r.err != nil {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.Contains(allowed, k) {
			r.fail(join(path, k), "unknown member (have "+strings.Join(allowed, ", ")+")")
			return
		}
	}
}

func (r *reader) str(obj map[string]any, path, key string, required bool) (string, bool) {
	v, ok := obj[key]
	if r.err != nil || !ok {
		if r.err == nil && required {
			r.fail(join(path, key), "required")
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		r.fail(join(path, key), "must be a string, got "+typeName(v))
	}
	return s, ok
}

func (r *reader) boolean(obj map[string]any, path, key string) bool {
	v, ok := obj[key]
	if r.err != nil || !ok {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		r.fail(join(path, key), "must be true or false, got "+typeName(v))
	}
	return b
}

// number reads a finite number; absent is 0.
func (r *reader) number(obj map[string]any, path, key string) float64 {
	v, ok := obj[key]
	if r.err != nil || !ok {
		return 0
	}
	n, ok := v.(json.Number)
	if !ok {
		r.fail(join(path, key), "must be a number, got "+typeName(v))
		return 0
	}
	x, err := n.Float64()
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		r.fail(join(path, key), "must be a finite number, got "+n.String())
		return 0
	}
	return x
}

// integer reads an integer in [lo, hi]; absent is def (or a problem when required).
func (r *reader) integer(obj map[string]any, path, key string, required bool, lo, hi, def int64) int {
	v, ok := obj[key]
	if r.err != nil {
		return int(def)
	}
	if !ok {
		if required {
			r.fail(join(path, key), "required")
		}
		return int(def)
	}
	n, ok := v.(json.Number)
	if !ok {
		r.fail(join(path, key), "must be an integer, got "+typeName(v))
		return int(def)
	}
	i, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		// 3.0 and 3e0 are the integer 3 to JSON Schema and to most encoders.
		x, ferr := n.Float64()
		if ferr != nil || x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			r.fail(join(path, key), "must be an integer, got "+n.String())
			return int(def)
		}
		i = int64(x)
	}
	if i < lo || i > hi {
		r.fail(join(path, key), fmt.Sprintf("must be between %d and %d, got %d", lo, hi, i))
		return int(def)
	}
	return int(i)
}

func (r *reader) array(obj map[string]any, key string) []any {
	v, ok := obj[key]
	if r.err != nil || !ok {
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		r.fail(key, "must be an array, got "+typeName(v))
	}
	return a
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// jsonProblem describes a syntax error with the byte it is at.
func jsonProblem(line []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		if len(bytes.TrimSpace(line)) == 0 {
			return "empty line"
		}
		return "the line ends inside a JSON value"
	}
	return err.Error()
}
