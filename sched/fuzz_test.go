package sched

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecode: no input panics or hangs; every rejection is a *ValidationError whose
// problems all say something; every accepted instance passes Validate, passes the JSON
// Schema (Parse skips the schema when the Go checks accept) and survives Encode →
// Decode unchanged. The seed corpus in testdata/fuzz/FuzzDecode holds the valid
// and malformed instances of testdata/instances.
func FuzzDecode(f *testing.F) {
	for _, pattern := range []string{"../testdata/instances/*.json", "../testdata/instances/bad/*.json", "../testdata/quickstart.json"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(data)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("Parse error %v is not a non-empty *ValidationError", err)
			}
			for _, p := range ve.Problems {
				if p.Msg == "" {
					t.Fatalf("problem at %q has no message", p.Path)
				}
			}
			return
		}
		if err := in.Validate(); err != nil {
			t.Fatalf("Decode accepted an instance Validate rejects:\n%v\ninput:\n%s", err, data)
		}
		sch, err := compiledSchema()
		if err != nil {
			t.Fatal(err)
		}
		if root, err := parseTree(data); err != nil {
			t.Fatal(err)
		} else if ps := schemaProblems(sch, root); len(ps) > 0 {
			t.Fatalf("Parse accepted a document the schema rejects: %v\ninput:\n%s", ps, data)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, in); err != nil {
			t.Fatalf("Encode: %v", err)
		}
		back, err := Decode(&buf)
		if err != nil {
			t.Fatalf("re-decoding the encoded instance: %v\n%s", err, buf.Bytes())
		}
		in.HorizonSource = "file"
		if d := cmp.Diff(in, back); d != "" {
			t.Fatalf("Encode → Decode changed the instance (-want +got):\n%s", d)
		}
	})
}
