// Package all maps policy names, as `coraopt simulate --policies` spells them, to
// constructors. Each run gets a fresh policy (policies keep state across a run).
//
// The policies that solve (rds, rds-ideal, cora-final) reach their backends through
// package solve and solvers.Select; this package links none. A program links them
// (cmd/coraopt through internal/cli imports solvers/all), and a policy whose backend
// is not linked in is New's error.
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
)

// constructors builds each registered policy with its defaults. A constructor's error
// is a setting the binary cannot honour (a backend that is not linked in).
var constructors = map[string]func() (policies.Policy, error){
	"fifo":  func() (policies.Policy, error) { return fifo.New(), nil },
	"fair":  func() (policies.Policy, error) { return fair.New(), nil },
	"edf":   func() (policies.Policy, error) { return edf.New(), nil },
	"edf-n": func() (policies.Policy, error) { return edf.NewNonPreemptive(), nil },
	"rrh":   func() (policies.Policy, error) { return rrh.New(), nil },
	// rush.txt §V-B's baselines, one job at a time.
	"fifo-serial": func() (policies.Policy, error) { return fifo.NewSerial(), nil },
	"edf-serial":  func() (policies.Policy, error) { return edf.NewSerial(), nil },
	// RDS with the AR(3) capacity predictor, and with the true future capacity.
	"rds":       func() (policies.Policy, error) { return rds.New(rds.Config{}) },
	"rds-ideal": func() (policies.Policy, error) { return rds.New(rds.Config{Forecast: rds.Ideal}) },
	// The online optimizers of issue 18, with their default slot (60 s).
	"cora":       func() (policies.Policy, error) { return cora.New(cora.Config{}), nil },
	"cora-final": func() (policies.Policy, error) { return cora.NewFinal(cora.Config{}, ""), nil },
	"oracle":     func() (policies.Policy, error) { return oracle.New(cora.Config{}), nil },
	"rush":       func() (policies.Policy, error) { return rush.New(rush.Config{}), nil },
	"rush-alg3":  func() (policies.Policy, error) { return rush.NewAlg3(rush.Config{}), nil },
	// As the papers ran them: the pooled model and the first slot as targets
	// (policies/plan).
	"cora-paper": func() (policies.Policy, error) { return cora.NewPaper(cora.Config{}), nil },
	"rush-paper": func() (policies.Policy, error) { return rush.NewPaper(rush.Config{}), nil },
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

// Repeated returns the indices (earlier, later) of the first label that repeats an
// earlier one, or (-1, -1). A run of several policies — simulate --policies, a sweep
// file's policies — names each once: a repeat would run the same policy twice and
// report it as two.
func Repeated(labels []string) (earlier, later int) {
	seen := make(map[string]int, len(labels))
	for i, l := range labels {
		if j, dup := seen[l]; dup {
			return j, i
		}
		seen[l] = i
	}
	return -1, -1
}

// New returns a fresh policy by name.
func New(name string) (policies.Policy, error) {
	c, ok := constructors[name]
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return c()
}
