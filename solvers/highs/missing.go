//go:build !highs

package highs

import "github.com/coraopt/coraopt/solvers"

// Name is the registry name of this backend.
const Name = "highs"

// Hint says how to get a binary with HiGHS.
const Hint = "build with -tags highs (make build; make deps installs HiGHS)"

func init() { solvers.RegisterMissing(Name, Hint) }
