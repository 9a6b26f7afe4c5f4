//go:build !highs

package highs

import "github.com/coraopt/coraopt/solvers"

// Name is the registry name of this backend.
const Name = "highs"

// Hint says how to get a binary with HiGHS.
const Hint = "build with -tags highs (make build; make deps installs HiGHS)"

func init() { solvers.RegisterMissing(Name, Hint) }

// Solver stands in for the HiGHS binding in a build without the tag highs: the binding's
// API (New, Name, Capabilities, Version, Solve) with every Solve returning
// *solvers.ErrNotCompiled naming the tag, so a library caller's code that names
// highs.New compiles in both builds.
type Solver = solvers.NotCompiled

// New returns the stand-in; its Solve says how to get HiGHS.
func New() *Solver { return &Solver{Backend: Name, Hint: Hint} }

// Version is empty in a build without HiGHS.
func Version() string { return "" }
