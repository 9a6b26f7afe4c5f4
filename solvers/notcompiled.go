package solvers

import (
	"context"

	"github.com/coraopt/coraopt/model"
)

// NotCompiled stands in for a backend whose build tag was not given (the go-sqlite3
// pattern): a backend package's untagged file makes its Solver type this one, so New,
// Name, Capabilities, Version and Solve exist in every build and a library caller's code
// compiles with and without the tag. It claims no capability, reports no version, and
// every Solve returns *ErrNotCompiled with the hint naming the tag.
type NotCompiled struct {
	Backend string // the registry name
	Hint    string // how to get a binary with the backend
}

// Name implements Solver.
func (n *NotCompiled) Name() string { return n.Backend }

// Capabilities implements Describer: none.
func (*NotCompiled) Capabilities() Capabilities { return Capabilities{} }

// Version implements Describer: empty, since no library is linked.
func (*NotCompiled) Version() string { return "" }

// Solve returns *ErrNotCompiled.
func (n *NotCompiled) Solve(context.Context, *model.Problem, Options) (*Solution, error) {
	return nil, &ErrNotCompiled{Name: n.Backend, Hint: n.Hint}
}
