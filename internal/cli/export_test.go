package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model/lpformat"
	"github.com/coraopt/coraopt/model/mps"
)

// lpObjective runs `coraopt lp` on a model file (or stdin) and returns its objective.
func lpObjective(t *testing.T, stdin, path string, args ...string) float64 {
	t.Helper()
	code, stdout, stderr := runCLI(context.Background(), stdin, append([]string{"lp", path, "-o", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("lp %s %v: exit %d: %s", path, args, code, stderr)
	}
	var res lpResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Objective == nil {
		t.Fatalf("lp output %q: %v", stdout, err)
	}
	return *res.Objective
}

func TestExportFinalMPS(t *testing.T) {
	code, stdout, stderr := runCLI(context.Background(), "", "export", filepath.Join(coraData, "spread.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	p, err := mps.Read(strings.NewReader(stdout), mps.Options{})
	if err != nil {
		t.Fatalf("reading the export back: %v\n%s", err, stdout)
	}
	// FINAL: 4 columns per cell (2 jobs × 2 slots), link and convex per cell, 2 capacity
	// rows, 2 demand rows.
	if p.NumCols() != 16 || p.NumRows() != 12 || p.Kind() != "LP" {
		t.Errorf("%s: %d columns, %d rows; want an LP with 16 and 12", p.Kind(), p.NumCols(), p.NumRows())
	}
	for _, name := range []string{"x[a,t1,containers]", "lamC[b,t2,containers]"} {
		if !strings.Contains(stdout, name) {
			t.Errorf("no %s in the file", name)
		}
	}
	want := 2*math.Pow(4, -9) + 2*math.Pow(4, -1)
	if got := lpObjective(t, stdout, "-", "--solver", "gonum"); math.Abs(got-want) > 1e-12 {
		t.Errorf("coraopt lp on the export: %v, want FINAL's optimum %v", got, want)
	}
}

func TestExportFormats(t *testing.T) {
	dir := t.TempDir()
	spread := filepath.Join(coraData, "spread.json")
	for _, c := range []struct {
		formulation, format string
		kind                string
		cols                int
		objective           float64 // NaN: not solved here
	}{
		{"cora-final", "lp", "LP", 16, 2*math.Pow(4, -9) + 2*math.Pow(4, -1)},
		{"cora-linearized", "mps", "LP", 2 * 2 * (2 + 2), 2*math.Pow(4, -9) + 2*math.Pow(4, -1)},
		{"cora-linearized", "lp", "LP", 16, 2*math.Pow(4, -9) + 2*math.Pow(4, -1)},
		{"tas", "mps", "MIP", 0, math.NaN()},
	} {
		t.Run(c.formulation+"."+c.format, func(t *testing.T) {
			out := filepath.Join(dir, c.formulation+"."+c.format)
			code, stdout, stderr := runCLI(context.Background(), "", "export", spread, "--formulation", c.formulation, "--format", c.format, "--out", out)
			if code != 0 || stdout != "" {
				t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var kind string
			var cols int
			if c.format == "lp" {
				p, err := lpformat.Read(strings.NewReader(string(data)), lpformat.Options{})
				if err != nil {
					t.Fatalf("reading back: %v", err)
				}
				kind, cols = p.Kind(), p.NumCols()
			} else {
				p, err := mps.Read(strings.NewReader(string(data)), mps.Options{})
				if err != nil {
					t.Fatalf("reading back: %v", err)
				}
				kind, cols = p.Kind(), p.NumCols()
			}
			if kind != c.kind || (c.cols > 0 && cols != c.cols) {
				t.Errorf("%s with %d columns, want %s with %d", kind, cols, c.kind, c.cols)
			}
			if !math.IsNaN(c.objective) {
				if got := lpObjective(t, "", out, "--solver", "gonum"); math.Abs(got-c.objective) > 1e-12 {
					t.Errorf("objective %v, want %v", got, c.objective)
				}
			}
		})
	}
}

func TestExportWarningsAndErrors(t *testing.T) {
	code, stdout, stderr := runCLI(context.Background(), "", "export", quickPath)
	if code != 0 || !strings.Contains(stderr, "coraopt: warning: the weights k^-u (k = 84)") || !strings.HasPrefix(stdout, "NAME") {
		t.Errorf("quickstart: exit %d, stderr %q, stdout starts %.20q", code, stderr, stdout)
	}
	// Whitespace in ids cannot go into MPS names: it becomes '_'.
	doc := `{"horizon": 1, "resources": [{"name": "big pool", "capacity": 2}],
	  "jobs": [{"id": "job one", "demand": {"big pool": 1}, "utility": {"type": "constant", "value": 1}}]}`
	code, stdout, stderr = runCLI(context.Background(), doc, "export", "-")
	if code != 0 || !strings.Contains(stdout, "x[job_one,t1,big_pool]") {
		t.Errorf("names with spaces: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"export", quickPath, "--strict"}, "underflow"},
		{[]string{"export", quickPath, "--format", "xml"}, `--format "xml"`},
		// Names are the registry's: rs has no single model, tas-mip is tas.
		{[]string{"export", quickPath, "--formulation", "rs"}, `--formulation "rs": no single model to build (formulations with one: tas, cora-final, cora-linearized)`},
		{[]string{"export", quickPath, "--formulation", "tas-mip"}, `--formulation "tas-mip": unknown`},
		{[]string{"export", quickPath, "--formulation", "tas", "--k", "3"}, "--k applies to --formulation cora-final, cora-linearized"},
		{[]string{"export", "no-such.json"}, "no-such.json"},
		{[]string{"export", quickPath, "--k", "0.5"}, "base k"},
		{[]string{"export", quickPath, "--out", filepath.Join(t.TempDir(), "no", "dir", "x.mps")}, "no such file"},
		// -o is the output format everywhere; export's file is --out, and an old
		// "-o FILE" is refused rather than taken as a format or a file.
		{[]string{"export", quickPath, "-o", "x.mps"}, "--out FILE"},
		{[]string{"export", quickPath, "-o", "json"}, "--format mps|lp"},
	} {
		code, _, stderr := runCLI(context.Background(), "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.stderr)
		}
	}
}
