// Package models is the list of published LP, MIP and QP models coraopt's backends are
// tested and benchmarked on — Netlib LPs (feasible, infeasible and unbounded), small
// MIPLIB MIPs and Maros–Mészáros-style QPs — with their reference answers (Cases), the
// reader for their files (ReadModel) and where the files are (Dir). It holds data only:
// the test runner over it is package netlib, which the backends' tests call; `coraopt
// bench --suite netlib` uses this package and so links no test code.
//
// The models of Cases are the ones HiGHS ships in check/instances; scripts/install-deps.sh
// unpacks them into the cache (coraopt does not commit them). FullCollection is the whole
// Netlib LP collection (91 models) with SHA-256 checksums, read from FullDir (not
// committed either; see internal/modelcache.NetlibDir). See package netlib's
// documentation for how the reference objectives were established, and FullCollection's.
package models

import (
	"fmt"
	"strings"

	"github.com/coraopt/coraopt/internal/modelcache"
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

// Dir returns the directory holding the model files, or an error saying how to get
// them (internal/modelcache.Dir).
func Dir() (string, error) { return modelcache.Dir() }
