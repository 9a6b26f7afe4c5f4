package protocol

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schema/*.schema.json
var schemaFS embed.FS

// SchemaBase is the URL prefix of the schemas' $id.
const SchemaBase = "https://github.com/coraopt/coraopt/policies/external/protocol/schema/"

// Messages are the message types that have a schema, engine's first.
var Messages = []string{TypeHello, TypeAdmit, TypeRound, TypeEnd, TypeReady, TypeRefuse, TypeAdmission, TypeDecision, TypeBye, TypeError}

// Schema returns the JSON Schema (draft 2020-12) of a message type, as published in
// policies/external/protocol/schema/TYPE.schema.json; event is the schema of one event.
func Schema(name string) ([]byte, error) {
	data, err := schemaFS.ReadFile("schema/" + name + ".schema.json")
	if err != nil {
		return nil, fmt.Errorf("protocol: no schema %q", name)
	}
	return slices.Clone(data), nil
}

var compiled = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	entries, err := schemaFS.ReadDir("schema")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		data, err := schemaFS.ReadFile("schema/" + e.Name())
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("protocol: schema %s: %w", e.Name(), err)
		}
		if err := c.AddResource(SchemaBase+e.Name(), doc); err != nil {
			return nil, fmt.Errorf("protocol: schema %s: %w", e.Name(), err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for _, e := range entries {
		sch, err := c.Compile(SchemaBase + e.Name())
		if err != nil {
			return nil, fmt.Errorf("protocol: compiling %s: %w", e.Name(), err)
		}
		out[strings.TrimSuffix(e.Name(), ".schema.json")] = sch
	}
	return out, nil
})

// Validate checks one message (a JSON document) against the schema of its "type". It
// is for tests of the engine and of clients: the engine itself decodes replies with
// DecodeReply, which checks the same and names the field.
func Validate(line []byte) error {
	schemas, err := compiled()
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return fmt.Errorf("not a JSON object")
	}
	t, _ := obj["type"].(string)
	sch, ok := schemas[t]
	if !ok || t == "event" {
		return fmt.Errorf("type %q: no such message", obj["type"])
	}
	return sch.Validate(doc)
}
