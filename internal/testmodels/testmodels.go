// Package testmodels locates the solver test models (Netlib LPs, small MIPs and QPs) that
// scripts/install-deps.sh unpacks from HiGHS's source tarball into the cache. coraopt does
// not commit these files; tests read them from the cache.
//
// Under `make test` (built with the highs or lpsolve tag) a missing cache fails the test:
// the backends' tests must not pass by skipping. In a plain `go test ./...` the tests
// that need the files skip with a message saying how to get them.
package testmodels

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/internal/modelcache"
)

// EnvDir names the environment variable that overrides the directory (the Makefile sets it).
const EnvDir = modelcache.EnvDir

// Dir returns the directory holding the models, or an error saying how to get them
// (modelcache.Dir, which the binary uses without linking this package's test code).
func Dir() (string, error) { return modelcache.Dir() }

// Path returns the path of one model file (e.g. "afiro.mps"), failing or skipping t when
// the cache is missing (see the package doc) and failing when the file is not there.
func Path(t testing.TB, name string) string {
	t.Helper()
	dir := RequireDir(t)
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("testmodels: %v", err)
	}
	return p
}

// RequireDir returns Dir, or fails (tagged build) / skips (plain build) t.
func RequireDir(t testing.TB) string {
	t.Helper()
	dir, err := Dir()
	if err != nil {
		if Required {
			t.Fatalf("%v", err)
		}
		t.Skipf("%v", err)
	}
	return dir
}
