package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

func TestParse(t *testing.T) {
	f, err := Parse([]byte(`{"workloads": ["w.json", {"family": "rush", "jobs": 20, "seed": 4, "budget_ratio": 1.5}],
		"policies": ["fifo", {"name": "edf"}], "seeds": [3, 1, 2], "bound": true, "slot": 30, "metrics": ["jobs"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &File{
		Workloads: []WorkloadSpec{{Path: "w.json"}, {Family: "rush", Jobs: 20, Seed: 4, BudgetRatio: 1.5}},
		Policies:  []PolicySpec{{Name: "fifo"}, {Name: "edf"}},
		Seeds:     []uint64{3, 1, 2},
		Bound:     true, Slot: 30,
		// The aggregated metrics and vs_bound are always kept, in AllMetrics order.
		Metrics: []string{"min_utility", "sum_utility", "deadlines_met", "deadline_miss_penalty", "vs_bound", "jobs"},
	}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Fatalf("Parse (-want +got):\n%s", diff)
	}
	// External policies: the string form, and the object form with a timeout and
	// parameters (the rest of its keys).
	ext, err := Parse([]byte(`{"workloads": ["w.json"], "seeds": [1],
		"policies": ["exec:mine=python3 'my policy.py' --fast", {"name": "tuned", "exec": "./tuned", "timeout": 2.5, "alpha": 0.3}]}`))
	if err != nil {
		t.Fatal(err)
	}
	wantExt := []PolicySpec{{Name: "mine", Exec: "python3 'my policy.py' --fast"}, {Name: "tuned", Exec: "./tuned", Timeout: 2500 * time.Millisecond, Params: all.Params{"alpha": 0.3}}}
	if diff := cmp.Diff(wantExt, ext.Policies); diff != "" {
		t.Fatalf("exec policies (-want +got):\n%s", diff)
	}
	if got := f.Workloads[1].Label(); got != "rush:jobs=20:seed=4:budget_ratio=1.5" {
		t.Errorf("label %q", got)
	}
	// replications from a first seed; defaults.
	f, err = Parse([]byte(`{"workloads": [{"family": "cora", "jobs": 5e0}], "policies": ["rrh"], "replications": 3.0, "seed": 10}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Seeds, []uint64{10, 11, 12}) || f.Slot != 60 || f.Bound || !slices.Equal(f.Metrics, defaultMetrics) || f.Workloads[0].Seed != 1 {
		t.Fatalf("got %+v", f)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"empty", ``, `empty document: expected a JSON object`},
		{"syntax", "{\n\"workloads\": [}", `syntax error at line 2`},
		{"not object", `[1]`, `must be an object, got array`},
		{"two values", `{} {}`, `more than one JSON value`},
		{"required", `{}`, "workloads: required\npolicies: required\nseeds: required: give \"seeds\" or \"replications\""},
		{"unknown field", `{"workloads": ["a"], "policies": ["fifo"], "seeds": [1], "sed": 1}`, `sed: unknown field`},
		{"empty workloads", `{"workloads": [], "policies": ["fifo"], "seeds": [1]}`, `workloads: must have at least 1 entry, got 0`},
		{"workload type", `{"workloads": [3], "policies": ["fifo"], "seeds": [1]}`, `workloads[0]: must be a path (string) or a generator`},
		{"family", `{"workloads": [{"family": "x", "jobs": 3}], "policies": ["fifo"], "seeds": [1]}`, `workloads[0].family: must be one of cora, rush, rds, got "x"`},
		{"jobs", `{"workloads": [{"family": "cora", "jobs": 0}], "policies": ["fifo"], "seeds": [1]}`, `workloads[0].jobs: must be from 1 to`},
		{"jobs beyond gen's bound", `{"workloads": [{"family": "rds", "jobs": 200001}], "policies": ["fifo"], "seeds": [1]}`, `workloads[0].jobs: must be from 1 to 200000`},
		{"jobs float", `{"workloads": [{"family": "cora", "jobs": 2.5}], "policies": ["fifo"], "seeds": [1]}`, `workloads[0].jobs: must be an integer`},
		{"jobs missing", `{"workloads": [{"family": "cora"}], "policies": ["fifo"], "seeds": [1]}`, `workloads[0].jobs: required`},
		{"generator field", `{"workloads": [{"family": "cora", "jobs": 3, "n": 1}], "policies": ["fifo"], "seeds": [1]}`, `workloads[0].n: unknown field`},
		{"budget ratio family", `{"workloads": [{"family": "cora", "jobs": 3, "budget_ratio": 2}], "policies": ["fifo"], "seeds": [1]}`, `workloads[0].budget_ratio: only the rush family`},
		{"duplicate workload", `{"workloads": ["a", "a"], "policies": ["fifo"], "seeds": [1]}`, `workloads[1]: the same workload as workloads[0]`},
		{"unknown policy", `{"workloads": ["a"], "policies": ["fifo", "nope"], "seeds": [1]}`, `policies[1]: unknown policy "nope"`},
		{"unknown policy object", `{"workloads": ["a"], "policies": [{"name": "nope"}], "seeds": [1]}`, `policies[0].name: unknown policy "nope"`},
		{"policy without name", `{"workloads": ["a"], "policies": [{"delta": 0.7}], "seeds": [1]}`, `policies[0].name: required`},
		{"parameter of a policy without any", `{"workloads": ["a"], "policies": [{"name": "fifo", "delta": 0.7}], "seeds": [1]}`, `policies[0].delta: unknown parameter (this policy takes none)`},
		{"duplicate policy", `{"workloads": ["a"], "policies": ["fifo", {"name": "fifo"}], "seeds": [1]}`, `policies[1]: the same policy as policies[0]`},
		{"seeds and replications", `{"workloads": ["a"], "policies": ["fifo"], "seeds": [1], "replications": 2}`, `seeds: give either`},
		{"seed alone", `{"workloads": ["a"], "policies": ["fifo"], "seed": 2}`, `replications: required with "seed"`},
		{"negative seed", `{"workloads": ["a"], "policies": ["fifo"], "seeds": [1, -1]}`, `seeds[1]: must be from 0 to`},
		{"repeated seed", `{"workloads": ["a"], "policies": ["fifo"], "seeds": [4, 5, 4]}`, `seeds[2]: repeats seeds[0]`},
		{"replications", `{"workloads": ["a"], "policies": ["fifo"], "replications": 0}`, `replications: must be from 1 to`},
		{"slot", `{"workloads": ["a"], "policies": ["fifo"], "seeds": [1], "slot": 0}`, `slot: must be > 0`},
		{"bound", `{"workloads": ["a"], "policies": ["fifo"], "seeds": [1], "bound": "yes"}`, `bound: must be a boolean, got string`},
		{"metric", `{"workloads": ["a"], "policies": ["fifo"], "seeds": [1], "metrics": ["speed"]}`, `metrics[0]: unknown metric "speed"`},
		{"several", `{"workloads": [""], "policies": [7], "seeds": [1]}`, "workloads[0]: must not be empty\npolicies[0]: must be a policy name"},
		{"exec without =", `{"workloads": ["a"], "policies": ["exec:mine"], "seeds": [1]}`, `policies[0]: "exec:mine": want exec:NAME=CMD`},
		{"exec registered name", `{"workloads": ["a"], "policies": [{"name": "edf", "exec": "python3 edf.py"}], "seeds": [1]}`, `policies[0]: "edf" is a registered policy's name`},
		{"exec bad name", `{"workloads": ["a"], "policies": ["exec:my policy=x"], "seeds": [1]}`, `use letters, digits`},
		{"exec quote", `{"workloads": ["a"], "policies": [{"name": "p", "exec": "python3 'x"}], "seeds": [1]}`, `policies[0].exec: command "python3 'x": unclosed ' quote`},
		{"exec not a string", `{"workloads": ["a"], "policies": [{"name": "p", "exec": 3}], "seeds": [1]}`, `policies[0].exec: must be a string`},
		{"exec timeout", `{"workloads": ["a"], "policies": [{"name": "p", "exec": "x", "timeout": -1}], "seeds": [1]}`, `policies[0].timeout: must be a number of seconds >= 0`},
		{"duplicate exec", `{"workloads": ["a"], "policies": ["exec:p=x", {"name": "p", "exec": "y"}], "seeds": [1]}`, `policies[1]: the same policy as policies[0]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			var ve *sched.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Parse = %v, want a *sched.ValidationError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error\n%v\ndoes not contain\n%s", err, tc.want)
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	_, err := Parse(bytes.Repeat([]byte(" "), MaxFileBytes+1))
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("oversized file: %v", err)
	}
	// 4096 × 4096 × 2 cells is past MaxCells.
	var b strings.Builder
	b.WriteString(`{"workloads": [`)
	for i := range 4096 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"w` + strings.Repeat("x", i%7) + `/` + strconv.Itoa(i) + `"`)
	}
	b.WriteString(`], "policies": ["fifo", "fair"], "replications": 4096}`)
	if _, err := Parse([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "more than the limit") {
		t.Fatalf("huge grid: %v", err)
	}
}

// The published schema and Parse agree on the corpus in testdata/files: every good-*.json
// passes both; every bad-*.json fails both, except the go-only-* files, which break
// rules a schema cannot state (the registry's policy names, repeats) and fail Parse only.
func TestSchemaAgreesWithParse(t *testing.T) {
	c := jsonschema.NewCompiler()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://github.com/coraopt/coraopt/sweep/sweep.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "files", "*.json"))
	if len(files) < 10 {
		t.Fatalf("only %d files in testdata/files", len(files))
	}
	for _, path := range files {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, perr := Parse(data)
		var serr error
		if v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data)); err != nil {
			serr = err
		} else {
			serr = sch.Validate(v)
		}
		switch {
		case strings.HasPrefix(name, "good-"):
			if perr != nil || serr != nil {
				t.Errorf("%s: Parse %v; schema %v", name, perr, serr)
			}
		case strings.HasPrefix(name, "bad-"):
			if perr == nil || serr == nil {
				t.Errorf("%s: Parse %v; schema %v (both must reject it)", name, perr, serr)
			}
		case strings.HasPrefix(name, "go-only-"):
			if perr == nil || serr != nil {
				t.Errorf("%s: Parse %v (must reject); schema %v (accepts)", name, perr, serr)
			}
		default:
			t.Errorf("%s: name it good-, bad- or go-only-", name)
		}
	}
}

// AllMetrics is the list of sim.Metrics' JSON keys: a metric added to sim must be added
// here (or the sweep silently cannot keep it).
func TestAllMetricsAreSimMetrics(t *testing.T) {
	names, _ := json.Marshal(AllMetrics)
	s := loadTiny(t, `"bound": true, "metrics": `+string(names))
	rec, err := s.RunCell(t.Context(), 0)
	if err != nil || rec.Error != "" {
		t.Fatal(err, rec.Error)
	}
	var got []string
	for k := range rec.Metrics {
		got = append(got, k)
	}
	slices.Sort(got)
	want := slices.Clone(AllMetrics)
	want = slices.DeleteFunc(want, func(k string) bool { return k == "clairvoyant" }) // omitempty: false for baselines
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("metric keys (-AllMetrics +record):\n%s", diff)
	}
}

func TestPolicyLabel(t *testing.T) {
	p := PolicySpec{Name: "rush", Params: all.Params{"theta": 0.9, "delta": 0.7, "mode": "x"}}
	if got := p.Label(); got != `rush(delta=0.7,mode="x",theta=0.9)` {
		t.Fatalf("label %s", got)
	}
	if got := (PolicySpec{Name: "fifo"}).Label(); got != "fifo" {
		t.Fatalf("label %s", got)
	}
}

// Integral numbers past int64 are out of range, not wrapped around to negative seeds.
func TestParseHugeIntegers(t *testing.T) {
	for _, doc := range []string{
		`{"workloads": ["a"], "policies": ["fifo"], "seeds": [9223372036854775808.0]}`,
		`{"workloads": ["a"], "policies": ["fifo"], "seeds": [1e19]}`,
		`{"workloads": ["a"], "policies": ["fifo"], "seeds": [-1e0]}`,
	} {
		if f, err := Parse([]byte(doc)); err == nil || !strings.Contains(err.Error(), "seeds[0]: must be") {
			t.Errorf("%s: %v %+v", doc, err, f)
		}
	}
}

// Load reports a sweep file's own problems and its workloads' at once: a missing
// workload file used to surface only after the schema errors were fixed (issue 32). A
// workload is named by its index in the document even when an earlier entry was refused.
func TestLoadReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	doc := `{"workloads": [7, "missing.json", {"family": "rds", "jobs": 2, "seed": 1}, "gone.json"],
	 "policies": ["fifo", "bogus"], "replications": 0, "extra": 1}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	var ve *sched.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a *sched.ValidationError, got %v", err)
	}
	var got []string
	for _, p := range ve.Problems {
		got = append(got, p.Path)
	}
	want := []string{"extra", "workloads[0]", "policies[1]", "replications", "workloads[1]", "workloads[3]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problem paths (-want +got):\n%s\n%v", diff, err)
	}
	if !strings.Contains(err.Error(), "workloads[1]: workload: open") || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("the missing workload is not named at its path:\n%v", err)
	}
}

// A sweep file names each policy once, by the rule simulate --policies follows
// (all.Repeated over the labels, parameters included): the first repeat is refused
// naming both entries; rush and rush with a parameter are two policies.
func TestParseRepeatedPolicy(t *testing.T) {
	doc := `{"workloads": ["a"], "seeds": [1], "policies": ["fifo", "edf", {"name": "rush", "delta": 0.7}, "rush", {"delta": 0.7, "name": "rush"}, "edf"]}`
	_, err := Parse([]byte(doc))
	var ve *sched.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a *sched.ValidationError, got %v", err)
	}
	want := []sched.Problem{{Path: "policies[4]", Msg: "the same policy as policies[2]"}}
	if diff := cmp.Diff(want, ve.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	labels := []string{"fifo", "edf", "rush(delta=0.7)", "rush", "rush(delta=0.7)", "edf"}
	if j, k := all.Repeated(labels); j != 2 || k != 4 {
		t.Errorf("simulate's rule finds (%d, %d) on the same labels, the sweep file (2, 4)", j, k)
	}
}

// A generator in a sweep file runs through coraopt gen's registry and draws what the
// family's generator draws: the workloads, and so the records, are unchanged.
func TestGeneratorIsGens(t *testing.T) {
	for _, tc := range []struct {
		spec WorkloadSpec
		want func() (*workload.Workload, error)
	}{
		{WorkloadSpec{Family: "cora", Jobs: 5, Seed: 2, BudgetRatio: 2}, func() (*workload.Workload, error) { return workload.CORAWorkload(5, 2) }},
		{WorkloadSpec{Family: "rush", Jobs: 4, Seed: 3, BudgetRatio: 1.5}, func() (*workload.Workload, error) { return workload.RUSHWorkload(4, 3, 1.5) }},
		{WorkloadSpec{Family: "rds", Jobs: 3, Seed: 1, BudgetRatio: 2}, func() (*workload.Workload, error) { return workload.RDSWorkload(3, 1) }},
	} {
		got, err := tc.spec.load(".")
		if err != nil {
			t.Fatalf("%s: %v", tc.spec.Label(), err)
		}
		want, err := tc.want()
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(want, got) {
			t.Errorf("%s: not the family's workload", tc.spec.Label())
		}
	}
}
