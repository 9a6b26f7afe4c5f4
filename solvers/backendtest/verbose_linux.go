//go:build linux

package backendtest

import (
	"bytes"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// VerboseGoesToWriter solves LP2 with a Verbose writer and without, capturing file
// descriptor 1: the log must reach the writer (logOK judges it) and nothing may reach
// standard output, so `-o json` stays clean.
func VerboseGoesToWriter(t *testing.T, c Config, logOK func(log string) bool) {
	var buf bytes.Buffer
	out := CaptureStdout(t, func() {
		c.Solve(t, solvertest.LP2(model.Minimize), solvers.Options{Verbose: &buf})
		c.Solve(t, solvertest.LP2(model.Minimize), solvers.Options{})
	})
	if !logOK(buf.String()) {
		t.Fatalf("verbose writer got no %s log: %q", c.Name, buf.String())
	}
	if out != "" {
		t.Fatalf("%s wrote to stdout: %q", c.Name, out)
	}
}
