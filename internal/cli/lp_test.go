package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/solvers"
)

const lpData = "../../testdata/lp"

// runCLI runs the command line with args and stdin, returning the exit code and output.
func runCLI(ctx context.Context, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(ctx, args, Streams{In: strings.NewReader(stdin), Out: &out, Err: &errOut})
	return code, out.String(), errOut.String()
}

// normalize replaces what varies between runs and builds: the solve time, and the
// backend version (a test binary does not know its dependencies' versions).
func normalize(out string) string {
	out = solveSeconds.ReplaceAllString(out, `"solve_seconds": 0`)
	return backendVersion.ReplaceAllString(out, `"backend_version": "VERSION"`)
}

var (
	solveSeconds   = regexp.MustCompile(`"solve_seconds": [0-9.eE+-]+`)
	backendVersion = regexp.MustCompile(`"backend_version": "[^"]*"`)
)

func TestLP(t *testing.T) {
	twoVar, err := os.ReadFile(filepath.Join(lpData, "two-var.mps"))
	if err != nil {
		t.Fatal(err)
	}
	twoVarLP, err := os.ReadFile(filepath.Join(lpData, "two-var.lp"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		golden string  // JSON output compared with testdata/lp/golden/<golden>.json
		obj    float64 // the hand-derived optimum (see the model files), when optimal
		stderr string  // substring of stderr
	}{
		{name: "two-var", args: []string{"two-var.mps"}, code: 0, golden: "two-var", obj: 11},
		{name: "two-var in LP format", args: []string{"two-var.lp"}, code: 0, golden: "two-var-lp", obj: 11},
		{name: "ranged rows", args: []string{"ranged.mps"}, code: 0, golden: "ranged", obj: 4},
		{name: "free columns and a constant", args: []string{"free.mps"}, code: 0, golden: "free", obj: 5},
		{name: "fixed MPS, auto", args: []string{"fixed.mps"}, code: 0, golden: "fixed", obj: 9},
		{name: "fixed MPS, --format fixed-mps", args: []string{"fixed.mps", "--format", "fixed-mps"}, code: 0, golden: "fixed", obj: 9},
		{name: "stdin MPS", stdin: string(twoVar), args: []string{"-"}, code: 0, golden: "two-var-stdin", obj: 11},
		{name: "stdin LP", stdin: string(twoVarLP), args: []string{"-"}, code: 0, golden: "two-var-lp", obj: 11},
		{name: "infeasible", args: []string{"infeasible.mps"}, code: 1, golden: "infeasible", stderr: "status infeasible"},
		{name: "unbounded", args: []string{"unbounded.mps"}, code: 1, golden: "unbounded", stderr: "status unbounded"},
		{name: "malformed", args: []string{"malformed.mps"}, code: 2,
			stderr: `malformed.mps (read as MPS): line 14: BOUNDS: unknown bound type "XX"`},
		{name: "wrong format", args: []string{"two-var.mps", "--format", "lp"}, code: 2,
			stderr: "(read as CPLEX-LP): line 1: the model must start with Minimize or Maximize"},
		{name: "free MPS cannot read spaces in names", args: []string{"fixed.mps", "--format", "free-mps"}, code: 2,
			stderr: "(read as free MPS): line 14: ROWS: want a row type and a name, found 3 fields"},
		{name: "missing file", args: []string{"no-such-file.mps"}, code: 2, stderr: "no-such-file.mps"},
		{name: "unknown solver", args: []string{"two-var.mps", "--solver", "nosuch"}, code: 2,
			stderr: `unknown solver "nosuch" (available: `},
		{name: "MIP to an LP-only solver", args: []string{"mip.mps"}, code: 2,
			stderr: `--solver "gonum" cannot solve MIPs; backends for MIPs in this binary: `},
		{name: "bad format flag", args: []string{"two-var.mps", "--format", "xml"}, code: 2, stderr: `--format "xml"`},
		{name: "negative time limit", args: []string{"two-var.mps", "--time-limit", "-1s"}, code: 2, stderr: "must not be negative"},
		{name: "no file", args: []string{}, code: 2, stderr: "accepts 1 arg"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"lp"}
			for _, a := range c.args {
				if strings.HasSuffix(a, ".mps") || strings.HasSuffix(a, ".lp") {
					a = filepath.Join(lpData, a)
				}
				args = append(args, a)
			}
			if !hasFlag(c.args, "--solver") {
				args = append(args, "--solver", "gonum")
			}
			args = append(args, "-o", "json")
			code, stdout, stderr := runCLI(context.Background(), c.stdin, args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr %q does not contain %q", stderr, c.stderr)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
				t.Errorf("stderr shows a panic:\n%s", stderr)
			}
			if c.golden == "" {
				if stdout != "" {
					t.Errorf("stdout %q, want nothing", stdout)
				}
				return
			}
			checkGolden(t, filepath.Join(lpData, "golden", c.golden+".json"), normalize(stdout))
			var res map[string]any
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, stdout)
			}
			for _, k := range []string{"status", "objective", "iterations", "solve_seconds", "solver"} {
				if _, ok := res[k]; !ok {
					t.Errorf("key %q missing from %s", k, stdout)
				}
			}
			if c.code == 0 {
				if obj, ok := res["objective"].(float64); !ok || math.Abs(obj-c.obj) > 1e-9*(1+math.Abs(c.obj)) {
					t.Errorf("objective %v, the hand-derived optimum is %g", res["objective"], c.obj)
				}
			} else if res["objective"] != nil {
				t.Errorf("objective %v without a primal point, want null", res["objective"])
			}
		})
	}
}

func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update after checking):\n%s", path, got)
	}
}

func TestLPTable(t *testing.T) {
	code, stdout, stderr := runCLI(context.Background(), "", "lp", filepath.Join(lpData, "free.mps"), "--solver", "gonum", "-o", "table")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"model       free: LP, 2 rows, 2 columns, 4 nonzeros", "status      optimal", "objective   5\n", "solver      gonum"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
}

// TestLPDefaultSolver: without --solver, lp solves with solvers.Select's default for
// the model's class — an LP, a MIP and a QP file each on the first compiled-in backend
// of their class's preference order that solves them.
func TestLPDefaultSolver(t *testing.T) {
	for _, c := range []struct {
		file  string
		class solvers.Class
	}{{"two-var.mps", solvers.LP}, {"mip.mps", solvers.MIP}, {"../rds/highs-qp-two-stage.mps", solvers.QP}} {
		want, err := solvers.Select("", c.class)
		code, stdout, stderr := runCLI(context.Background(), "", "lp", filepath.Join(lpData, c.file), "-o", "json")
		if err != nil {
			if code != 2 || !strings.Contains(stderr, "no backend for "+string(c.class)+"s") {
				t.Errorf("%s: exit %d, stderr %q; want 2 and no %s backend", c.file, code, stderr, c.class)
			}
			continue
		}
		var res lpResult
		if jerr := json.Unmarshal([]byte(stdout), &res); jerr != nil || code != 0 || res.Solver != want.Name {
			t.Errorf("%s: exit %d, solver %q, want %s (%v): %s", c.file, code, res.Solver, want.Name, jerr, stderr)
		}
	}
}

func TestLPInterrupted(t *testing.T) {
	// A cancelled context (Ctrl-C) stops the solve: the result is printed, the exit is 1.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, stdout, stderr := runCLI(ctx, "", "lp", filepath.Join(lpData, "two-var.mps"), "--solver", "gonum", "-o", "json")
	if code != 1 || !strings.Contains(stderr, "interrupted") || !strings.Contains(stdout, `"status": "other"`) {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

func TestLPWarningsGoToStderr(t *testing.T) {
	model := "NAME w\nROWS\n N obj\n L c\n N spare\nCOLUMNS\n x obj -1 c 1\n x nosuch 3\nRHS\n RHS c 2\nENDATA\n"
	code, stdout, stderr := runCLI(context.Background(), model, "lp", "-", "--solver", "gonum", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`coraopt: warning: <stdin>: line 5: ROWS: N row "spare"`, `line 8: COLUMNS: column "x": row "nosuch" is not defined`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, `"objective": -2`) {
		t.Errorf("stdout %s", stdout)
	}
}

func TestLPGzip(t *testing.T) {
	// Compressed input is recognised by its magic number, on a file or on stdin.
	dir := t.TempDir()
	path := filepath.Join(dir, "two-var.mps.gz")
	data, err := os.ReadFile(filepath.Join(lpData, "two-var.mps"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(context.Background(), "", "lp", path, "--solver", "gonum", "-o", "json")
	if code != 0 || !strings.Contains(stdout, `"objective": 11`) || !strings.Contains(stdout, `"model": "two-var"`) {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(context.Background(), buf.String(), "lp", "-", "--solver", "gonum", "-o", "json")
	if code != 0 || !strings.Contains(stdout, `"objective": 11`) {
		t.Errorf("gzip on stdin: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, _, stderr = runCLI(context.Background(), buf.String()[:buf.Len()-6], "lp", "-", "--solver", "gonum")
	if code != ExitBadUsage || !strings.Contains(stderr, "<stdin>: gzip: ") {
		t.Errorf("truncated gzip on stdin: exit %d, %s; want exit 2 saying gzip", code, stderr)
	}
}
