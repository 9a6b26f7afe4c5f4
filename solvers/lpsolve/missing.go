//go:build !lpsolve

package lpsolve

import "github.com/coraopt/coraopt/solvers"

// Name is the registry name of this backend.
const Name = "lpsolve"

// Hint says how to get a binary with lp_solve.
const Hint = "build with -tags lpsolve (make build; make deps installs liblpsolve55-dev)"

func init() { solvers.RegisterMissing(Name, Hint) }
