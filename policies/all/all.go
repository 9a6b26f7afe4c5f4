// Package all maps policy names, as `coraopt simulate --policies` spells them, to
// constructors. Each run gets a fresh policy (policies keep state across a run).
package all

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/cora"
	"github.com/coraopt/coraopt/policies/edf"
	"github.com/coraopt/coraopt/policies/fair"
	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/policies/oracle"
	"github.com/coraopt/coraopt/policies/rds"
	"github.com/coraopt/coraopt/policies/rrh"
	"github.com/coraopt/coraopt/policies/rush"
	_ "github.com/coraopt/coraopt/solvers/all" // the LP backends cora-final selects from
)

var constructors = map[string]func() policies.Policy{
	"fifo":  func() policies.Policy { return fifo.New() },
	"fair":  func() policies.Policy { return fair.New() },
	"edf":   func() policies.Policy { return edf.New() },
	"edf-n": func() policies.Policy { return edf.NewNonPreemptive() },
	// rush.txt §V-B's baselines, one job at a time.
	"fifo-serial": func() policies.Policy { return fifo.NewSerial() },
	"edf-serial":  func() policies.Policy { return edf.NewSerial() },
	"rrh":         func() policies.Policy { return rrh.New() },
	// RDS with the AR(3) capacity predictor, and with the true future capacity.
	"rds":       func() policies.Policy { return rds.MustNew(rds.Options{}) },
	"rds-ideal": func() policies.Policy { return rds.MustNew(rds.Options{Forecast: rds.Ideal}) },
	// The online optimizers of issue 18, with their default slot (60 s).
	"cora":       func() policies.Policy { return cora.New(cora.Config{}) },
	"cora-final": func() policies.Policy { return cora.NewFinal(cora.Config{}, "") },
	"oracle":     func() policies.Policy { return oracle.New(cora.Config{}) },
	"rush":       func() policies.Policy { return rush.New(rush.Config{}) },
	"rush-alg3":  func() policies.Policy { return rush.NewAlg3(rush.Config{}) },
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
