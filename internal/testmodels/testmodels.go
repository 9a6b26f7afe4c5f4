// Package testmodels locates the solver test models (Netlib LPs, small MIPs and QPs) that
// scripts/install-deps.sh unpacks from HiGHS's source tarball into the cache. coraopt does
// not commit these files; tests read them from the cache.
//
// Under `make test` (built with the highs or lpsolve tag) a missing cache fails the test:
// the backends' tests must not pass by skipping. In a plain `go test ./...` the tests
// that need the files skip with a message saying how to get them.
package testmodels

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvDir names the environment variable that overrides the directory (the Makefile sets it).
const EnvDir = "CORAOPT_HIGHS_INSTANCES"

// Dir returns the directory holding the models, or an error saying how to get them.
func Dir() (string, error) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		cache := os.Getenv("CORAOPT_CACHE")
		if cache == "" {
			base, err := os.UserCacheDir()
			if err != nil {
				return "", fmt.Errorf("testmodels: no cache directory: %w", err)
			}
			cache = filepath.Join(base, "coraopt")
		}
		dir = filepath.Join(cache, "highs-1.10.0", "share", "highs", "check", "instances")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("testmodels: %s not found; run `make deps` (scripts/install-deps.sh)", dir)
	}
	return dir, nil
}

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
