package mps

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/modeltest"
)

// highsProgram returns the HiGHS 1.10 command-line program that scripts/install-deps.sh
// builds next to the test models.
func highsProgram(t *testing.T) string {
	t.Helper()
	dir := testmodels.RequireDir(t)
	highs := filepath.Join(dir, "..", "..", "..", "..", "bin", "highs")
	if _, err := os.Stat(highs); err != nil {
		if testmodels.Required {
			t.Fatalf("HiGHS program not found: %v", err)
		}
		t.Skipf("HiGHS program not found: %v", err)
	}
	return highs
}

// highsRewrite has HiGHS read the model at path and write it out (numbers with 10
// significant digits), then reads that file with this package.
func highsRewrite(t *testing.T, highs, path string) *model.Problem {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.mps")
	cmd := exec.Command(highs, "--time_limit", "0", "--write_model_file", out, path)
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if _, statErr := os.Stat(out); statErr != nil {
		t.Fatalf("highs did not write %s: %v\n%s", filepath.Base(path), err, b)
	}
	p, err := ReadFile(out, Options{})
	if err != nil {
		t.Fatalf("%s as written by HiGHS: %v", filepath.Base(path), err)
	}
	return p
}

// TestAgreesWithHiGHSReader has the HiGHS 1.10 program read each cached model and write
// it back (with 10 significant digits), reads that with this package, and compares it
// with this package's reading of the original: bounds, integrality, ranges, constants
// and Q must agree to 1e-9. This checks our reading rules against an independent
// implementation, not just against themselves.
func TestAgreesWithHiGHSReader(t *testing.T) {
	highs := highsProgram(t)
	dir := testmodels.RequireDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.mps"))
	compared := 0
	for _, path := range files {
		name := filepath.Base(path)
		if _, bad := cachedFailures[name]; bad || name == "silly-names.mps" || name == "gas11.mps" {
			continue // see highsSizes
		}
		ours, err := ReadFile(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		theirs := highsRewrite(t, highs, path)
		if d := modeltest.DiffTol(ours, theirs, 1e-9); d != "" {
			t.Errorf("%s: our reading and HiGHS's differ: %s", name, d)
		}
		compared++
	}
	if compared < 45 {
		t.Errorf("compared only %d models", compared)
	}
}

// TestHiGHSReadsOurFiles writes models with this package, has HiGHS read them, and
// compares what HiGHS understood with the original: the writer's choices (integer
// bounds, ranges, the offset's sign, QUADOBJ) mean the same to an independent reader.
// Rows free on both sides are left out of the comparison: HiGHS writes them as N rows,
// which readers drop.
func TestHiGHSReadsOurFiles(t *testing.T) {
	highs := highsProgram(t)
	problems := []*model.Problem{sampleProblem(t)}
	g := modeltest.Generator(modeltest.Config{Integral: true, Integer: true, Quadratic: true, Names: modeltest.NamesSome})
	for seed := range 30 {
		problems = append(problems, g.Example(seed))
	}
	// HiGHS solves no MIQPs and will not even write one: split those in two.
	var split []*model.Problem
	for _, p := range problems {
		if p.Kind() != "MIQP" {
			split = append(split, p)
			continue
		}
		lp, qp := p.Clone(), p.Clone()
		lp.QStart, lp.QIndex, lp.QValue = nil, nil, nil
		qp.Integrality = nil
		split = append(split, lp, qp)
	}
	dir := t.TempDir()
	for k, p := range split {
		path := filepath.Join(dir, fmt.Sprintf("p%d.mps", k))
		var buf bytes.Buffer
		if err := Write(&buf, p, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if d := modeltest.DiffTol(withoutFreeRows(p), highsRewrite(t, highs, path), 1e-9); d != "" {
			t.Errorf("problem %d: HiGHS reads our file differently: %s\n%s", k, d, buf.String())
		}
	}
}

// withoutFreeRows drops the rows with no finite bound.
func withoutFreeRows(p *model.Problem) *model.Problem {
	keep := make([]int, p.NumRows()) // new index + 1, or 0 to drop
	q := p.Clone()
	q.RowLower, q.RowUpper, q.RowNames = nil, nil, nil
	for i := range p.NumRows() {
		if math.IsInf(p.RowLower[i], -1) && math.IsInf(p.RowUpper[i], 1) {
			continue
		}
		q.RowLower = append(q.RowLower, p.RowLower[i])
		q.RowUpper = append(q.RowUpper, p.RowUpper[i])
		q.RowNames = append(q.RowNames, p.RowNames[i])
		keep[i] = len(q.RowLower)
	}
	q.AIndex, q.AValue = nil, nil
	for j := range p.NumCols() {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			if r := keep[p.AIndex[k]]; r > 0 {
				q.AIndex = append(q.AIndex, r-1)
				q.AValue = append(q.AValue, p.AValue[k])
			}
		}
		q.AStart[j+1] = len(q.AIndex)
	}
	return q
}
