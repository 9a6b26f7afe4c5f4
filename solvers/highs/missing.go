//go:build !highs

package highs

import (
	"context"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Name is the registry name of this backend.
const Name = "highs"

// Hint says how to get a binary with HiGHS.
const Hint = "build with -tags highs (make build; make deps installs HiGHS)"

func init() { solvers.RegisterMissing(Name, Hint) }

// Solver stands in for the HiGHS binding in a build without the tag highs. It has the
// binding's API (New, Name, Capabilities, Version, Solve), so a library caller's code that
// names highs.New compiles in both builds; every Solve returns a *solvers.ErrNotCompiled
// naming the tag (the go-sqlite3 pattern).
type Solver struct{}

// New returns the stand-in; its Solve says how to get HiGHS.
func New() *Solver { return &Solver{} }

// Name implements solvers.Solver.
func (*Solver) Name() string { return Name }

// Capabilities implements solvers.Describer: none, since nothing is linked.
func (*Solver) Capabilities() solvers.Capabilities { return solvers.Capabilities{} }

// Version implements solvers.Describer: empty, since no HiGHS is linked.
func (*Solver) Version() string { return Version() }

// Version is empty in a build without HiGHS.
func Version() string { return "" }

// Solve returns a *solvers.ErrNotCompiled whose message names the build tag.
func (*Solver) Solve(context.Context, *model.Problem, solvers.Options) (*solvers.Solution, error) {
	return nil, &solvers.ErrNotCompiled{Name: Name, Hint: Hint}
}
