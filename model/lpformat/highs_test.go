package lpformat

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
	"github.com/coraopt/coraopt/model/mps"
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

// highsAsMPS has HiGHS read the model at path (LP or MPS, by extension) and write it as
// MPS, which package mps then reads: what HiGHS understood, to 10 significant digits.
func highsAsMPS(t *testing.T, highs, path string) *model.Problem {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.mps")
	cmd := exec.Command(highs, "--time_limit", "0", "--write_model_file", out, path)
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if _, statErr := os.Stat(out); statErr != nil {
		t.Fatalf("highs did not write %s: %v\n%s", filepath.Base(path), err, b)
	}
	p, err := mps.ReadFile(out, mps.Options{})
	if err != nil {
		t.Fatalf("%s as written by HiGHS: %v", filepath.Base(path), err)
	}
	return p
}

// TestAgreesWithHiGHSReader compares this reader with HiGHS's LP reader on HiGHS's own
// LP test models. Left out: 1451.lp (HiGHS drops the constant of x - 1 >= 2; see the
// package documentation) and 1449a/b.lp (HiGHS cannot read them).
func TestAgreesWithHiGHSReader(t *testing.T) {
	highs := highsProgram(t)
	dir := testmodels.RequireDir(t)
	for _, name := range cachedLP {
		if name == "1451.lp" || name == "1449a.lp" || name == "1449b.lp" {
			continue
		}
		path := filepath.Join(dir, name)
		ours, err := ReadFile(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := modeltest.DiffTol(ours, highsAsMPS(t, highs, path), 1e-9); d != "" {
			t.Errorf("%s: our reading and HiGHS's differ: %s", name, d)
		}
	}
}

// TestHiGHSReadsOurFiles writes random models with Write and has HiGHS read them: what
// HiGHS understands must be the model written. HiGHS 1.10 reads neither ranged rows
// in LP files nor MIQPs, so ranged rows become one-sided here and MIQPs are split;
// rows free on both sides are left out of the comparison (HiGHS writes them as N rows,
// which readers drop).
func TestHiGHSReadsOurFiles(t *testing.T) {
	highs := highsProgram(t)
	g := modeltest.Generator(modeltest.Config{Integral: true, Integer: true, Quadratic: true, Names: modeltest.NamesSome})
	problems := []*model.Problem{modeltest.Sample()}
	for seed := range 30 {
		problems = append(problems, g.Example(seed))
	}
	dir := t.TempDir()
	k := 0
	for _, p := range problems {
		for i := range p.NumRows() {
			if !math.IsInf(p.RowLower[i], 0) && !math.IsInf(p.RowUpper[i], 0) && p.RowLower[i] != p.RowUpper[i] {
				p.RowLower[i] = math.Inf(-1)
			}
		}
		parts := []*model.Problem{p}
		if p.Kind() == "MIQP" {
			lp, qp := p.Clone(), p.Clone()
			lp.QStart, lp.QIndex, lp.QValue = nil, nil, nil
			qp.Integrality = nil
			parts = []*model.Problem{lp, qp}
		}
		for _, part := range parts {
			k++
			path := filepath.Join(dir, fmt.Sprintf("p%d.lp", k))
			var buf bytes.Buffer
			if err := Write(&buf, part); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if d := modeltest.DiffTol(withoutFreeRows(part), highsAsMPS(t, highs, path), 1e-9); d != "" {
				t.Errorf("problem %d: HiGHS reads our file differently: %s\n%s", k, d, buf.String())
			}
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
