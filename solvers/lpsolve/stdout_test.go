//go:build lpsolve && linux

package lpsolve

import (
	"testing"

	"github.com/coraopt/coraopt/solvers/backendtest"
)

func TestVerboseGoesToWriter(t *testing.T) {
	backendtest.VerboseGoesToWriter(t, backend, func(log string) bool { return log != "" })
}
