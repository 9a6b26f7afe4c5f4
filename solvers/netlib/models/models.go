// Package models is the list of published LP, MIP and QP models coraopt's backends are
// tested and benchmarked on — Netlib LPs (feasible, infeasible and unbounded), small
// MIPLIB MIPs and Maros–Mészáros-style QPs — with their reference answers (Cases), the
// reader for their files (ReadModel) and where the files are (Dir). It holds data only:
// the test runner over it is package netlib, which the backends' tests call; `coraopt
// bench --suite netlib` uses this package and so links no test code.
//
// The models are the ones HiGHS ships in check/instances; scripts/install-deps.sh
// unpacks them into the cache (coraopt does not commit them). See package netlib's
// documentation for how the reference objectives were established.
package models

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/lpformat"
	"github.com/coraopt/coraopt/model/mps"
)

// ReadModel reads a model with coraopt's readers: MPS for ".mps" (and ".mps.gz"), CPLEX LP
// for ".lp".
func ReadModel(path string) (*model.Problem, error) {
	switch {
	case strings.HasSuffix(path, ".lp"):
		return lpformat.ReadFile(path, lpformat.Options{})
	case strings.HasSuffix(path, ".mps"), strings.HasSuffix(path, ".mps.gz"):
		return mps.ReadFile(path, mps.Options{})
	}
	return nil, fmt.Errorf("netlib: %s: unknown model format", path)
}

// EnvDir names the environment variable that overrides the directory (the Makefile sets it).
const EnvDir = "CORAOPT_HIGHS_INSTANCES"

// Dir returns the directory holding the models, or an error saying how to get them:
// $CORAOPT_HIGHS_INSTANCES, else highs-1.10.0/share/highs/check/instances under
// $CORAOPT_CACHE or the user cache's coraopt directory.
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
