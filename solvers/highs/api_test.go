package highs_test

import (
	"testing"

	"github.com/coraopt/coraopt/solvers/backendtest"
	"github.com/coraopt/coraopt/solvers/highs"
)

// TestAPIInEveryBuild has no build tag: that it compiles at all shows that a caller's
// code naming highs.New, highs.Version and the Solver's methods builds with and without
// -tags highs. Without the tag every Solve returns solvers.ErrNotCompiled naming the tag.
func TestAPIInEveryBuild(t *testing.T) {
	var s *highs.Solver = highs.New()
	backendtest.APIInEveryBuild(t, s, highs.Name, highs.Version(), "highs")
}
