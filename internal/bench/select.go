package bench

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers/netlib/models"
)

// Suites are the built-in suites Select builds, in the order help lists them.
var Suites = []string{"netlib", "netlib-full", "miplib", "formulations", "fastpaths"}

// The default series of the scaling report (Selection.Scaling), doubling: 1,000 to
// 64,000 jobs for onion peeling's sweep and WCDE, 64 to 1,024 for the layered engine (a
// bisection per layer, about one layer per job), 1,000 to 8,000 with max_parallel caps.
const (
	scalingFrom = 1000
	scalingTo   = 64000
	layeredFrom = 64
	layeredTo   = 1024
	maxparFrom  = 1000
	maxparTo    = 8000
)

// Selection names the cases a run times: a built-in suite or a directory of models and
// instances, narrowed by a filter on the case names.
type Selection struct {
	// Suite is one of Suites; empty when Instances is given.
	Suite string
	// Instances is a directory read by DirSuite instead of a suite.
	Instances string
	// Sizes are the generated suites' (formulations, fastpaths) sizes; nil: their own.
	Sizes []Dims
	// Seed draws the generated suites' instances.
	Seed uint64
	// Scaling makes fastpaths the doubling series the scaling report fits.
	Scaling bool
	// Cases keeps the cases whose name it matches; nil keeps all.
	Cases *regexp.Regexp
	// Registry supplies the formulations of the formulations suite and of instances.
	Registry *solve.Registry
}

// Selected is a selection's cases and how a report names them (Meta.Suite,
// Settings.Sizes and Settings.Seed).
type Selected struct {
	Cases []Case
	// Suite is the suite, "fastpaths-scaling", or "instances:" and the directory.
	Suite string
	// Sizes are the sizes the cases were built with when they were given or are the
	// scaling series; nil for a suite's own.
	Sizes []string
	// Seeded says the cases were drawn from Selection.Seed.
	Seeded bool
}

// SelectionError is a selection that contradicts itself or names no case. Field is the
// Selection field at fault, in lower case ("suite", "instances", "sizes", "scaling",
// "cases"), so that a caller can name its own option.
type SelectionError struct {
	Field, Msg string
}

func (e *SelectionError) Error() string { return e.Field + ": " + e.Msg }

// Select builds the cases of sel. A suite whose data is not on this machine
// (netlib-full without its collection) is an error from package models.
func Select(sel Selection) (*Selected, error) {
	bad := func(field, format string, args ...any) error {
		return &SelectionError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if sel.Instances != "" && sel.Suite != "" {
		return nil, bad("instances", "a suite or an instances directory: choose one")
	}
	if sel.Scaling && sel.Suite != "fastpaths" {
		return nil, bad("scaling", "goes with the fastpaths suite")
	}
	out := &Selected{Suite: sel.Suite}
	for _, d := range sel.Sizes {
		out.Sizes = append(out.Sizes, d.String())
	}
	fixed := func(name string) error {
		if sel.Sizes != nil {
			return bad("sizes", "applies to the generated suites (formulations, fastpaths), not to %s", name)
		}
		return nil
	}
	var err error
	switch {
	case sel.Instances != "":
		if err := fixed("an instances directory"); err != nil {
			return nil, err
		}
		out.Suite = "instances:" + sel.Instances
		if out.Cases, err = DirSuite(sel.Instances, sel.Registry); err != nil {
			return nil, &SelectionError{Field: "instances", Msg: err.Error()}
		}
	case sel.Suite == "netlib", sel.Suite == "netlib-full", sel.Suite == "miplib":
		if err := fixed(sel.Suite); err != nil {
			return nil, err
		}
		dir, err := models.Dir()
		if sel.Suite == "netlib-full" {
			dir, err = models.FullDir()
		}
		if err != nil {
			return nil, err
		}
		out.Cases = map[string]func(string) []Case{"netlib": NetlibSuite, "netlib-full": NetlibFullSuite, "miplib": MIPLIBSuite}[sel.Suite](dir)
	case sel.Suite == "formulations":
		out.Seeded = true
		out.Cases = FormulationsSuite(sel.Sizes, sel.Seed, sel.Registry)
	case sel.Suite == "fastpaths" && sel.Scaling:
		out.Suite, out.Seeded = "fastpaths-scaling", true
		sizes, layered, maxpar := sel.Sizes, sel.Sizes, sel.Sizes
		if sel.Sizes == nil {
			sizes = ScalingSizes(scalingFrom, scalingTo)
			layered = ScalingSizes(layeredFrom, layeredTo)
			maxpar = ScalingSizes(maxparFrom, maxparTo)
			for _, d := range slices.Concat(sizes, layered, maxpar) {
				out.Sizes = append(out.Sizes, d.String())
			}
		}
		out.Cases = ScalingSuite(sizes, layered, maxpar, sel.Seed)
	case sel.Suite == "fastpaths":
		out.Seeded = true
		out.Cases = FastpathsSuite(sel.Sizes, sel.Seed, nil)
	default:
		return nil, bad("suite", "unknown suite %q (want %s or %s)", sel.Suite, strings.Join(Suites[:len(Suites)-1], ", "), Suites[len(Suites)-1])
	}
	if sel.Cases != nil {
		out.Cases = slices.DeleteFunc(out.Cases, func(c Case) bool { return !sel.Cases.MatchString(c.Name) })
		if len(out.Cases) == 0 {
			return nil, bad("cases", "%q matches no instance of the suite", sel.Cases.String())
		}
	}
	return out, nil
}
