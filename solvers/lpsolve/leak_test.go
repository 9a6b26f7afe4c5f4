//go:build lpsolve && linux

package lpsolve

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/backendtest"
)

// TestNoLeaks: every make_lp has its delete_lp, every handle its Delete, on every exit
// path (an iteration limit of 1 stops solves early; a QP is refused with an error).
func TestNoLeaks(t *testing.T) {
	backendtest.NoLeaks(t, backend, backendtest.LeakOptions{Limit: func(o *solvers.Options) { o.IterationLimit = 1 }, RefusesQP: true})
}
