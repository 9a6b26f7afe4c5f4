package rds

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/coraopt/coraopt/sched"
)

// MaxStateBytes is the largest state file Decode reads.
const MaxStateBytes = 64 << 20

// StateFile is a decoded state file: the controller's state at one decision time, its
// parameters, and where the capacity forecast comes from — an explicit Forecast, a Green
// predictor built from weather forecasts, or (neither given) AR(Params.AROrder) fitted
// to State.CapacityHistory.
type StateFile struct {
	Name     string
	State    State
	Params   Params
	Forecast []float64
	Green    *Green
}

// Predictor returns the forecast source the file names and a short description of it
// ("given", "green", "ar(3)").
func (f *StateFile) Predictor() (Predictor, string) {
	switch {
	case f.Forecast != nil:
		// The given values are the intervals from State.Time on: re-index them.
		return shifted{start: len(f.State.CapacityHistory), values: f.Forecast}, "given"
	case f.Green != nil:
		return f.Green, "green"
	}
	return ARPredictor{Order: f.Params.AROrder}, fmt.Sprintf("ar(%d)", f.Params.AROrder)
}

// shifted is an explicit forecast whose first value is interval `start`.
type shifted struct {
	start  int
	values []float64
}

func (s shifted) Forecast(history []float64, h int) ([]float64, error) {
	off := len(history) - s.start
	if off < 0 || off+h > len(s.values) {
		return nil, fmt.Errorf("rds: the given forecast covers intervals %d–%d, %d needed from %d",
			s.start, s.start+len(s.values)-1, h, len(history))
	}
	return slices.Clone(s.values[off : off+h]), nil
}

// Decode reads a state file (see the package documentation for the format). A bad file
// yields a *sched.ValidationError listing every problem with its JSON path.
func Decode(r io.Reader) (*StateFile, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxStateBytes+1))
	if err != nil {
		return nil, fmt.Errorf("rds: reading state: %w", err)
	}
	return Parse(data)
}

// Parse is Decode on a byte slice.
func Parse(data []byte) (*StateFile, error) {
	if len(data) > MaxStateBytes {
		return nil, &sched.ValidationError{Problems: []sched.Problem{{Msg: fmt.Sprintf("document is larger than %d bytes", MaxStateBytes)}}}
	}
	// Syntax errors (with line and column) and duplicate keys, which the map decoding
	// below would silently resolve to the last value, are found as package sched finds
	// them in instance files.
	dups, err := sched.DuplicateKeys(data)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("rds: decoding validated JSON: %w", err)
	}
	d := decoder{}
	d.ps.list = dups
	f := d.file(root)
	// The value checks run even when decoding found problems; a value whose path (or an
	// ancestor's) was already reported — missing, of the wrong type — is not reported
	// again.
	reported := make(map[string]bool, len(d.ps.list))
	for _, p := range d.ps.list {
		reported[p.Path] = true
	}
	var more decoder
	f.State.check(&more.ps)
	f.Params.check(&more.ps, "params")
	more.checkForecastSource(f)
	more.checkMagnitudes(f)
	for _, p := range more.ps.list {
		if !covered(reported, p.Path) {
			d.ps.list = append(d.ps.list, p)
		}
	}
	sortProblems(d.ps.list)
	if err := d.ps.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// topLevel is the order of a state file's fields; problems are listed in it.
var topLevel = []string{"", "name", "time", "interval", "capacity_history", "forecast", "green", "params", "jobs"}

// sortProblems orders problems as the file is: by top-level field, then by the element
// index under it; problems of one element keep the order the checks found them in
// (types and presence first, then values, then relations).
func sortProblems(ps []sched.Problem) {
	rank := func(path string) (int, int) {
		top := path
		if i := strings.IndexAny(path, ".["); i >= 0 {
			top = path[:i]
		}
		r := slices.Index(topLevel, top)
		if r < 0 {
			r = len(topLevel)
		}
		idx := -1
		if after, ok := strings.CutPrefix(path, top+"["); ok {
			if end := strings.IndexByte(after, ']'); end > 0 {
				if n, err := strconv.Atoi(after[:end]); err == nil {
					idx = n
				}
			}
		}
		return r, idx
	}
	slices.SortStableFunc(ps, func(a, b sched.Problem) int {
		ra, ia := rank(a.Path)
		rb, ib := rank(b.Path)
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(ia, ib))
	})
}

// covered reports whether path, or a path it lies under, is in reported ("" covers
// everything: the document itself was wrong).
func covered(reported map[string]bool, path string) bool {
	if reported[""] || reported[path] {
		return true
	}
	for i := 1; i < len(path); i++ {
		if (path[i] == '.' || path[i] == '[') && reported[path[:i]] {
			return true
		}
	}
	return false
}

type decoder struct{ ps problemList }

type object = map[string]any

func (d *decoder) obj(path string, v any) (object, bool) {
	o, ok := v.(object)
	if !ok {
		d.ps.add(path, "must be an object, got %s", kind(v))
	}
	return o, ok
}

func kind(v any) string {
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
	case object:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// fields reports keys of o that are not allowed, in sorted order.
func (d *decoder) fields(path string, o object, allowed ...string) {
	var bad []string
	for k := range o {
		if !slices.Contains(allowed, k) {
			bad = append(bad, k)
		}
	}
	slices.Sort(bad)
	for _, k := range bad {
		d.ps.add(join(path, k), "unknown field (allowed: %s)", strings.Join(allowed, ", "))
	}
}

// join appends a key to a path as package sched writes paths (quoted when the key is not
// an identifier).
func join(path, key string) string { return sched.PathKey(path, key) }

func (d *decoder) num(path string, v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		d.ps.add(path, "must be a number, got %s", kind(v))
		return 0, false
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		d.ps.add(path, "number %s is out of range", n.String())
		return 0, false
	}
	return f, true
}

func (d *decoder) integer(path string, v any, lo, hi int) (int, bool) {
	f, ok := d.num(path, v)
	if !ok {
		return 0, false
	}
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		d.ps.add(path, "must be an integer in [%d, %d], got %s", lo, hi, v.(json.Number).String())
		return 0, false
	}
	return int(f), true
}

// optNum sets *dst from o[key] when present.
func (d *decoder) optNum(path string, o object, key string, dst *float64) bool {
	v, ok := o[key]
	if !ok {
		return false
	}
	if f, ok := d.num(join(path, key), v); ok {
		*dst = f
	}
	return true
}

func (d *decoder) numArray(path string, v any, limit int) []float64 {
	a, ok := v.([]any)
	if !ok {
		d.ps.add(path, "must be an array of numbers, got %s", kind(v))
		return nil
	}
	if len(a) > limit {
		d.ps.add(path, "has %d entries, at most %d allowed", len(a), limit)
		return nil
	}
	out := make([]float64, len(a))
	for i, e := range a {
		out[i], _ = d.num(indexPath(path, i), e)
	}
	return out
}

func (d *decoder) file(root any) *StateFile {
	f := &StateFile{Params: DefaultParams()}
	o, ok := d.obj("", root)
	if !ok {
		return f
	}
	d.fields("", o, "name", "time", "interval", "capacity_history", "forecast", "green", "params", "jobs")
	if v, ok := o["name"]; ok {
		if s, ok := v.(string); ok {
			f.Name = s
		} else {
			d.ps.add("name", "must be a string, got %s", kind(v))
		}
	}
	d.optNum("", o, "time", &f.State.Time)
	if !d.optNum("", o, "interval", &f.State.Interval) {
		d.ps.add("interval", "is required (the control interval length, in the time unit of the deadlines)")
	}
	if v, ok := o["capacity_history"]; ok {
		f.State.CapacityHistory = d.numArray("capacity_history", v, MaxHistory)
	}
	if v, ok := o["params"]; ok {
		d.params(v, &f.Params)
	}
	if v, ok := o["forecast"]; ok {
		f.Forecast = d.numArray("forecast", v, MaxHistory)
		if f.Forecast == nil {
			f.Forecast = []float64{}
		}
	}
	if v, ok := o["green"]; ok {
		f.Green = d.green(v, len(f.State.CapacityHistory))
	}
	v, ok := o["jobs"]
	if !ok {
		d.ps.add("jobs", "is required")
		return f
	}
	arr, ok := v.([]any)
	if !ok {
		d.ps.add("jobs", "must be an array, got %s", kind(v))
		return f
	}
	if len(arr) > MaxJobs {
		d.ps.add("jobs", "has %d jobs, at most %d allowed", len(arr), MaxJobs)
		return f
	}
	f.State.Jobs = make([]Job, len(arr))
	for i, jv := range arr {
		d.job(indexPath("jobs", i), jv, &f.State.Jobs[i])
	}
	return f
}

func (d *decoder) params(v any, p *Params) {
	const path = "params"
	o, ok := d.obj(path, v)
	if !ok {
		return
	}
	d.fields(path, o, "prediction_horizon", "control_horizon", "map_penalty", "reduce_penalty", "ar_order", "deadlines")
	// A value that fails to decode keeps its default, so that nothing else is reported
	// because of it.
	if v, ok := o["prediction_horizon"]; ok {
		if n, ok := d.integer(path+".prediction_horizon", v, 1, MaxHorizon); ok {
			p.PredictionHorizon = n
		}
	}
	if v, ok := o["control_horizon"]; ok {
		if n, ok := d.integer(path+".control_horizon", v, 1, MaxHorizon); ok {
			p.ControlHorizon = n
		}
	} else if p.PredictionHorizon < p.ControlHorizon {
		p.ControlHorizon = p.PredictionHorizon
	}
	// Default penalties: the paper's for H_c = 3, their means otherwise.
	if p.ControlHorizon != len(paperMapPenalty) {
		p.MapPenalty, p.ReducePenalty = []float64{mean(paperMapPenalty)}, []float64{mean(paperReducePenalty)}
	}
	for _, w := range []struct {
		key string
		dst *[]float64
	}{{"map_penalty", &p.MapPenalty}, {"reduce_penalty", &p.ReducePenalty}} {
		v, ok := o[w.key]
		if !ok {
			continue
		}
		if n, isNum := v.(json.Number); isNum {
			f, _ := d.num(path+"."+w.key, n)
			*w.dst = []float64{f}
		} else if _, isArr := v.([]any); isArr {
			*w.dst = d.numArray(path+"."+w.key, v, MaxHorizon)
		} else {
			d.ps.add(path+"."+w.key, "must be a number or an array of numbers, got %s", kind(v))
		}
	}
	if v, ok := o["ar_order"]; ok {
		if n, ok := d.integer(path+".ar_order", v, 1, MaxAROrder); ok {
			p.AROrder = n
		}
	}
	if v, ok := o["deadlines"]; ok {
		name, isStr := v.(string)
		switch {
		case isStr && name == "first":
			p.Deadlines = DeadlinesFirst
		case isStr && name == "off":
			p.Deadlines = DeadlinesOff
		default:
			d.ps.add(path+".deadlines", "must be \"first\" or \"off\", got %s", describe(v))
		}
	}
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func (d *decoder) green(v any, start int) *Green {
	const path = "green"
	o, ok := d.obj(path, v)
	if !ok {
		return nil
	}
	d.fields(path, o, "brown", "per_kw", "solar_ideal", "cloud_cover", "wind_speed", "wind_a", "wind_b")
	g := &Green{Start: start}
	d.optNum(path, o, "brown", &g.Brown)
	if !d.optNum(path, o, "per_kw", &g.PerKW) {
		d.ps.add(path+".per_kw", "is required (resources per kW of green power)")
	}
	for _, s := range []struct {
		key string
		dst *[]float64
	}{{"solar_ideal", &g.SolarIdeal}, {"cloud_cover", &g.CloudCover}, {"wind_speed", &g.WindSpeed}} {
		if v, ok := o[s.key]; ok {
			*s.dst = d.numArray(path+"."+s.key, v, MaxHistory)
			if *s.dst == nil {
				*s.dst = []float64{}
			}
		}
	}
	d.optNum(path, o, "wind_a", &g.WindA)
	d.optNum(path, o, "wind_b", &g.WindB)
	if g.Brown < 0 {
		d.ps.add(path+".brown", "must be >= 0, got %g", g.Brown)
	}
	if g.PerKW < 0 {
		d.ps.add(path+".per_kw", "must be >= 0, got %g", g.PerKW)
	}
	if (g.SolarIdeal == nil) != (g.CloudCover == nil) {
		d.ps.add(path, "solar_ideal and cloud_cover go together")
	}
	for i, c := range g.CloudCover {
		if c < 0 || c > 1 {
			d.ps.add(indexPath(path+".cloud_cover", i), "must be a fraction in [0, 1], got %g", c)
		}
	}
	for i, s := range g.SolarIdeal {
		if s < 0 {
			d.ps.add(indexPath(path+".solar_ideal", i), "must be >= 0, got %g", s)
		}
	}
	for i, s := range g.WindSpeed {
		if s < 0 {
			d.ps.add(indexPath(path+".wind_speed", i), "must be >= 0, got %g", s)
		}
	}
	return g
}

func (d *decoder) pair(path string, v any, keys [2]string) (a, b float64) {
	o, ok := d.obj(path, v)
	if !ok {
		return 0, 0
	}
	d.fields(path, o, keys[0], keys[1])
	d.optNum(path, o, keys[0], &a)
	d.optNum(path, o, keys[1], &b)
	return a, b
}

func (d *decoder) job(path string, v any, j *Job) {
	o, ok := d.obj(path, v)
	if !ok {
		return
	}
	d.fields(path, o, "id", "work", "progress", "phase", "gain", "arrival", "soft", "hard",
		"priority", "allocation", "max_map", "max_reduce")
	j.Priority, j.MaxMap, j.MaxReduce = 1, math.Inf(1), math.Inf(1)
	if v, ok := o["id"]; !ok {
		d.ps.add(path+".id", "is required")
	} else if s, ok := v.(string); !ok {
		d.ps.add(path+".id", "must be a string, got %s", kind(v))
	} else {
		j.ID = s
	}
	if !d.optNum(path, o, "work", &j.Work) {
		d.ps.add(path+".work", "is required")
	}
	d.optNum(path, o, "progress", &j.Progress)
	if v, ok := o["phase"]; ok {
		s, isStr := v.(string)
		ph, known := ParsePhase(s)
		if !isStr || !known {
			d.ps.add(path+".phase", "must be \"both\", \"map\" or \"reduce\", got %s", describe(v))
		}
		j.Phase = ph
	}
	if v, ok := o["gain"]; !ok {
		d.ps.add(path+".gain", "is required (progress per resource unit per interval: {\"map\": …, \"reduce\": …})")
	} else {
		j.Gain.Map, j.Gain.Reduce = d.pair(path+".gain", v, [2]string{"map", "reduce"})
	}
	if v, ok := o["allocation"]; ok {
		j.Prev.Map, j.Prev.Reduce = d.pair(path+".allocation", v, [2]string{"map", "reduce"})
	}
	d.optNum(path, o, "arrival", &j.Arrival)
	if !d.optNum(path, o, "soft", &j.Soft) {
		d.ps.add(path+".soft", "is required (the soft deadline t_soft, an absolute time)")
	}
	if !d.optNum(path, o, "hard", &j.Hard) {
		j.Hard = j.Soft
	}
	d.optNum(path, o, "priority", &j.Priority)
	d.optNum(path, o, "max_map", &j.MaxMap)
	d.optNum(path, o, "max_reduce", &j.MaxReduce)
}

func describe(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return kind(v)
}

// checkMagnitudes bounds every number of the file by MaxMagnitude, and work, the
// interval and priorities below by MinScale, so that the QP built from them is
// numerically meaningful. Values other checks refuse (negative, not finite) are left
// to them.
func (d *decoder) checkMagnitudes(f *StateFile) {
	big := func(path string, v float64) {
		if math.Abs(v) > MaxMagnitude && !math.IsInf(v, 0) {
			d.ps.add(path, "must be at most %g in magnitude (the QP's coefficients are products of such numbers), got %g", float64(MaxMagnitude), v)
		}
	}
	scale := func(path string, v float64) {
		big(path, v)
		if v > 0 && v < MinScale {
			d.ps.add(path, "must be at least %g (the QP divides by it or weighs with it), got %g", MinScale, v)
		}
	}
	list := func(path string, vs []float64) {
		for i, v := range vs {
			big(indexPath(path, i), v)
		}
	}
	s := &f.State
	big("time", s.Time)
	scale("interval", s.Interval)
	list("capacity_history", s.CapacityHistory)
	list("forecast", f.Forecast)
	if g := f.Green; g != nil {
		big("green.brown", g.Brown)
		big("green.per_kw", g.PerKW)
		list("green.solar_ideal", g.SolarIdeal)
		list("green.cloud_cover", g.CloudCover)
		list("green.wind_speed", g.WindSpeed)
		big("green.wind_a", g.WindA)
		big("green.wind_b", g.WindB)
	}
	list("params.map_penalty", f.Params.MapPenalty)
	list("params.reduce_penalty", f.Params.ReducePenalty)
	for i := range s.Jobs {
		j := &s.Jobs[i]
		p := indexPath("jobs", i)
		scale(p+".work", j.Work)
		big(p+".progress", j.Progress)
		big(p+".gain.map", j.Gain.Map)
		big(p+".gain.reduce", j.Gain.Reduce)
		big(p+".allocation.map", j.Prev.Map)
		big(p+".allocation.reduce", j.Prev.Reduce)
		big(p+".arrival", j.Arrival)
		big(p+".soft", j.Soft)
		big(p+".hard", j.Hard)
		scale(p+".priority", j.Priority)
		big(p+".max_map", j.MaxMap) // absent: +Inf, no cap
		big(p+".max_reduce", j.MaxReduce)
	}
}

// checkForecastSource checks that the capacity forecast can be made.
func (d *decoder) checkForecastSource(f *StateFile) {
	hp := f.Params.PredictionHorizon
	switch {
	case len(f.State.Jobs)*4*f.Params.ControlHorizon*f.Params.ControlHorizon > MaxHessianCells:
		d.ps.add("jobs", "%d jobs with a control horizon of %d are too many (jobs × (2·H_c)² must be at most %d)",
			len(f.State.Jobs), f.Params.ControlHorizon, MaxHessianCells)
	case f.Forecast != nil && f.Green != nil:
		d.ps.add("forecast", "cannot be given together with green (choose one forecast source)")
	case f.Forecast != nil:
		if len(f.Forecast) < hp {
			d.ps.add("forecast", "has %d entries, the prediction horizon needs %d", len(f.Forecast), hp)
		}
		for i, c := range f.Forecast {
			if c < 0 {
				d.ps.add(indexPath("forecast", i), "must be >= 0, got %g", c)
			}
		}
	case f.Green != nil:
		for _, s := range []struct {
			key string
			v   []float64
		}{{"solar_ideal", f.Green.SolarIdeal}, {"cloud_cover", f.Green.CloudCover}, {"wind_speed", f.Green.WindSpeed}} {
			if s.v != nil && len(s.v) < hp {
				d.ps.add("green."+s.key, "has %d entries, the prediction horizon needs %d", len(s.v), hp)
			}
		}
	default:
		if len(f.State.CapacityHistory) == 0 {
			d.ps.add("capacity_history", "is needed to fit the AR predictor (or give forecast or green)")
		}
	}
}
