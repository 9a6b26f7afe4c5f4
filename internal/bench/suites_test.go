package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
	"github.com/coraopt/coraopt/solvers/netlib"
	"github.com/coraopt/coraopt/solvers/netlib/models"
)

func TestParseSizes(t *testing.T) {
	good := map[string][]Dims{
		"10":              {{10, 0}},
		"10,20, 100x40":   {{10, 0}, {20, 0}, {100, 40}},
		" 5 ,,7x3":        {{5, 0}, {7, 3}},
		"10000000x100000": {{MaxJobs, MaxSlots}},
	}
	for in, want := range good {
		got, err := ParseSizes(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseSizes(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", ",", "0", "-3", "x4", "4x", "4x0", "ten", "3x4x5", "10000001", "1x100001", "1e3"} {
		if got, err := ParseSizes(in); err == nil {
			t.Errorf("ParseSizes(%q) = %v, want an error", in, got)
		}
	}
}

func TestSuiteNames(t *testing.T) {
	names := func(cs []Case) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return strings.Join(out, " ")
	}
	if got, want := names(FormulationsSuite([]Dims{{6, 0}, {10, 5}}, 1, solve.Default())),
		"tas-mip/N=6,T=6 tas-mip/N=10,T=5 final/N=6,T=40 final/N=10,T=5 rs/N=6,T=6 rs/N=10,T=5"; got != want {
		t.Errorf("formulations: %s\nwant %s", got, want)
	}
	if got := names(FormulationsSuite(nil, 1, solve.Default())); !strings.Contains(got, "final/N=100,T=40") {
		t.Errorf("default formulations suite lacks the paper's size: %s", got)
	}
	if got, want := names(FastpathsSuite([]Dims{{100, 0}}, 1, nil)),
		"onion/N=100,T=1000 wcde/N=100,bins=1000 mapping/N=100,T=100 onion-release/N=100 onion-release-maxpar/N=100"; got != want {
		t.Errorf("fastpaths: %s\nwant %s", got, want)
	}
	if got, want := names(ScalingSuite([]Dims{{100, 0}, {200, 0}}, []Dims{{10, 0}}, []Dims{{20, 0}}, 1)),
		"onion/N=100,T=1000 onion/N=200,T=1000 onion-release/N=100 onion-release/N=200 onion-layered/N=10,T=1000 onion-release-maxpar/N=20 wcde/N=100,bins=1000 wcde/N=200,bins=1000"; got != want {
		t.Errorf("scaling: %s\nwant %s", got, want)
	}
	if got := ScalingSizes(1000, 8000); !reflect.DeepEqual(got, []Dims{{1000, 0}, {2000, 0}, {4000, 0}, {8000, 0}}) {
		t.Errorf("ScalingSizes: %v", got)
	}
}

func pureGoBackends(t *testing.T) []Backend {
	t.Helper()
	bs, err := RegistryBackends([]string{"gonum", "qp"})
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

// TestFormulationsSmall runs the formulation families at a tiny size with the pure-Go
// QP backend (gonum's dense simplex needs seconds even for this FINAL and then reports a
// numerical error): FINAL is solved; the TAS and RS cases have no MIP solver in a plain
// build, so their fast paths run alone. (suites_highs_test.go checks the solvers against
// each other and the MIPs against the fast paths.)
func TestFormulationsSmall(t *testing.T) {
	bs, err := RegistryBackends([]string{"qp"})
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), FormulationsSuite([]Dims{{5, 8}}, 3, solve.Default()), Config{Backends: bs})
	seen := map[string]bool{}
	for _, r := range rep.Rows {
		seen[r.Instance+" "+r.Solver] = true
		if !r.Solved {
			t.Errorf("%s/%s: %s (%s)", r.Instance, r.Solver, r.Status, r.Note)
		}
		if r.Instance == "final/N=5,T=8" && (r.Size.Jobs != 5 || r.Size.Slots != 8 || r.Size.Cols != 4*5*8) {
			t.Errorf("FINAL size %+v, want 5 jobs, 8 slots, 160 columns", r.Size)
		}
	}
	for _, want := range []string{"final/N=5,T=8 qp", "tas-mip/N=5,T=8 onion", "rs/N=5,T=8 rs"} {
		if !seen[want] {
			t.Errorf("no row %q in %v", want, seen)
		}
	}
	if rep.Disagreements != 0 {
		t.Errorf("%d disagreements", rep.Disagreements)
	}
}

// TestFastpathsSmall runs the fast paths at a small size: WCDE's bisection and scan
// agree; onion peeling is exact; the mapping finishes within Theorem 3's bound.
func TestFastpathsSmall(t *testing.T) {
	rep := Run(context.Background(), FastpathsSuite([]Dims{{300, 0}}, 1, nil), Config{})
	got := map[string]Row{}
	for _, r := range rep.Rows {
		got[r.Solver] = r
	}
	if r := got["onion"]; r.Status != "optimal" || r.Metrics["layers"] < 1 || r.Objective <= 0 {
		t.Errorf("onion: %+v", r)
	}
	for _, s := range []string{"wcde-bisection", "wcde-scan"} {
		if r := got[s]; r.Agree == nil || !*r.Agree || r.Objective < 300 {
			t.Errorf("%s: %+v", s, r)
		}
	}
	if r := got["onion"]; !strings.Contains(r.Note, "engine sweep") {
		t.Errorf("onion ran with %q, want the sweep", r.Note)
	}
	if r := got["mapping"]; r.Status != StatusDone || r.Metrics["late"] != 0 || r.Objective < 1 {
		t.Errorf("mapping: %+v", r)
	}
}

// TestDirSuite reads a directory of models and instances; a bad file is an error
// before anything runs.
func TestDirSuite(t *testing.T) {
	cases, err := DirSuite("testdata/tiny", solve.Default())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.Name+":"+string(c.Class))
	}
	want := "infeasible.mps:LP knapsack.mps:MIP quickstart.json/cora-final:LP quickstart.json/tas-mip:MIP two-var.lp:LP"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("cases %s\nwant %s", got, want)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.mps"), []byte("NAME x\nROWS\n Q r\nENDATA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := DirSuite(dir, solve.Default()); err == nil {
		t.Error("a malformed MPS file was accepted")
	}
	if _, err := DirSuite(filepath.Join(dir, "nonexistent"), solve.Default()); err == nil {
		t.Error("a missing directory was accepted")
	}
}

// TestNetlibSuite checks the suite against package netlib's table: every LP, with its
// reference answer, and (when the models are installed) afiro solved in agreement.
func TestNetlibSuite(t *testing.T) {
	var lps []string
	for _, c := range netlib.Cases() {
		if c.Kind == netlib.LP {
			lps = append(lps, c.Name)
		}
	}
	suite := NetlibSuite("/nonexistent")
	if len(suite) != len(lps) {
		t.Fatalf("%d cases, want the %d LPs", len(suite), len(lps))
	}
	if _, err := suite[0].Prepare(context.Background()); err == nil {
		t.Error("a missing model file was not an error")
	}
	dir := testmodels.RequireDir(t)
	var afiro []Case
	for _, c := range NetlibSuite(dir) {
		if c.Name == "afiro" || c.Name == "klein1" {
			afiro = append(afiro, c)
		}
	}
	rep := Run(context.Background(), afiro, Config{Backends: pureGoBackends(t)})
	for _, r := range rep.Rows {
		if r.Agree == nil || !*r.Agree {
			t.Errorf("%s/%s: %s %g, %s", r.Instance, r.Solver, r.Status, r.Objective, r.Note)
		}
	}
}

// TestNetlibFullSuite checks the netlib-full suite: the 91 models of the collection with
// their references; a file that fails its checksum is an error before it is read; and,
// when the collection is there, a few models solved in agreement with their references.
func TestNetlibFullSuite(t *testing.T) {
	dir := t.TempDir()
	suite := NetlibFullSuite(dir)
	if len(suite) != len(models.FullCollection()) || len(suite) != 91 {
		t.Fatalf("%d cases, want the collection's 91", len(suite))
	}
	var afiro Case
	for _, c := range suite {
		if c.Name == "afiro" {
			afiro = c
		}
		if c.Family != "netlib-full" || c.Class != LP {
			t.Errorf("%s: family %s, class %s", c.Name, c.Family, c.Class)
		}
	}
	if _, err := afiro.Prepare(context.Background()); err == nil {
		t.Error("a missing model file was not an error")
	}
	if err := os.WriteFile(filepath.Join(dir, "afiro.mps.gz"), []byte("not afiro"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := afiro.Prepare(context.Background()); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a file with the wrong checksum: %v", err)
	}
	full, err := models.FullDir()
	if err != nil {
		t.Skip(err)
	}
	var some []Case
	for _, c := range NetlibFullSuite(full) {
		if c.Name == "afiro" || c.Name == "sc50b" || c.Name == "kb2" {
			some = append(some, c)
		}
	}
	bs, err := RegistryBackends([]string{"simplex"})
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), some, Config{Backends: bs})
	if len(rep.Rows) != 3 {
		t.Fatalf("%d rows", len(rep.Rows))
	}
	for _, r := range rep.Rows {
		if r.Agree == nil || !*r.Agree {
			t.Errorf("%s/%s: %s %g, %s", r.Instance, r.Solver, r.Status, r.Objective, r.Note)
		}
	}
}

func TestRegistryBackends(t *testing.T) {
	bs, err := RegistryBackends(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != len(solvers.Names()) {
		t.Errorf("%d backends for %d names", len(bs), len(solvers.Names()))
	}
	for _, b := range bs {
		if b.Name == "gonum" && b.TimeoutNote == "" {
			t.Error("gonum without its time-out note")
		}
		if b.Name == "qp" && !b.Caps.QP {
			t.Error("qp without QP capability")
		}
	}
	if _, err := RegistryBackends([]string{"nosuch"}); err == nil {
		t.Error("unknown backend accepted")
	}
	if len(solvers.Missing()) > 0 {
		for name := range solvers.Missing() {
			_, err := RegistryBackends([]string{name})
			var nc *solvers.ErrNotCompiled
			if !errors.As(err, &nc) {
				t.Errorf("%s: %v, want ErrNotCompiled", name, err)
			}
		}
	}
}

// TestScalingLayered checks that the onion-layered family (release times) runs the
// layered engine, exactly, and reports its layers.
func TestScalingLayered(t *testing.T) {
	rep := Run(context.Background(), ScalingSuite([]Dims{}, []Dims{{40, 200}}, nil, 1)[:1], Config{})
	r := rep.Rows[0]
	if r.Family != "onion-layered" || r.Status != "optimal" || !strings.Contains(r.Note, "engine layers") || r.Metrics["layers"] < 1 {
		t.Errorf("%+v", r)
	}
}

// TestReleaseFamilies checks that the release-time families run the engines they are
// there to measure — the backward sweep with Horn's window test without caps, the
// events engine with caps — and that the capped family stops at MaxparLimit.
func TestReleaseFamilies(t *testing.T) {
	for _, tc := range []struct {
		c      Case
		engine string
	}{
		{onionReleaseCase(300, false, 1), "engine sweep"},
		{onionReleaseCase(100, true, 1), "engine events"},
	} {
		rep := Run(context.Background(), []Case{tc.c}, Config{})
		r := rep.Rows[0]
		if r.Status != "optimal" || !strings.Contains(r.Note, tc.engine) {
			t.Errorf("%s: status %s, note %q, want optimal and %q", tc.c.Name, r.Status, r.Note, tc.engine)
		}
	}
	if got := FastpathsSuite([]Dims{{MaxparLimit + 1, 0}}, 1, []string{"onion-release-maxpar"}); len(got) != 0 {
		t.Errorf("onion-release-maxpar above MaxparLimit: %d cases, want none", len(got))
	}
}
