package cli

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const coraData = "../../testdata/cora"

func TestSolveCORAGolden(t *testing.T) {
	code, stdout, stderr := runCLI(context.Background(), "", "solve", filepath.Join(coraData, "spread.json"),
		"--formulation", "cora-final", "--solver", "gonum", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkGolden(t, filepath.Join(coraData, "golden", "spread-final.json"), solveTime.ReplaceAllString(stdout, `"solve_seconds": 0`))
}

// The command gives the hand-derived answers of testdata/cora/README.md, with whatever
// LP backend is the default in this build.
func TestSolveCORAHandSolved(t *testing.T) {
	cases := []struct {
		file         string
		final, exact []float64
		objective    float64
		k            float64
	}{
		{"agree.json", []float64{1, 6}, []float64{1, 6}, 3 + math.Pow(6, -6) + math.Pow(6, -4) + math.Pow(6, -1), 6},
		{"agree-two-resources.json", []float64{2, 3}, []float64{2, 3}, 4 + 2*math.Pow(8, -3) + 2*math.Pow(8, -2), 8},
		{"spread.json", []float64{1, 1}, []float64{1, 9}, 2*math.Pow(4, -9) + 2*math.Pow(4, -1), 4},
		{"spread-two-resources.json", []float64{1, 2}, []float64{2, 5}, 2 + 2*math.Pow(8, -5) + math.Pow(8, -1) + math.Pow(8, -4) + 2*math.Pow(8, -2), 8},
		{"intermediate-cells.json", []float64{1, 3}, []float64{1, 5}, 3 + math.Pow(6, -3) + math.Pow(6, -4) + math.Pow(6, -1), 6},
	}
	for _, c := range cases {
		for _, f := range []string{"cora-final", "cora-linearized"} {
			t.Run(c.file+"/"+f, func(t *testing.T) {
				code, res, stderr := solveJSON(t, "", filepath.Join(coraData, c.file), "--formulation", f)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if got := floats(res["sorted_utilities"]); !slices.Equal(got, c.final) {
					t.Errorf("sorted %v, want %v", got, c.final)
				}
				if got := res["objective"].(float64); math.Abs(got-c.objective) > 1e-9 {
					t.Errorf("objective %v, want %v", got, c.objective)
				}
				if res["k"] != c.k || res["scale"] != 1.0 || len(res["warnings"].([]any)) != 0 || res["fractional"] != nil {
					t.Errorf("k %v scale %v warnings %v fractional %v", res["k"], res["scale"], res["warnings"], res["fractional"])
				}
				agree := slices.Equal(c.final, c.exact)
				if res["exact"] != agree {
					t.Errorf("exact %v, want %v (FINAL = exact CORA)", res["exact"], agree)
				}
				ex := res["details"].(map[string]any)["exact_cora"].(map[string]any)
				if got := floats(ex["sorted_utilities"]); !slices.Equal(got, c.exact) || ex["agree"] != agree {
					t.Errorf("exact_cora %v, want sorted %v agree %v", ex, c.exact, agree)
				}
				if res["verification"].(map[string]any)["ok"] != true {
					t.Errorf("verification %v", res["verification"])
				}
			})
		}
		t.Run(c.file+"/cora", func(t *testing.T) {
			code, res, stderr := solveJSON(t, "", filepath.Join(coraData, c.file), "--formulation", "cora")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := floats(res["sorted_utilities"]); !slices.Equal(got, c.exact) || res["exact"] != true || res["method"] != "onion" {
				t.Errorf("sorted %v (want %v), exact %v, method %v", got, c.exact, res["exact"], res["method"])
			}
		})
	}
}

// Sigmoid utilities at the default scale 1000: the weights k^-u underflow and rounding
// merges tiny values. The warnings are in the JSON and on stderr; --strict exits 2.
func TestSolveCORAWarnings(t *testing.T) {
	code, res, stderr := solveJSON(t, "", quickPath, "--formulation", "cora-final")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	w := res["warnings"].([]any)
	if len(w) != 2 || !strings.Contains(w[0].(string), "underflow to 0") || !strings.Contains(w[1].(string), "merges") {
		t.Errorf("warnings %v", w)
	}
	if !strings.Contains(stderr, "warning: the weights k^-u (k = 84) span 10^-13470") {
		t.Errorf("stderr lacks the guard's warning:\n%s", stderr)
	}
	if res["scale"] != 1000.0 || res["k"] != 84.0 || res["exact"] != false {
		t.Errorf("scale %v k %v exact %v", res["scale"], res["k"], res["exact"])
	}
	code, _, stderr = solveJSON(t, "", quickPath, "--formulation", "cora-final", "--strict")
	if code != 2 || !strings.Contains(stderr, "--strict") || !strings.Contains(stderr, "underflow") {
		t.Errorf("--strict: exit %d, stderr %q", code, stderr)
	}
	// Scale 1 keeps the weights within reach of float64 but rounds the sigmoids coarsely.
	code, res, stderr = solveJSON(t, "", quickPath, "--formulation", "cora-final", "--scale", "1")
	if code != 0 || res["scale"] != 1.0 {
		t.Fatalf("--scale 1: exit %d, scale %v: %s", code, res["scale"], stderr)
	}
	q := res["details"].(map[string]any)["quantization"].(map[string]any)
	if q["max_error"].(float64) > 0.5 || q["max_error"].(float64) < 0.1 || q["order_preserved"] != false {
		t.Errorf("--scale 1: quantization %v", q)
	}
}

// The active-set QP backend stops inside an optimal face when FINAL has tied optima:
// the fractional x is reported, not rounded away, and the command exits 1.
func TestSolveCORAFractional(t *testing.T) {
	doc := `{"name": "tie", "horizon": 2, "resources": [{"name": "c", "capacity": 1}],
	  "jobs": [{"id": "a", "demand": {"c": 1}, "utility": {"type": "constant", "value": 0}}]}`
	code, res, stderr := solveJSON(t, doc, "-", "--formulation", "cora-final", "--solver", "qp")
	if code != 1 || !strings.Contains(stderr, "fractional in 2 entries") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	fr := res["fractional"].([]any)
	if len(fr) != 2 || math.Abs(fr[0].(map[string]any)["value"].(float64)-0.5) > 1e-9 || res["exact"] != false {
		t.Errorf("fractional %v, exact %v", fr, res["exact"])
	}
	if res["details"].(map[string]any)["integral"] != false {
		t.Errorf("details.integral %v", res["details"])
	}
}

func TestSolveCORAUsage(t *testing.T) {
	spread := filepath.Join(coraData, "spread.json")
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{spread, "--formulation", "cora-final", "--method", "onion"}, `--method "onion": cora-final takes auto or lp`},
		{[]string{spread, "--formulation", "cora", "--method", "lp"}, `--method "lp"`},
		{[]string{spread, "--formulation", "cora", "--solver", "gonum"}, "method onion of cora needs no solver"},
		{[]string{spread, "--formulation", "cora-final", "--solver", "nosuch"}, `unknown solver "nosuch"`},
		{[]string{spread, "--formulation", "cora-final", "--k", "1"}, "base k = 1"},
		{[]string{spread, "--formulation", "cora-final", "--scale", "-1"}, "must be a positive"},
		{[]string{spread, "--formulation", "nosuch"}, "cora-final"},
	} {
		code, _, stderr := solveJSON(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.stderr)
		}
	}
}

func TestSolveCORAInfeasible(t *testing.T) {
	// Both jobs are released in slot 2 of 2 with capacity 1: the LP is infeasible.
	code, _, stderr := solveJSON(t, "", filepath.Join(tasData, "infeasible.json"), "--formulation", "cora-final")
	if code != 1 || !strings.Contains(stderr, "infeasible") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
