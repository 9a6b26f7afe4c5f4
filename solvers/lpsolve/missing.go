//go:build !lpsolve

package lpsolve

import "github.com/coraopt/coraopt/solvers"

// Name is the registry name of this backend.
const Name = "lpsolve"

// Hint says how to get a binary with lp_solve.
const Hint = "build with -tags lpsolve (make build; make deps installs liblpsolve55-dev)"

func init() { solvers.RegisterMissing(Name, Hint) }

// Solver stands in for the lp_solve binding in a build without the tag lpsolve: the binding's
// API (New, Name, Capabilities, Version, Solve) with every Solve returning
// *solvers.ErrNotCompiled naming the tag, so a library caller's code that names
// lpsolve.New compiles in both builds.
type Solver = solvers.NotCompiled

// New returns the stand-in; its Solve says how to get lp_solve.
func New() *Solver { return &Solver{Backend: Name, Hint: Hint} }

// Version is empty in a build without lp_solve.
func Version() string { return "" }
