package models_test

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/internal/modelcache"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib/models"
)

// TestFullCollectionTable checks the table of the whole Netlib collection: 91 LPs with
// unique names, a file named after each, a SHA-256 in hex, an optimum with a source,
// and a published value that agrees with the reference to 1e-6 (after e226's objective
// constant) or a note that says why not; and that it shares the check set's references
// where the models overlap.
func TestFullCollectionTable(t *testing.T) {
	hex64 := regexp.MustCompile(`^[0-9a-f]{64}$`)
	cs := models.FullCollection()
	if len(cs) != 91 {
		t.Errorf("%d models, want 91", len(cs))
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.Name] {
			t.Errorf("%s: duplicate name", c.Name)
		}
		seen[c.Name] = true
		if c.File != c.Name+".mps.gz" || c.Kind != models.LP || c.Status != solvers.Optimal {
			t.Errorf("%s: file %q, kind %s, status %s", c.Name, c.File, c.Kind, c.Status)
		}
		if !hex64.MatchString(c.SHA256) {
			t.Errorf("%s: checksum %q", c.Name, c.SHA256)
		}
		if math.IsNaN(c.Objective) || c.Source == "" {
			t.Errorf("%s: objective %g, source %q", c.Name, c.Objective, c.Source)
		}
		if math.IsNaN(c.Published) {
			if c.Notes == "" {
				t.Errorf("%s: no published value and no note", c.Name)
			}
			continue
		}
		if !closeRel(c.Published, c.Objective, 1e-6) && !strings.Contains(c.Notes, "published") {
			t.Errorf("%s: published %.12g differs from the reference %.12g and the notes do not say why", c.Name, c.Published, c.Objective)
		}
	}
	for _, want := range []string{"afiro", "fit2d", "maros-r7", "pilot87", "d2q06c", "degen3", "dfl001", "woodw"} {
		if !seen[want] {
			t.Errorf("model %s missing", want)
		}
	}
	check := map[string]models.Case{}
	for _, c := range models.Cases() {
		check[c.Name] = c
	}
	shared := 0
	for _, c := range cs {
		if k, ok := check[c.Name]; ok {
			shared++
			if !closeRel(k.Objective, c.Objective, 1e-9) {
				t.Errorf("%s: reference %.12g here, %.12g in the check set's table", c.Name, c.Objective, k.Objective)
			}
		}
	}
	if shared < 10 {
		t.Errorf("only %d models shared with the check set", shared)
	}
}

// TestVerifyFile checks that a file is accepted only with the checksum the table records.
func TestVerifyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.mps.gz")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := models.Case{Name: "x", SHA256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}
	if err := models.VerifyFile(good, path); err != nil {
		t.Errorf("the right checksum was rejected: %v", err)
	}
	bad := good
	bad.SHA256 = strings.Repeat("0", 64)
	if err := models.VerifyFile(bad, path); err == nil || !strings.Contains(err.Error(), "netlib x") {
		t.Errorf("a wrong checksum: %v", err)
	}
	if err := models.VerifyFile(good, filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file was accepted")
	}
	if err := models.VerifyFile(models.Case{Name: "y"}, filepath.Join(dir, "missing")); err != nil {
		t.Errorf("a case without a checksum: %v", err)
	}
}

// TestFullCollectionFiles checks every file of the collection against its checksum and
// reads it as an LP, when the collection is there (it is not committed; see
// modelcache.NetlibDir).
func TestFullCollectionFiles(t *testing.T) {
	dir, err := models.FullDir()
	if err != nil {
		t.Skip(err)
	}
	for _, c := range models.FullCollection() {
		path := filepath.Join(dir, c.File)
		if err := models.VerifyFile(c, path); err != nil {
			t.Error(err)
			continue
		}
		p, err := models.ReadModel(path)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if models.Kind(p.Kind()) != models.LP || p.NumRows() == 0 {
			t.Errorf("%s: reads as a %s with %d rows", c.Name, p.Kind(), p.NumRows())
		}
	}
}

// TestNetlibDirEnv checks that $CORAOPT_NETLIB_DIR chooses the directory and that a
// missing one is an error naming the variable.
func TestNetlibDirEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(modelcache.EnvNetlibDir, dir)
	if got, err := models.FullDir(); err != nil || got != dir {
		t.Errorf("FullDir = %q, %v; want %q", got, err, dir)
	}
	t.Setenv(modelcache.EnvNetlibDir, filepath.Join(dir, "none"))
	if _, err := models.FullDir(); err == nil || !strings.Contains(err.Error(), modelcache.EnvNetlibDir) {
		t.Errorf("a missing directory: %v", err)
	}
}
