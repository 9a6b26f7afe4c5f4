package workload

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/coraopt/coraopt/sched"
)

//go:embed workload.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the workload file, as published in
// workload/workload.schema.json (a fresh copy on each call). Utilities refer to the
// instance file's schema (sched.Schema), so both files accept the same utilities.
func Schema() []byte { return slices.Clone(schemaJSON) }

const (
	schemaURL         = "https://github.com/coraopt/coraopt/workload/workload.schema.json"
	instanceSchemaURL = "https://github.com/coraopt/coraopt/sched/instance.schema.json"
)

var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	for url, data := range map[string][]byte{schemaURL: schemaJSON, instanceSchemaURL: sched.Schema()} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("workload: embedded schema %s: %w", url, err)
		}
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("workload: embedded schema %s: %w", url, err)
		}
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("workload: compiling embedded schema: %w", err)
	}
	return sch, nil
})

// schemaProblems validates doc (as jsonschema.UnmarshalJSON returns it) and turns the
// findings into path: message problems, sorted by path.
func schemaProblems(doc any) ([]sched.Problem, error) {
	sch, err := compiledSchema()
	if err != nil {
		return nil, err
	}
	err = sch.Validate(doc)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []sched.Problem{{Msg: "schema validation: " + err.Error()}}, nil
	}
	var out []sched.Problem
	collect(ve, doc, &out)
	if len(out) == 0 {
		// A finding collect has no words for must still reject the document.
		out = append(out, sched.Problem{Path: jsonPath(doc, ve.InstanceLocation), Msg: "does not match the schema: " + ve.Error()})
	}
	slices.SortStableFunc(out, func(a, b sched.Problem) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b sched.Problem) bool { return a == b }), nil
}

func collect(e *jsonschema.ValidationError, doc any, out *[]sched.Problem) {
	path := jsonPath(doc, e.InstanceLocation)
	add := func(p, format string, args ...any) {
		*out = append(*out, sched.Problem{Path: p, Msg: fmt.Sprintf(format, args...)})
	}
	switch k := e.ErrorKind.(type) {
	case *kind.OneOf:
		// A runtime, utility or "exactly one of" choice: report the branch whose "type"
		// matched; when none did, the enum on "type" says so. Without a type (a cluster
		// or stage choosing between two fields) say which fields are alternatives.
		obj, _ := valueAt(doc, e.InstanceLocation).(map[string]any)
		if obj == nil {
			return
		}
		if _, typed := obj["type"]; !typed {
			if k.Subschemas != nil || len(e.Causes) > 0 {
				add(path, "%s", alternatives(e.SchemaURL))
			}
			return
		}
		loc := append(slices.Clone(e.InstanceLocation), "type")
		for _, c := range e.Causes {
			if !constFailsAt(c, loc) {
				collect(c, doc, out)
			}
		}
		return
	case *kind.Type:
		add(path, "must be %s, got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Required:
		for _, m := range k.Missing {
			add(key(path, m), "required")
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add(key(path, p), "unknown field")
		}
	case *kind.Minimum:
		add(path, "must be >= %s", rat(k.Want))
	case *kind.Maximum:
		add(path, "must be <= %s", rat(k.Want))
	case *kind.ExclusiveMinimum:
		add(path, "must be > %s", rat(k.Want))
	case *kind.ExclusiveMaximum:
		add(path, "must be < %s", rat(k.Want))
	case *kind.MinItems:
		add(path, "must have at least %s, got %d", entries(k.Want), k.Got)
	case *kind.MaxItems:
		add(path, "must have at most %s, got %d", entries(k.Want), k.Got)
	case *kind.MinProperties:
		add(path, "must have at least %s", entries(k.Want))
	case *kind.MinLength:
		add(path, "must not be empty")
	case *kind.Enum:
		add(path, "must be one of %v, got %v", k.Want, k.Got)
	case *kind.Not:
		// A stage's own "not" forbids giving both data and task_data; the "not"s inside
		// a oneOf are reported through it.
		if strings.HasSuffix(e.SchemaURL, "/$defs/stage") {
			add(path, `must give at most one of "data" and "task_data"`)
		}
	case *kind.Const:
		// Reported through the enclosing oneOf.
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
	default:
		msg := (&jsonschema.ValidationError{SchemaURL: e.SchemaURL, ErrorKind: e.ErrorKind}).Error()
		if _, after, ok := strings.Cut(msg, ": "); ok {
			msg = after
		}
		add(path, "%s", msg)
	}
	for _, c := range e.Causes {
		collect(c, doc, out)
	}
}

// alternatives words a typeless oneOf of the schema by where it sits.
func alternatives(schemaURL string) string {
	switch {
	case strings.Contains(schemaURL, "/cluster"):
		return `must give exactly one of "pools" and "workers"`
	case strings.Contains(schemaURL, "/stage"):
		return `must give exactly one of "runtime" and "task_runtimes"`
	}
	return "must match exactly one alternative"
}

func constFailsAt(e *jsonschema.ValidationError, loc []string) bool {
	if _, ok := e.ErrorKind.(*kind.Const); ok && slices.Equal(e.InstanceLocation, loc) {
		return true
	}
	for _, c := range e.Causes {
		if constFailsAt(c, loc) {
			return true
		}
	}
	return false
}

func valueAt(doc any, tokens []string) any {
	v := doc
	for _, tok := range tokens {
		switch x := v.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		case map[string]any:
			v = x[tok]
		default:
			return nil
		}
	}
	return v
}

// jsonPath writes a JSON Pointer's tokens as jobs[3].stages[0].pool, telling array
// indices from keys by the document.
func jsonPath(doc any, tokens []string) string {
	path, v := "", doc
	for _, tok := range tokens {
		if arr, ok := v.([]any); ok {
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(arr) {
				path, v = index(path, i), arr[i]
				continue
			}
		}
		path = key(path, tok)
		if obj, ok := v.(map[string]any); ok {
			v = obj[tok]
		} else {
			v = nil
		}
	}
	return path
}

func rat(r *big.Rat) string {
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// key appends an object key: ".key" for identifier-like keys, `["odd key"]` otherwise.
func key(path, k string) string {
	ident := k != ""
	for i, r := range k {
		if !(r == '_' || r == '-' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9' && i > 0)) {
			ident = false
		}
	}
	switch {
	case !ident:
		return path + "[" + strconv.Quote(k) + "]"
	case path == "":
		return k
	}
	return path + "." + k
}

func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
