//go:build !lpsolve

package lpsolve

import (
	"context"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Name is the registry name of this backend.
const Name = "lpsolve"

// Hint says how to get a binary with lp_solve.
const Hint = "build with -tags lpsolve (make build; make deps installs liblpsolve55-dev)"

func init() { solvers.RegisterMissing(Name, Hint) }

// Solver stands in for the lp_solve binding in a build without the tag lpsolve. It has the
// binding's API (New, Name, Capabilities, Version, Solve), so a library caller's code that
// names lpsolve.New compiles in both builds; every Solve returns a *solvers.ErrNotCompiled
// naming the tag (the go-sqlite3 pattern).
type Solver struct{}

// New returns the stand-in; its Solve says how to get lp_solve.
func New() *Solver { return &Solver{} }

// Name implements solvers.Solver.
func (*Solver) Name() string { return Name }

// Capabilities implements solvers.Describer: none, since nothing is linked.
func (*Solver) Capabilities() solvers.Capabilities { return solvers.Capabilities{} }

// Version implements solvers.Describer: empty, since no lp_solve is linked.
func (*Solver) Version() string { return Version() }

// Version is empty in a build without lp_solve.
func Version() string { return "" }

// Solve returns a *solvers.ErrNotCompiled whose message names the build tag.
func (*Solver) Solve(context.Context, *model.Problem, solvers.Options) (*solvers.Solution, error) {
	return nil, &solvers.ErrNotCompiled{Name: Name, Hint: Hint}
}
