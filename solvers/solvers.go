package solvers

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/coraopt/coraopt/model"
)

// Solver is an optimization backend.
type Solver interface {
	// Name is the registry name ("simplex", "highs", …).
	Name() string
	// Solve solves p. A returned error means the solve could not be attempted or
	// crashed (bad input, backend missing, out of memory); every outcome of a solve that
	// ran — including infeasible, unbounded, limits and cancellation — is a Solution with
	// its Status. Implementations must not modify p.
	Solve(ctx context.Context, p *model.Problem, opt Options) (*Solution, error)
}

// Capabilities says which problem classes and results a backend supports.
type Capabilities struct {
	LP, MIP, QP bool
	Duals       bool // row duals and reduced costs for LPs
	Basis       bool // returns a basis and accepts one as a warm start
}

// Describer is implemented by backends that can report their capabilities and version.
type Describer interface {
	Capabilities() Capabilities
	Version() string
}

// Options control a solve. The zero value means: no limits, the backend's default
// tolerances, quiet.
type Options struct {
	TimeLimit      time.Duration // 0: none
	IterationLimit int           // simplex/QP iterations; 0: none
	PrimalTol      float64       // primal feasibility tolerance; 0: backend default
	DualTol        float64       // dual feasibility (optimality) tolerance; 0: backend default
	MIPGap         float64       // relative MIP gap; 0: backend default
	Threads        int           // 0: 1 thread (reproducible)
	Verbose        io.Writer     // nil: the backend prints nothing
	// WarmStart is a basis from an earlier solve of a problem with the same columns. Rows
	// beyond len(WarmStart.Rows) (added since) start basic. Ignored by backends without
	// Capabilities.Basis.
	WarmStart *Basis
}

// BasisStatus is the simplex status of one column or row.
type BasisStatus int8

const (
	AtLower BasisStatus = iota
	Basic
	AtUpper
	AtZero // free nonbasic variable at zero
	Fixed  // nonbasic at equal bounds
)

func (s BasisStatus) String() string {
	switch s {
	case AtLower:
		return "lower"
	case Basic:
		return "basic"
	case AtUpper:
		return "upper"
	case AtZero:
		return "zero"
	case Fixed:
		return "fixed"
	}
	return fmt.Sprintf("BasisStatus(%d)", int8(s))
}

// Basis is a simplex basis: a status per column and per row (the row's logical
// variable, i.e. its activity, relative to its bounds).
type Basis struct {
	Cols []BasisStatus
	Rows []BasisStatus
}

// Solution is the outcome of a solve. Vectors are nil when the backend has no value for
// them (for example X when infeasibility was proven, duals for a MIP).
type Solution struct {
	Status      Status
	X           []float64 // one per column
	RowActivity []float64 // Ax
	RowDual     []float64 // see the package doc for the sign convention
	ReducedCost []float64
	Objective   float64 // including the offset; meaningful when X is not nil
	BestBound   float64 // MIP: the proven bound on the optimum; LP: equals Objective
	Iterations  int     // simplex/QP iterations (MIP: total LP iterations)
	Nodes       int     // MIP branch-and-bound nodes
	WallTime    time.Duration
	Backend     string // registry name
	Version     string // backend version
	Basis       *Basis // when the backend reports one
}

// HasPrimal reports whether the solution carries a primal point.
func (s *Solution) HasPrimal() bool { return s != nil && s.X != nil }
