//go:build highs && linux

package highs

import (
	"testing"
	"time"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/backendtest"
)

// TestNoLeaks: every Highs_create has its Highs_destroy, every handle its Delete, on
// every exit path (a nanosecond time limit stops solves early).
func TestNoLeaks(t *testing.T) {
	backendtest.NoLeaks(t, backend, backendtest.LeakOptions{Limit: func(o *solvers.Options) { o.TimeLimit = time.Nanosecond }})
}
