//go:build highs && linux

package highs

import (
	"strings"
	"testing"

	"github.com/coraopt/coraopt/solvers/backendtest"
)

func TestVerboseGoesToWriter(t *testing.T) {
	backendtest.VerboseGoesToWriter(t, backend, func(log string) bool { return strings.Contains(log, "HiGHS") })
}
