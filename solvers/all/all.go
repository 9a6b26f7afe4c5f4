// Package all imports every solver backend this binary can have, so that they register
// themselves with package solvers. The cgo backends (highs, lpsolve) register a
// "not compiled in" entry in plain builds and the real backend with their build tags.
//
// Import it for its side effect:
//
//	import _ "github.com/coraopt/coraopt/solvers/all"
package all

import (
	// One line per backend; keep sorted.
	_ "github.com/coraopt/coraopt/solvers/gonumlp"
	_ "github.com/coraopt/coraopt/solvers/highs"
	_ "github.com/coraopt/coraopt/solvers/lpsolve"
	_ "github.com/coraopt/coraopt/solvers/mip"
	_ "github.com/coraopt/coraopt/solvers/qp"
	_ "github.com/coraopt/coraopt/solvers/simplex"
)
