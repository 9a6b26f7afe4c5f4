package sched

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Encode writes in as an instance file (indented, newline-terminated) that Decode reads
// back to an equal Instance (except HorizonSource, which becomes "file": the horizon is
// always written). A capacity that is the same in every slot is written as one integer,
// otherwise as an array; a demand as a map with its positive entries; defaults (release
// 1, max_parallel 0, task_slots 1, hard false, late 0, tasks 1, bin_width 1) are left out.
func Encode(w io.Writer, in *Instance) error {
	data, err := in.MarshalJSON()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, data, "", "  "); err != nil {
		return fmt.Errorf("sched: indenting instance: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("sched: writing instance: %w", err)
	}
	return nil
}

// MarshalJSON writes the instance file format (compact); see Encode.
func (in *Instance) MarshalJSON() ([]byte, error) {
	var o objectWriter
	if in.Name != "" {
		o.field("name", in.Name)
	}
	o.field("horizon", in.Horizon)
	resources := make([]json.RawMessage, len(in.Resources))
	for r := range in.Resources {
		var ro objectWriter
		ro.field("name", in.Resources[r].Name)
		ro.field("capacity", capacityValue(in.Resources[r].Capacity))
		resources[r] = ro.bytes()
	}
	o.field("resources", resources)
	jobs := make([]json.RawMessage, len(in.Jobs))
	for i := range in.Jobs {
		j := &in.Jobs[i]
		var jo objectWriter
		jo.field("id", j.ID)
		var dem objectWriter
		for r, d := range j.Demand {
			if d == 0 {
				continue
			}
			if r >= len(in.Resources) {
				return nil, fmt.Errorf("sched: encoding job %q: demand has %d entries, %d resources", j.ID, len(j.Demand), len(in.Resources))
			}
			dem.field(in.Resources[r].Name, d)
		}
		jo.field("demand", dem.bytes())
		if j.Release != 1 {
			jo.field("release", j.Release)
		}
		if j.MaxParallel != 0 {
			jo.field("max_parallel", j.MaxParallel)
		}
		if j.TaskSlots != 1 {
			jo.field("task_slots", j.TaskSlots)
		}
		u, err := UtilityJSON(j.Utility)
		if err != nil {
			return nil, fmt.Errorf("sched: encoding job %q: %w", j.ID, err)
		}
		jo.field("utility", u)
		if j.Runtime != nil {
			rt, err := runtimeJSON(j.Runtime)
			if err != nil {
				return nil, fmt.Errorf("sched: encoding job %q: %w", j.ID, err)
			}
			jo.field("runtime", rt)
		}
		jobs[i] = jo.bytes()
	}
	o.field("jobs", jobs)
	if in.Robust != nil {
		var ro objectWriter
		ro.field("theta", in.Robust.Theta)
		ro.field("delta", in.Robust.Delta)
		ro.field("bins", in.Robust.Bins)
		o.field("robust", ro.bytes())
	}
	if o.err != nil {
		return nil, fmt.Errorf("sched: encoding instance: %w", o.err)
	}
	return o.bytes(), nil
}

func capacityValue(c []int) any {
	for _, v := range c {
		if v != c[0] {
			return c
		}
	}
	if len(c) == 0 {
		return c
	}
	return c[0]
}

// UtilityJSON is u as the instance file writes it, {"type": …, parameters…}; the
// workload file and the external policy protocol write utilities the same way.
func UtilityJSON(u Utility) (json.RawMessage, error) {
	if u == nil {
		return nil, fmt.Errorf("no utility")
	}
	var o objectWriter
	o.field("type", u.Type())
	switch u := u.(type) {
	case Sigmoid:
		o.field("priority", u.Priority)
		o.field("deadline", u.Deadline)
		o.field("decay", u.Decay)
	case Linear:
		o.field("priority", u.Priority)
		o.field("budget", u.Budget)
		o.field("slope", u.Slope)
		if u.Hard {
			o.field("hard", true)
		}
	case Step:
		o.field("value", u.Value)
		o.field("deadline", u.Deadline)
		if u.Late != 0 {
			o.field("late", u.Late)
		}
	case Constant:
		o.field("value", u.Value)
	case Piecewise:
		o.field("points", u.Points)
	case Table:
		o.field("values", u.Values)
	case RDS:
		o.field("priority", u.Priority)
		o.field("soft", u.Soft)
		o.field("hard", u.Hard)
	default:
		return nil, fmt.Errorf("utility %T has no file form", u)
	}
	return o.bytes(), o.err
}

func runtimeJSON(rt *Runtime) (json.RawMessage, error) {
	var o objectWriter
	o.field("type", rt.Type)
	switch rt.Type {
	case "impulse":
		o.field("mean", rt.Mean)
	case "gaussian":
		o.field("mean", rt.Mean)
		o.field("std", rt.Std)
	case "empirical":
		o.field("samples", rt.Samples)
	case "pmf":
		o.field("probabilities", rt.Probabilities)
		if rt.BinWidth != 1 {
			o.field("bin_width", rt.BinWidth)
		}
	default:
		return nil, fmt.Errorf("unknown runtime type %q", rt.Type)
	}
	if rt.Type != "pmf" && rt.Tasks != 1 {
		o.field("tasks", rt.Tasks)
	}
	return o.bytes(), o.err
}

// objectWriter writes a JSON object with its keys in the order given (encoding/json
// sorts map keys, and "type" first reads better).
type objectWriter struct {
	buf bytes.Buffer
	err error
}

func (o *objectWriter) field(key string, v any) {
	if o.err != nil {
		return
	}
	k, err := json.Marshal(key)
	if err != nil {
		o.err = err
		return
	}
	val, err := json.Marshal(v)
	if err != nil {
		o.err = fmt.Errorf("%s: %w", key, err)
		return
	}
	if o.buf.Len() == 0 {
		o.buf.WriteByte('{')
	} else {
		o.buf.WriteByte(',')
	}
	o.buf.Write(k)
	o.buf.WriteByte(':')
	o.buf.Write(val)
}

func (o *objectWriter) bytes() json.RawMessage {
	if o.buf.Len() == 0 {
		return json.RawMessage("{}")
	}
	return append(json.RawMessage(nil), append(o.buf.Bytes(), '}')...)
}

// UnmarshalJSON is Parse: it lets an instance sit inside a larger JSON document. The
// error is Parse's *ValidationError.
func (in *Instance) UnmarshalJSON(data []byte) error {
	x, err := Parse(data)
	if err != nil {
		return err
	}
	*in = *x
	return nil
}
