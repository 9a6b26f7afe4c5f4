package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/formulations/cora"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
)

// toyFormulation is a formulation the command line has never heard of: TAS solved by a
// "peel" method (onion peeling under another name), benchmarked on FINAL's LP. It lives
// only in this test's registry.
func toyFormulation() solve.Formulation {
	return solve.Formulation{
		Name:    "toy",
		Help:    "A toy registered by a test: tas by onion peeling under another name.",
		Methods: []solve.Method{{Name: "peel", Help: "Toy peeling."}},
		Model: &solve.ModelSpec{Help: "The toy's model: FINAL under another name.", Build: func(_ context.Context, req *solve.Request) (*model.Model, []string, error) {
			lp, err := cora.BuildFinal(req.Instance, cora.Options{})
			if err != nil {
				return nil, nil, err
			}
			return lp.Model, []string{"toy warning"}, nil
		}},
		Bench: &solve.Bench{Case: "toy-lp", Class: solvers.LP, Model: func(in *sched.Instance) (*model.Problem, error) {
			lp, err := cora.BuildFinal(in, cora.Options{})
			if err != nil {
				return nil, err
			}
			return lp.Model.Compile()
		}},
		Solve: func(ctx context.Context, req *solve.Request, _ solvers.Backend) (*solve.Result, error) {
			res, err := tas.OnionPeel(ctx, req.Instance, tas.Options{})
			if err != nil {
				return nil, err
			}
			return &solve.Result{Status: solvers.Optimal, Schedule: res.Schedule, Exact: res.Exact, LexmaxByFlow: true,
				Layers: solve.LayersOf(req.Instance, res.Schedule)}, nil
		},
	}
}

// runWith runs the command line with a registry.
func runWith(reg *solve.Registry, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	s := Streams{In: strings.NewReader(""), Out: &out, Err: &errOut}
	code = run(context.Background(), newRootCmd(s, reg), args, s)
	return code, out.String(), errOut.String()
}

// TestToyFormulationEverywhere: a formulation added to the registry shows in solve
// --help, solves, verifies and benchmarks, with no edit of the command line.
func TestToyFormulationEverywhere(t *testing.T) {
	reg := solve.Default()
	if err := reg.Add(toyFormulation()); err != nil {
		t.Fatal(err)
	}
	code, help, _ := runWith(reg, "solve", "--help")
	if code != ExitOK || !strings.Contains(help, "  toy   A toy registered by a test") || !strings.Contains(help, "peel") {
		t.Errorf("solve --help (exit %d) lacks the toy:\n%s", code, help)
	}
	if _, h, _ := runWith(reg, "verify", "--help"); !strings.Contains(h, "list of tas, cora, rs, toy") {
		t.Errorf("verify --help lacks the toy suite")
	}
	if _, h, _ := runWith(reg, "bench", "--help"); !strings.Contains(h, "cora-final, tas-mip, toy-lp") {
		t.Errorf("bench --help lacks the toy's case")
	}
	if _, h, _ := runWith(reg, "export", "--help"); !strings.Contains(h, "  toy   The toy's model") || !strings.Contains(h, "cora-linearized, toy") {
		t.Errorf("export --help lacks the toy's model:\n%s", h)
	}
	code, mpsOut, stderr := runWith(reg, "export", quickPath, "--formulation", "toy")
	_, finalOut, _ := runWith(reg, "export", quickPath, "--formulation", "cora-final")
	if code != ExitOK || mpsOut != finalOut || !strings.Contains(stderr, "coraopt: warning: toy warning") {
		t.Errorf("export --formulation toy: exit %d, stderr %q; same model as cora-final: %v", code, stderr, mpsOut == finalOut)
	}
	if _, plain, _ := runWith(solve.Default(), "solve", "--help"); strings.Contains(plain, "toy") {
		t.Error("the toy leaked into the default registry")
	}

	code, out, stderr := runWith(reg, "solve", quickPath, "--formulation", "toy", "--verify", "-o", "json")
	var res struct {
		Formulation     string    `json:"formulation"`
		Method          string    `json:"method"`
		SortedUtilities []float64 `json:"sorted_utilities"`
		Verification    struct {
			OK     bool `json:"ok"`
			Checks []struct {
				Name string `json:"name"`
			} `json:"checks"`
		} `json:"verification"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != ExitOK {
		t.Fatalf("solve --formulation toy: exit %d, %v: %s", code, err, stderr)
	}
	if res.Formulation != "toy" || res.Method != "peel" || !res.Verification.OK ||
		!slices.ContainsFunc(res.Verification.Checks, func(c struct {
			Name string `json:"name"`
		}) bool {
			return c.Name == "lexmax-certificate"
		}) {
		t.Errorf("solve --formulation toy: %+v", res)
	}
	_, tasOut, _ := runWith(reg, "solve", quickPath, "-o", "json")
	var tasRes struct {
		SortedUtilities []float64 `json:"sorted_utilities"`
	}
	if err := json.Unmarshal([]byte(tasOut), &tasRes); err != nil || !slices.Equal(tasRes.SortedUtilities, res.SortedUtilities) {
		t.Errorf("toy %v, tas %v (%v)", res.SortedUtilities, tasRes.SortedUtilities, err)
	}

	code, out, stderr = runWith(reg, "verify", quickPath, "--formulation", "toy", "-o", "json")
	var rep struct {
		OK     bool `json:"ok"`
		Checks []struct {
			Name, Status string
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitOK || !rep.OK {
		t.Fatalf("verify --formulation toy: exit %d, %v: %s%s", code, err, out, stderr)
	}
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
	}
	for _, want := range []string{"toy/peel/schedule/capacity", "toy/peel/lexmax-certificate"} {
		if !slices.Contains(names, want) {
			t.Errorf("verify lacks %s: %v", want, names)
		}
	}
	if code, _, stderr := runWith(solve.Default(), "verify", quickPath, "--formulation", "toy"); code != ExitBadUsage {
		t.Errorf("verify --formulation toy without the toy: exit %d (%s)", code, stderr)
	}

	dir := t.TempDir()
	data, err := os.ReadFile(quickPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "quickstart.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runWith(reg, "bench", "--instances", dir, "--solvers", "simplex", "--repeat", "1", "-o", "json")
	if code != ExitOK {
		t.Fatalf("bench: exit %d: %s", code, stderr)
	}
	for _, want := range []string{`"quickstart.json/toy-lp"`, `"quickstart.json/tas-mip"`, `"quickstart.json/cora-final"`} {
		if !strings.Contains(out, want) {
			t.Errorf("bench lacks %s", want)
		}
	}
}

// TestBinaryLinksNoTestCode: cmd/coraopt, plain and with the cgo tags, links neither
// package testing nor go-cmp nor any of our *test packages (rapid, testmodels, netlib's
// runner, …). The standard library's own internal/synctest, which package sync imports
// since Go 1.25, is not test code and is left out by asking for non-standard packages.
func TestBinaryLinksNoTestCode(t *testing.T) {
	for _, tags := range []string{"", "highs,lpsolve"} {
		cmd := exec.Command("go", "list", "-deps", "-tags", tags,
			"-f", `{{if or (not .Standard) (eq .ImportPath "testing")}}{{.ImportPath}}{{end}}`, "../../cmd/coraopt")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list (tags %q): %v", tags, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "github.com/coraopt/coraopt/internal/cli") {
			t.Fatalf("go list (tags %q) does not list internal/cli: %v", tags, deps)
		}
		for _, d := range deps {
			if d == "testing" || strings.Contains(d, "go-cmp") || strings.HasSuffix(d, "test") ||
				strings.Contains(d, "rapid") || strings.HasSuffix(d, "testmodels") || strings.HasSuffix(d, "/netlib") {
				t.Errorf("tags %q: the binary links %s", tags, d)
			}
		}
	}
}
