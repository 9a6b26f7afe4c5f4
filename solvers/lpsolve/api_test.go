package lpsolve_test

import (
	"testing"

	"github.com/coraopt/coraopt/solvers/backendtest"
	"github.com/coraopt/coraopt/solvers/lpsolve"
)

// TestAPIInEveryBuild has no build tag: that it compiles at all shows that a caller's
// code naming lpsolve.New, lpsolve.Version and the Solver's methods builds with and without
// -tags lpsolve. Without the tag every Solve returns solvers.ErrNotCompiled naming the tag.
func TestAPIInEveryBuild(t *testing.T) {
	var s *lpsolve.Solver = lpsolve.New()
	backendtest.APIInEveryBuild(t, s, lpsolve.Name, lpsolve.Version(), "lpsolve")
}
