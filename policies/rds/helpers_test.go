package rds

import (
	"testing"

	_ "github.com/coraopt/coraopt/solvers/all" // the backends a program links in
)

// mustNew is New for a configuration the test knows to be valid.
func mustNew(t testing.TB, cfg Config) *Policy {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
