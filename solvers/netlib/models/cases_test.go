package models_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib/models"
)

func closeRel(a, b, tol float64) bool { return math.Abs(a-b)/math.Max(1, math.Abs(b)) <= tol }

// TestCasesTable checks the table's own consistency: unique names, a reference objective
// exactly for optimal cases, published values that agree with the reference to 1e-6 or
// a note that says why not, and a source for every case.
func TestCasesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range models.Cases() {
		if seen[c.Name] {
			t.Errorf("%s: duplicate name", c.Name)
		}
		seen[c.Name] = true
		if c.Kind != models.LP && c.Kind != models.MIP && c.Kind != models.QP {
			t.Errorf("%s: kind %q", c.Name, c.Kind)
		}
		switch c.Status {
		case solvers.Optimal:
			if math.IsNaN(c.Objective) {
				t.Errorf("%s: optimal without a reference objective", c.Name)
			}
		case solvers.Infeasible, solvers.Unbounded:
			if !math.IsNaN(c.Objective) {
				t.Errorf("%s: %s with an objective", c.Name, c.Status)
			}
		default:
			t.Errorf("%s: status %s is not an exact answer", c.Name, c.Status)
		}
		if c.Source == "" {
			t.Errorf("%s: no source", c.Name)
		}
		if !math.IsNaN(c.Published) && !closeRel(c.Published, c.Objective, 1e-6) &&
			!strings.Contains(c.Notes, "published") && !strings.Contains(c.Notes, "lists") {
			t.Errorf("%s: published %.12g differs from the reference %.12g and the notes do not say why", c.Name, c.Published, c.Objective)
		}
	}
	for _, want := range []string{"afiro", "25fv47", "greenbea", "gas11", "klein1", "bell5", "gesa2", "qptestnw", "primal1"} {
		if !seen[want] {
			t.Errorf("case %s missing", want)
		}
	}
}

// TestCaseFilesExist checks that every file the table names is in the model directory
// and reads as the kind the table says (skipped in a plain build without the cache).
func TestCaseFilesExist(t *testing.T) {
	dir := testmodels.RequireDir(t)
	for _, c := range models.Cases() {
		path := filepath.Join(dir, c.File)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		p, err := models.ReadModel(path)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if models.Kind(p.Kind()) != c.Kind {
			t.Errorf("%s: reads as %s, the table says %s", c.Name, p.Kind(), c.Kind)
		}
	}
}
