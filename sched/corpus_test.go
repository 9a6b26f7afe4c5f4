package sched

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden .want files of testdata/instances/bad")

const instancesDir = "../testdata/instances"

func validFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(instancesDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no valid instances in %s (%v)", instancesDir, err)
	}
	return append(files, filepath.Join("..", "testdata", "quickstart.json"))
}

func badFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(instancesDir, "bad", "*.json"))
	if err != nil || len(files) < 25 {
		t.Fatalf("want at least 25 malformed instances, found %d (%v)", len(files), err)
	}
	return files
}

// Every malformed instance is rejected with the problems recorded in its .want file,
// each naming a JSON path (or, for a syntax error, a line and column).
func TestMalformedInstances(t *testing.T) {
	for _, file := range badFiles(t) {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(data)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Parse = %v, want a *ValidationError", err)
			}
			for _, p := range ve.Problems {
				if p.Path == "" && !strings.Contains(p.Msg, "line ") && !documentLevel(p.Msg) {
					t.Errorf("problem without a path: %q", p.Msg)
				}
			}
			got := err.Error() + "\n"
			golden := strings.TrimSuffix(file, ".json") + ".want"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./sched -run TestMalformedInstances -update)", err)
			}
			if got != string(want) {
				t.Errorf("problems differ from %s\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// documentLevel recognises the few problems about the document as a whole.
func documentLevel(msg string) bool {
	return strings.HasPrefix(msg, "empty document") || strings.HasPrefix(msg, "the document must be")
}

func TestValidInstances(t *testing.T) {
	want := map[string]struct {
		horizon int
		source  string
	}{
		"constant.json":              {4, "demand"},
		"linear-hard.json":           {10, "file"},
		"linear.json":                {10, "file"},
		"piecewise.json":             {10, "file"},
		"rds.json":                   {12, "utility"},
		"release-max-parallel.json":  {12, "file"},
		"runtime-robust.json":        {12, "file"},
		"sigmoid.json":               {10, "file"},
		"step.json":                  {8, "file"},
		"table.json":                 {6, "utility"},
		"time-varying-capacity.json": {10, "capacity"},
		"two-resources.json":         {8, "file"},
		"quickstart.json":            {12, "file"},
	}
	for _, file := range validFiles(t) {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			in, err := DecodeFile(file)
			if err != nil {
				t.Fatal(err)
			}
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expected horizon for %s", name)
			}
			if in.Horizon != w.horizon || in.HorizonSource != w.source {
				t.Errorf("horizon %d from %q, want %d from %q", in.Horizon, in.HorizonSource, w.horizon, w.source)
			}
			if err := in.Validate(); err != nil {
				t.Errorf("decoded instance fails Validate:\n%v", err)
			}
			var buf bytes.Buffer
			if err := Encode(&buf, in); err != nil {
				t.Fatal(err)
			}
			back, err := Decode(&buf)
			if err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
			if back.Horizon != in.Horizon || len(back.Jobs) != len(in.Jobs) {
				t.Errorf("re-decoded horizon %d, %d jobs; want %d, %d", back.Horizon, len(back.Jobs), in.Horizon, len(in.Jobs))
			}
		})
	}
}

// schemaBlind lists the malformed files whose only problems are rules a JSON Schema
// cannot state; for every other file the schema and the Go checks must both reject.
var schemaBlind = map[string]string{
	"duplicate-job-id.json":             "uniqueness of a property across array items",
	"duplicate-resource-name.json":      "uniqueness of a property across array items",
	"duplicate-key.json":                "duplicate object keys are invisible after JSON parsing",
	"demand-unknown-resource.json":      "demand keys must name resources declared elsewhere",
	"capacity-array-length.json":        "array length relative to horizon",
	"capacity-arrays-disagree.json":     "array lengths relative to each other",
	"capacity-too-small.json":           "sums over jobs and slots",
	"capacity-zero-no-horizon.json":     "sums over jobs and slots",
	"job-cannot-finish.json":            "arithmetic over release, max_parallel and horizon",
	"job-cannot-finish-varying.json":    "arithmetic over release, capacities and horizon",
	"default-horizon-too-large.json":    "the default horizon is computed",
	"utility-increasing-table.json":     "monotonicity of a function",
	"utility-increasing-step.json":      "monotonicity of a function",
	"utility-increasing-sigmoid.json":   "monotonicity of a function",
	"utility-increasing-piecewise.json": "monotonicity of a function",
}

// The embedded JSON Schema and the Go validator agree: both accept every valid
// instance, both reject every malformed one the schema can judge.
func TestSchemaAgreesWithGo(t *testing.T) {
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	check := func(file string) (schemaRejects, goRejects bool, detail string) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		root, err := parseTree(data)
		if err != nil {
			return true, true, "syntax" // neither can read it
		}
		var ps problems
		decodeTree(root, &ps)
		sp := schemaProblems(sch, root)
		return len(sp) > 0, len(ps.list) > 0, (&ValidationError{Problems: append(sp, ps.list...)}).Error()
	}
	for _, file := range validFiles(t) {
		if s, g, detail := check(file); s || g {
			t.Errorf("%s: schema rejects %v, Go rejects %v:\n%s", file, s, g, detail)
		}
	}
	for _, file := range badFiles(t) {
		s, g, detail := check(file)
		if !g {
			t.Errorf("%s: the Go checks accept it", file)
		}
		_, blind := schemaBlind[filepath.Base(file)]
		if s == blind {
			t.Errorf("%s: schema rejects %v, want %v:\n%s", file, s, !blind, detail)
		}
	}
}
