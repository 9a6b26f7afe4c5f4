package sched

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Limits that keep a small file from asking for a huge allocation or a long check.
const (
	// MaxInputBytes is the largest instance file Decode reads.
	MaxInputBytes = 64 << 20
	// MaxHorizon is the largest number of slots, given or defaulted.
	MaxHorizon = 1_000_000
	// MaxCapacityCells bounds resources × horizon, the expanded capacity table (32 MiB).
	MaxCapacityCells = 1 << 22
	// MaxQuantity bounds every demand, capacity, max_parallel and task count, so sums
	// over jobs and slots stay exact in int64.
	MaxQuantity = 1_000_000_000_000
	// MaxBins bounds robust.bins (RS allocates that many bins per job).
	MaxBins = 1_000_000
	// DefaultBins is robust.bins when the file does not give it.
	DefaultBins = 256
)

// Utility and runtime type names, in the order the reference lists them.
var (
	utilityTypes = []string{"sigmoid", "linear", "step", "constant", "piecewise", "table", "rds"}
	runtimeTypes = []string{"impulse", "gaussian", "empirical", "pmf"}
)

// Decode reads one instance file (see the package documentation for the format and
// the rules), validates it against the JSON Schema and the Go checks, resolves the
// default horizon and returns the instance. A bad file yields a *ValidationError listing
// every problem with its JSON path; a read failure yields a wrapped I/O error.
func Decode(r io.Reader) (*Instance, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("sched: reading instance: %w", err) // os errors name the file
	}
	if len(data) > MaxInputBytes {
		return nil, &ValidationError{Problems: []Problem{{
			Msg: fmt.Sprintf("document is larger than %d bytes", MaxInputBytes)}}}
	}
	return Parse(data)
}

// DecodeFile is Decode on the named file.
func DecodeFile(path string) (*Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sched: %w", err)
	}
	defer f.Close()
	return Decode(f)
}

// Parse is Decode on a byte slice.
func Parse(data []byte) (*Instance, error) {
	if len(data) > MaxInputBytes {
		return nil, &ValidationError{Problems: []Problem{{
			Msg: fmt.Sprintf("document is larger than %d bytes", MaxInputBytes)}}}
	}
	root, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	var ps problems
	in := decodeTree(root, &ps)
	if len(ps.list) == 0 {
		// The Go checks reject every document the schema rejects (TestSchemaAgreesWithGo
		// on the corpus, FuzzDecode on everything else), so a document they accept needs
		// no second walk: on 20,000 jobs the schema's took 0.7 s of 1.2.
		return in, nil
	}
	sch, err := compiledSchema()
	if err != nil {
		return nil, err
	}
	for _, p := range schemaProblems(sch, root) {
		ps.addIfNew(p)
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return in, nil
}

// capacitySpec is a resource's capacity as written: a constant or one value per slot.
type capacitySpec struct {
	constant int
	perSlot  []int
	isArray  bool
}

// draft is what the file says before the horizon is known.
type draft struct {
	in         *Instance
	horizonSet bool
	caps       []capacitySpec
}

// decodeTree walks the document, checks every value's type, range and relations, and
// returns the instance (meaningful only when ps stays empty).
func decodeTree(root *node, ps *problems) *Instance {
	d := &draft{in: &Instance{}}
	if !fields(ps, "", root, "name", "horizon", "resources", "jobs", "robust") {
		return d.in
	}
	if n := root.get("name"); n != nil {
		d.in.Name, _ = getString(ps, "name", n)
	}
	if n := root.get("horizon"); n != nil {
		d.in.Horizon, _ = getInt(ps, "horizon", n, 1, MaxHorizon)
		d.horizonSet = true
	}
	d.decodeResources(required(ps, "", root, "resources"), ps)
	d.decodeJobs(required(ps, "", root, "jobs"), ps)
	if n := root.get("robust"); n != nil {
		d.in.Robust = decodeRobust(ps, "robust", n)
	}
	checkLocal(d.in, ps, false)
	switch d.resolveHorizon(ps) {
	case horizonFinal:
		checkGlobal(d.in, ps)
	case horizonBare:
		checkAgainstHorizon(d.in, ps, true)
	case horizonProvisional:
		checkAgainstHorizon(d.in, ps, false)
	}
	return d.in
}

func (d *draft) decodeResources(n *node, ps *problems) {
	const path = "resources"
	arr, ok := getArray(ps, path, n)
	if !ok {
		return
	}
	if len(arr) == 0 {
		ps.add(path, "must have at least 1 resource")
		return
	}
	d.in.Resources = make([]Resource, len(arr))
	d.caps = make([]capacitySpec, len(arr))
	for i, rn := range arr {
		p := pathIndex(path, i)
		if !fields(ps, p, rn, "name", "capacity") {
			continue
		}
		d.in.Resources[i].Name, _ = getString(ps, pathKey(p, "name"), required(ps, p, rn, "name"))
		cp := pathKey(p, "capacity")
		cn := required(ps, p, rn, "capacity")
		switch {
		case cn == nil:
		case cn.kind == kindArray:
			if len(cn.arr) == 0 {
				ps.add(cp, "must have at least 1 entry")
				continue
			}
			if len(cn.arr) > MaxHorizon {
				ps.add(cp, "array has %d entries, more than the largest horizon %d", len(cn.arr), MaxHorizon)
				continue
			}
			spec := capacitySpec{isArray: true, perSlot: make([]int, len(cn.arr))}
			for t, v := range cn.arr {
				spec.perSlot[t], _ = getInt(ps, pathIndex(cp, t), v, 0, MaxQuantity)
			}
			d.caps[i] = spec
		case cn.kind == kindNumber:
			c, _ := getInt(ps, cp, cn, 0, MaxQuantity)
			d.caps[i] = capacitySpec{constant: c}
		default:
			ps.add(cp, "must be an integer or an array of integers, got %s", cn.kind)
		}
	}
}

func (d *draft) decodeJobs(n *node, ps *problems) {
	const path = "jobs"
	arr, ok := getArray(ps, path, n)
	if !ok {
		return
	}
	if len(arr) == 0 {
		ps.add(path, "must have at least 1 job")
		return
	}
	d.in.Jobs = make([]Job, len(arr))
	for i, jn := range arr {
		p := pathIndex(path, i)
		j := &d.in.Jobs[i]
		j.Release, j.TaskSlots = 1, 1
		if !fields(ps, p, jn, "id", "demand", "release", "max_parallel", "task_slots", "utility", "runtime") {
			continue
		}
		j.ID, _ = getString(ps, pathKey(p, "id"), required(ps, p, jn, "id"))
		j.Demand = d.decodeDemand(ps, pathKey(p, "demand"), required(ps, p, jn, "demand"))
		if v := jn.get("release"); v != nil {
			j.Release, _ = getInt(ps, pathKey(p, "release"), v, 1, MaxHorizon)
		}
		if v := jn.get("max_parallel"); v != nil {
			j.MaxParallel, _ = getInt(ps, pathKey(p, "max_parallel"), v, 0, MaxQuantity)
		}
		if v := jn.get("task_slots"); v != nil {
			j.TaskSlots, _ = getInt(ps, pathKey(p, "task_slots"), v, 1, MaxHorizon)
		}
		if un := required(ps, p, jn, "utility"); un != nil {
			j.Utility = decodeUtility(ps, pathKey(p, "utility"), un)
		}
		if rn := jn.get("runtime"); rn != nil {
			j.Runtime = decodeRuntime(ps, pathKey(p, "runtime"), rn)
		}
	}
}

// decodeDemand reads the demand map into a slice indexed like the resources. Unknown
// resource names are problems; resources not named get 0.
func (d *draft) decodeDemand(ps *problems, path string, n *node) []int {
	if n == nil {
		return nil
	}
	if n.kind != kindObject {
		ps.add(path, "must be an object mapping resource names to integers, got %s", n.kind)
		return nil
	}
	dem := make([]int, len(d.in.Resources))
	reportDuplicateKeys(ps, path, n)
	for k, key := range n.keys {
		p := pathKey(path, key)
		v, ok := getInt(ps, p, n.vals[k], 0, MaxQuantity)
		r := d.in.ResourceIndex(key)
		if r < 0 {
			if len(d.in.Resources) > 0 {
				ps.add(p, "unknown resource %q (resources are %s)", key, resourceNames(d.in.Resources))
			}
			continue
		}
		if ok {
			dem[r] = v
		}
	}
	return dem
}

func resourceNames(rs []Resource) string {
	names := make([]string, len(rs))
	for i := range rs {
		names[i] = strconv.Quote(rs[i].Name)
	}
	return strings.Join(names, ", ")
}

func decodeUtility(ps *problems, path string, n *node) Utility {
	if n.kind != kindObject {
		ps.add(path, "must be an object, got %s", n.kind)
		return nil
	}
	typ, ok := getString(ps, pathKey(path, "type"), required(ps, path, n, "type"))
	if !ok {
		return nil
	}
	num := func(key string) float64 {
		f, _ := getFloat(ps, pathKey(path, key), required(ps, path, n, key))
		return f
	}
	opt := func(key string) float64 {
		if v := n.get(key); v != nil {
			f, _ := getFloat(ps, pathKey(path, key), v)
			return f
		}
		return 0
	}
	switch typ {
	case "sigmoid":
		fields(ps, path, n, "type", "priority", "deadline", "decay")
		return Sigmoid{Priority: num("priority"), Deadline: num("deadline"), Decay: num("decay")}
	case "linear":
		fields(ps, path, n, "type", "priority", "budget", "slope", "hard")
		u := Linear{Priority: num("priority"), Budget: num("budget"), Slope: num("slope")}
		if v := n.get("hard"); v != nil {
			u.Hard, _ = getBool(ps, pathKey(path, "hard"), v)
		}
		return u
	case "step":
		fields(ps, path, n, "type", "value", "deadline", "late")
		return Step{Value: num("value"), Deadline: num("deadline"), Late: opt("late")}
	case "constant":
		fields(ps, path, n, "type", "value")
		return Constant{Value: num("value")}
	case "piecewise":
		fields(ps, path, n, "type", "points")
		pp := pathKey(path, "points")
		arr, ok := getArray(ps, pp, required(ps, path, n, "points"))
		if !ok {
			return Piecewise{}
		}
		u := Piecewise{Points: make([][2]float64, len(arr))}
		for k, pn := range arr {
			kp := pathIndex(pp, k)
			pair, ok := getArray(ps, kp, pn)
			if !ok {
				continue
			}
			if len(pair) != 2 {
				ps.add(kp, "must be a pair [t, u], got %d entries", len(pair))
				continue
			}
			u.Points[k][0], _ = getFloat(ps, pathIndex(kp, 0), pair[0])
			u.Points[k][1], _ = getFloat(ps, pathIndex(kp, 1), pair[1])
		}
		return u
	case "table":
		fields(ps, path, n, "type", "values")
		vp := pathKey(path, "values")
		arr, ok := getArray(ps, vp, required(ps, path, n, "values"))
		if !ok {
			return Table{}
		}
		u := Table{Values: make([]float64, len(arr))}
		for k, vn := range arr {
			u.Values[k], _ = getFloat(ps, pathIndex(vp, k), vn)
		}
		return u
	case "rds":
		fields(ps, path, n, "type", "priority", "soft", "hard")
		return RDS{Priority: num("priority"), Soft: num("soft"), Hard: num("hard")}
	}
	ps.add(pathKey(path, "type"), "unknown utility type %q (one of %s)", typ, strings.Join(utilityTypes, ", "))
	return nil
}

func decodeRuntime(ps *problems, path string, n *node) *Runtime {
	if n.kind != kindObject {
		ps.add(path, "must be an object, got %s", n.kind)
		return nil
	}
	typ, ok := getString(ps, pathKey(path, "type"), required(ps, path, n, "type"))
	if !ok {
		return nil
	}
	rt := &Runtime{Type: typ, Tasks: 1}
	num := func(key string) float64 {
		f, _ := getFloat(ps, pathKey(path, key), required(ps, path, n, key))
		return f
	}
	tasks := func() {
		if v := n.get("tasks"); v != nil {
			rt.Tasks, _ = getInt(ps, pathKey(path, "tasks"), v, 1, MaxQuantity)
		}
	}
	floats := func(key string) []float64 {
		kp := pathKey(path, key)
		arr, ok := getArray(ps, kp, required(ps, path, n, key))
		if !ok {
			return nil
		}
		out := make([]float64, len(arr))
		for k, v := range arr {
			out[k], _ = getFloat(ps, pathIndex(kp, k), v)
		}
		return out
	}
	switch typ {
	case "impulse":
		fields(ps, path, n, "type", "mean", "tasks")
		rt.Mean = num("mean")
		tasks()
	case "gaussian":
		fields(ps, path, n, "type", "mean", "std", "tasks")
		rt.Mean, rt.Std = num("mean"), num("std")
		tasks()
	case "empirical":
		fields(ps, path, n, "type", "samples", "tasks")
		rt.Samples = floats("samples")
		tasks()
	case "pmf":
		fields(ps, path, n, "type", "probabilities", "bin_width")
		rt.Tasks = 0
		rt.Probabilities = floats("probabilities")
		rt.BinWidth = 1
		if v := n.get("bin_width"); v != nil {
			rt.BinWidth, _ = getFloat(ps, pathKey(path, "bin_width"), v)
		}
	default:
		ps.add(pathKey(path, "type"), "unknown runtime type %q (one of %s)", typ, strings.Join(runtimeTypes, ", "))
		return nil
	}
	return rt
}

func decodeRobust(ps *problems, path string, n *node) *Robust {
	if !fields(ps, path, n, "theta", "delta", "bins") {
		return nil
	}
	r := &Robust{Bins: DefaultBins}
	r.Theta, _ = getFloat(ps, pathKey(path, "theta"), required(ps, path, n, "theta"))
	r.Delta, _ = getFloat(ps, pathKey(path, "delta"), required(ps, path, n, "delta"))
	if v := n.get("bins"); v != nil {
		r.Bins, _ = getInt(ps, pathKey(path, "bins"), v, 2, MaxBins)
	}
	return r
}

// fields checks that n is an object whose keys are all in allowed and none repeats.
func fields(ps *problems, path string, n *node, allowed ...string) bool {
	if n.kind != kindObject {
		if path == "" {
			ps.add(path, "the document must be a JSON object, got %s", n.kind)
			return false
		}
		ps.add(path, "must be an object, got %s", n.kind)
		return false
	}
	reportDuplicateKeys(ps, path, n)
	for _, k := range n.keys {
		if !slices.Contains(allowed, k) {
			ps.add(pathKey(path, k), "unknown field (allowed: %s)", strings.Join(allowed, ", "))
		}
	}
	return true
}

func reportDuplicateKeys(ps *problems, path string, n *node) {
	seen := make(map[string]bool, len(n.keys))
	for _, k := range n.keys {
		if seen[k] {
			ps.add(pathKey(path, k), "duplicate key")
		}
		seen[k] = true
	}
}

// required returns obj[key], reporting a problem when it is missing.
func required(ps *problems, path string, obj *node, key string) *node {
	v := obj.get(key)
	if v == nil {
		ps.add(pathKey(path, key), "required")
	}
	return v
}

func getString(ps *problems, path string, n *node) (string, bool) {
	if n == nil {
		return "", false
	}
	if n.kind != kindString {
		ps.add(path, "must be a string, got %s", n.kind)
		return "", false
	}
	return n.str, true
}

func getBool(ps *problems, path string, n *node) (bool, bool) {
	if n.kind != kindBool {
		ps.add(path, "must be true or false, got %s", n.kind)
		return false, false
	}
	return n.b, true
}

func getArray(ps *problems, path string, n *node) ([]*node, bool) {
	if n == nil {
		return nil, false
	}
	if n.kind != kindArray {
		ps.add(path, "must be an array, got %s", n.kind)
		return nil, false
	}
	return n.arr, true
}

func getFloat(ps *problems, path string, n *node) (float64, bool) {
	if n == nil {
		return 0, false
	}
	if n.kind != kindNumber {
		ps.add(path, "must be a number, got %s", n.kind)
		return 0, false
	}
	f, ok := n.float()
	if !ok {
		ps.add(path, "must be a finite number, got %s", n.num)
		return 0, false
	}
	return f, true
}

// getInt reads an integer in [lo, hi]. Like JSON Schema's "integer", a number with a
// zero fraction (3.0, 1e2) counts as an integer.
func getInt(ps *problems, path string, n *node, lo, hi int) (int, bool) {
	if n == nil {
		return 0, false
	}
	if n.kind != kindNumber {
		ps.add(path, "must be an integer, got %s", n.kind)
		return 0, false
	}
	var v int
	if i, err := strconv.ParseInt(string(n.num), 10, 64); err == nil {
		if i < int64(lo) {
			ps.add(path, "must be >= %d", lo)
			return 0, false
		}
		if i > int64(hi) {
			ps.add(path, "must be <= %d", hi)
			return 0, false
		}
		v = int(i)
	} else {
		f, ok := n.float()
		switch {
		case !ok:
			ps.add(path, "must be a finite number, got %s", n.num)
			return 0, false
		case f != math.Trunc(f):
			ps.add(path, "must be an integer, got %s", n.num)
			return 0, false
		case f < float64(lo):
			ps.add(path, "must be >= %d", lo)
			return 0, false
		case f > float64(hi):
			ps.add(path, "must be <= %d", hi)
			return 0, false
		}
		v = int(f)
	}
	return v, true
}

// horizonState says how far resolveHorizon got.
type horizonState int

const (
	horizonUnknown     horizonState = iota // no T: nothing horizon-wide is checked
	horizonBare                            // T is given, capacities could not be expanded
	horizonProvisional                     // a lower bound on the default T, from the valid jobs only
	horizonFinal                           // T settled, every capacity expanded to T entries
)

// resolveHorizon settles T — from the file, from the capacity arrays, or the default
// (see the package documentation) — and expands every capacity to T entries. When
// problems already reported keep it from doing so, it still returns what it can for
// the checks that remain meaningful: a given T, or a provisional default computed from
// the jobs without problems (the true default can only be later, so a utility that
// increases before it increases before the true one too).
func (d *draft) resolveHorizon(ps *problems) horizonState {
	in := d.in
	if d.horizonSet {
		if ps.under("horizon") {
			in.Horizon = 0
			return horizonUnknown
		}
		in.HorizonSource = "file"
	}
	for r := range d.caps {
		if ps.under(pathKey(pathIndex("resources", r), "capacity")) {
			if d.horizonSet {
				return horizonBare
			}
			in.Horizon = 0
			return horizonUnknown
		}
	}
	if !d.horizonSet {
		for r, c := range d.caps {
			if !c.isArray {
				continue
			}
			if in.HorizonSource == "" {
				in.Horizon, in.HorizonSource = len(c.perSlot), "capacity"
				continue
			}
			if len(c.perSlot) != in.Horizon {
				first := slices.IndexFunc(d.caps, func(c capacitySpec) bool { return c.isArray })
				ps.add(pathKey(pathIndex("resources", r), "capacity"), "array has %d entries, resources[%d].capacity has %d",
					len(c.perSlot), first, in.Horizon)
				in.Horizon = 0
				return horizonUnknown
			}
		}
	}
	if in.HorizonSource == "" {
		switch d.defaultHorizon(ps) {
		case horizonUnknown:
			in.Horizon = 0
			return horizonUnknown
		case horizonProvisional:
			return horizonProvisional
		}
	}
	if cells := len(in.Resources) * in.Horizon; cells > MaxCapacityCells {
		ps.add("horizon", "%d resources × %d slots exceeds the limit of %d capacity cells", len(in.Resources), in.Horizon, MaxCapacityCells)
		return horizonBare
	}
	for r, c := range d.caps {
		if c.isArray {
			in.Resources[r].Capacity = c.perSlot
			continue
		}
		row := make([]int, in.Horizon)
		for t := range row {
			row[t] = c.constant
		}
		in.Resources[r].Capacity = row
	}
	return horizonFinal
}

// defaultHorizon sets T when neither the file nor a capacity array gives it: the
// smallest T that has room for every resource's total demand and lets every job finish
// on its own (release − 1 + ⌈demand / min(max_parallel, capacity)⌉), or the latest slot
// named by a utility if that is later. Every capacity is constant here. Jobs with
// problems in their demand, release or max_parallel are left out, and the result is
// then only provisional.
func (d *draft) defaultHorizon(ps *problems) horizonState {
	in := d.in
	if len(in.Resources) == 0 || len(in.Jobs) == 0 {
		return horizonUnknown
	}
	state := horizonFinal
	usable := make([]bool, len(in.Jobs))
	for i := range in.Jobs {
		p := pathIndex("jobs", i)
		usable[i] = in.Jobs[i].Demand != nil && !ps.under(pathKey(p, "demand")) &&
			!ps.under(pathKey(p, "release")) && !ps.under(pathKey(p, "max_parallel"))
		if !usable[i] {
			state = horizonProvisional
		}
	}
	T, source := int64(1), "demand"
	for r, c := range d.caps {
		total := int64(0)
		for i := range in.Jobs {
			if usable[i] {
				total += int64(in.Jobs[i].Demand[r])
			}
		}
		if total == 0 {
			continue
		}
		if c.constant == 0 {
			ps.add(pathIndex("resources", r), "total demand %d of %q can never fit: capacity is 0 per slot", total, in.Resources[r].Name)
			return horizonUnknown
		}
		T = max(T, (total+int64(c.constant)-1)/int64(c.constant))
		for i := range in.Jobs {
			j := &in.Jobs[i]
			if !usable[i] || j.Demand[r] == 0 {
				continue
			}
			rate := int64(rateOf(c.constant, j.MaxParallel))
			T = max(T, int64(j.Release-1)+(int64(j.Demand[r])+rate-1)/rate)
		}
	}
	for i := range in.Jobs {
		dl, ok := in.Jobs[i].Utility.(Deadliner)
		if !ok || ps.under(pathKey(pathIndex("jobs", i), "utility")) {
			continue
		}
		s := math.Ceil(dl.NamedSlot())
		if s > float64(T) {
			if s > MaxHorizon {
				T = MaxHorizon + 1
			} else {
				T = int64(s)
			}
			source = "utility"
		}
	}
	if T > MaxHorizon {
		ps.add("horizon", "not given, and the default (from the %s) would exceed the limit of %d slots; give \"horizon\" explicitly", source, MaxHorizon)
		return horizonUnknown
	}
	in.Horizon, in.HorizonSource = int(T), source
	return state
}
