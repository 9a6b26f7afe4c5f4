package sched

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
)

//go:embed instance.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the instance file, as published in
// sched/instance.schema.json (a fresh copy on each call). Decode validates every
// document against it in addition to the Go checks; the Go checks also enforce what a
// schema cannot say (see the package documentation).
func Schema() []byte { return slices.Clone(schemaJSON) }

const schemaURL = "https://github.com/coraopt/coraopt/sched/instance.schema.json"

//go:embed schedule.schema.json
var scheduleSchemaJSON []byte

// ScheduleSchema returns the JSON Schema (draft 2020-12) of a schedule document
// (ScheduleJSON, dense or compact), as published in sched/schedule.schema.json.
func ScheduleSchema() []byte { return slices.Clone(scheduleSchemaJSON) }

// compiledSchema compiles the embedded schema once; the result is immutable.
var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("sched: embedded schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("sched: embedded schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("sched: compiling embedded schema: %w", err)
	}
	return sch, nil
})

// schemaProblems validates the document against the schema and translates the
// library's findings into path: message Problems in the decoder's own words.
func schemaProblems(sch *jsonschema.Schema, root *node) []Problem {
	err := sch.Validate(root.toAny())
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Msg: "schema validation: " + err.Error()}}
	}
	var out []Problem
	collectSchemaProblems(ve, root, &out)
	// The validator walks objects as Go maps; sort for a deterministic report.
	slices.SortStableFunc(out, func(a, b Problem) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func collectSchemaProblems(e *jsonschema.ValidationError, root *node, out *[]Problem) {
	path := instancePath(root, e.InstanceLocation)
	add := func(p, format string, args ...any) {
		*out = append(*out, Problem{Path: p, Msg: fmt.Sprintf(format, args...)})
	}
	switch k := e.ErrorKind.(type) {
	case *kind.OneOf:
		// A utility or runtime: report only the branch whose "type" matched; when none
		// did, the enum on "type" has already said so.
		if k.Subschemas != nil {
			add(path, "matches more than one alternative")
			return
		}
		if obj := nodeAt(root, e.InstanceLocation); obj == nil || obj.kind != kindObject || obj.get("type") == nil {
			return // "required" on the wrapper reports the missing type
		}
		loc := append(slices.Clone(e.InstanceLocation), "type")
		for _, c := range e.Causes {
			if !failsAt(c, loc) {
				collectSchemaProblems(c, root, out)
			}
		}
		return
	case *kind.Type:
		add(path, "must be %s, got %s", wantTypes(k.Want), k.Got)
	case *kind.Required:
		for _, m := range k.Missing {
			add(pathKey(path, m), "required")
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add(pathKey(path, p), "unknown field")
		}
	case *kind.Minimum:
		add(path, "must be >= %s", ratString(k.Want))
	case *kind.Maximum:
		add(path, "must be <= %s", ratString(k.Want))
	case *kind.ExclusiveMinimum:
		add(path, "must be > %s", ratString(k.Want))
	case *kind.ExclusiveMaximum:
		add(path, "must be < %s", ratString(k.Want))
	case *kind.MinItems:
		add(path, "must have at least %s, got %d", entries(k.Want), k.Got)
	case *kind.MaxItems:
		add(path, "must have at most %s, got %d", entries(k.Want), k.Got)
	case *kind.MinProperties:
		add(path, "must have at least %s", entries(k.Want))
	case *kind.MinLength:
		add(path, "must not be empty")
	case *kind.Enum:
		add(path, "must be one of %s, got %v", enumList(k.Want), k.Got)
	case *kind.Const:
		add(path, "must be %v", k.Want)
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
	default:
		leaf := &jsonschema.ValidationError{SchemaURL: e.SchemaURL, ErrorKind: e.ErrorKind}
		msg := leaf.Error()
		if _, after, ok := strings.Cut(msg, ": "); ok {
			msg = after
		}
		add(path, "%s", msg)
	}
	for _, c := range e.Causes {
		collectSchemaProblems(c, root, out)
	}
}

// failsAt reports whether e or one of its causes is an error at the instance location
// loc, which for a oneOf branch means its "type" const did not match.
func failsAt(e *jsonschema.ValidationError, loc []string) bool {
	if _, ok := e.ErrorKind.(*kind.Const); ok && slices.Equal(e.InstanceLocation, loc) {
		return true
	}
	for _, c := range e.Causes {
		if failsAt(c, loc) {
			return true
		}
	}
	return false
}

// nodeAt follows a JSON Pointer's tokens through the document.
func nodeAt(root *node, tokens []string) *node {
	n := root
	for _, tok := range tokens {
		switch {
		case n == nil:
			return nil
		case n.kind == kindArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.arr) {
				return nil
			}
			n = n.arr[i]
		case n.kind == kindObject:
			n = n.get(tok)
		default:
			return nil
		}
	}
	return n
}

// instancePath turns a JSON Pointer's tokens into the decoder's path syntax, looking at
// the document to tell array indices from object keys.
func instancePath(root *node, tokens []string) string {
	path, n := "", root
	for _, tok := range tokens {
		if n != nil && n.kind == kindArray {
			i, err := strconv.Atoi(tok)
			if err == nil && i >= 0 && i < len(n.arr) {
				path, n = pathIndex(path, i), n.arr[i]
				continue
			}
		}
		path = pathKey(path, tok)
		if n != nil && n.kind == kindObject {
			n = n.get(tok)
		} else {
			n = nil
		}
	}
	return path
}

func wantTypes(want []string) string {
	words := make([]string, len(want))
	for i, w := range want {
		switch w {
		case "integer", "array", "object":
			words[i] = "an " + w
		case "boolean":
			words[i] = "true or false"
		default:
			words[i] = "a " + w
		}
	}
	return strings.Join(words, " or ")
}

func ratString(r *big.Rat) string {
	if r.IsInt() && r.Num().BitLen() <= 53 {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func enumList(vals []any) string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}
