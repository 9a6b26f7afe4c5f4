// Package all maps policy names, as `coraopt simulate --policies` spells them, to
// constructors. Each run gets a fresh policy (policies keep state across a run).
package all

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/edf"
	"github.com/coraopt/coraopt/policies/fair"
	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/policies/rrh"
)

var constructors = map[string]func() policies.Policy{
	"fifo":  func() policies.Policy { return fifo.New() },
	"fair":  func() policies.Policy { return fair.New() },
	"edf":   func() policies.Policy { return edf.New() },
	"edf-n": func() policies.Policy { return edf.NewNonPreemptive() },
	"rrh":   func() policies.Policy { return rrh.New() },
}

// Names lists the registered policies, sorted.
func Names() []string {
	names := make([]string, 0, len(constructors))
	for n := range constructors {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// New returns a fresh policy by name.
func New(name string) (policies.Policy, error) {
	c, ok := constructors[name]
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return c(), nil
}
