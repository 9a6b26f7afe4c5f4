package bench

import (
	"context"
	"fmt"
	"strings"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Class is the problem class of a case. Summaries compare solvers within a class, over
// the instances all of them attempted.
type Class string

// Problem classes.
const (
	LP       Class = "LP"
	MIP      Class = "MIP"
	QP       Class = "QP"
	FastPath Class = "fastpath" // combinatorial fast paths with no solver model
)

// StatusDone is the status of a method that computes a result rather than optimizing
// (the time-slot mapping): it finished, and its objective is the quantity it reports.
const StatusDone = "done"

// Size describes an instance: the solver model's rows, columns and nonzeros when there
// is one, and the scheduling dimensions (jobs, slots, bins) when it was generated from
// one. Zero fields are absent.
type Size struct {
	Rows     int `json:"rows,omitempty"`
	Cols     int `json:"cols,omitempty"`
	Nonzeros int `json:"nnz,omitempty"`
	Jobs     int `json:"jobs,omitempty"`
	Slots    int `json:"slots,omitempty"`
	Bins     int `json:"bins,omitempty"`
}

// SizeOf is the model dimensions of p.
func SizeOf(p *model.Problem) Size {
	return Size{Rows: p.NumRows(), Cols: p.NumCols(), Nonzeros: p.NumNonzeros()}
}

// String is the compact form used in tables: "27x32 nnz=83", "1000j x 1000t",
// "100j x 40t 2100x16000 nnz=48000".
func (s Size) String() string {
	var parts []string
	if s.Jobs > 0 {
		d := fmt.Sprintf("%dj", s.Jobs)
		if s.Slots > 0 {
			d += fmt.Sprintf(" x %dt", s.Slots)
		}
		if s.Bins > 0 {
			d += fmt.Sprintf(" x %db", s.Bins)
		}
		parts = append(parts, d)
	}
	if s.Rows > 0 || s.Cols > 0 {
		parts = append(parts, fmt.Sprintf("%dx%d nnz=%d", s.Rows, s.Cols, s.Nonzeros))
	}
	if parts == nil {
		return "-"
	}
	return strings.Join(parts, " ")
}

// Reference is the known answer of a case (the Netlib set's reference optima).
type Reference struct {
	Status    solvers.Status
	Objective float64 // when Status is Optimal
}

// Outcome is what one run of a solver or method produced.
type Outcome struct {
	// Status is a solvers.Status string ("optimal", "time_limit", …) or StatusDone.
	Status string
	// Objective is meaningful when Status is "optimal" or StatusDone.
	Objective float64
	// Metrics are counts worth reporting beside the time: "iterations", "nodes",
	// "layers" (onion peeling's levels; the scaling report also fits time per layer).
	Metrics map[string]float64
	// Note is a remark shown with the row (e.g. "not proven lexmax").
	Note string
}

// Method is a way to solve a case other than a solver backend: a fast path such as
// onion peeling, run side by side with the solvers when the case has a model too.
type Method struct {
	Name string
	Run  func(ctx context.Context) (Outcome, error)
}

// Instance is a prepared case: its model (nil for fast-path-only cases), its methods,
// and its reference answer when one is known.
type Instance struct {
	Size      Size
	Problem   *model.Problem
	Methods   []Method
	Reference *Reference
}

// Case is one benchmark instance. Prepare builds it just before it runs (reading a file
// or generating it from a seed), so a suite costs no memory until its cases run.
type Case struct {
	Name   string // unique in a suite: "afiro", "final/N=100,T=40"
	Family string // "netlib", "final", "tas-mip", "rs", "rds-qp", "onion", "wcde", "mapping", "file"
	Class  Class
	// N is the size parameter of a scaling series (the job count); 0 outside one.
	N       int
	Prepare func(ctx context.Context) (*Instance, error)
}

// Backend is a solver backend the harness may run: a registry entry with what it
// solves.
type Backend struct {
	Name    string
	Version string
	Caps    solvers.Capabilities
	// New makes a fresh solver for one run (the harness never reuses one across runs).
	New func() (solvers.Solver, error)
	// TimeoutNote is added to a row that hit the time limit (e.g. that the backend keeps
	// computing in the background, which slows what runs next).
	TimeoutNote string
}

// Solves reports whether the backend can solve problems of class c.
func (b Backend) Solves(c Class) bool {
	switch c {
	case LP:
		return b.Caps.LP
	case MIP:
		return b.Caps.MIP
	case QP:
		return b.Caps.QP
	}
	return false
}

// ClassOf is the class of a model: QP when it has a quadratic objective (the harness does
// not mix QP with integers; such a model counts as MIP), MIP when it has integers, LP
// otherwise.
func ClassOf(p *model.Problem) Class {
	switch {
	case p.HasInteger():
		return MIP
	case p.HasQuadratic():
		return QP
	}
	return LP
}

// gonumTimeoutNote explains what a gonum time-out costs the runs after it.
const gonumTimeoutNote = "gonum's lp.Simplex cannot be stopped: it runs on in the background, taking a core from what follows"

// RegistryBackends resolves backend names with solvers.Backends (nil: every backend
// compiled into this binary, sorted by name). A name that is unknown or not compiled in
// is an error; for the latter it wraps *solvers.ErrNotCompiled, whose hint says how to
// get it.
func RegistryBackends(names []string) ([]Backend, error) {
	if names == nil {
		names = solvers.Names()
	}
	bs, err := solvers.Backends(names)
	if err != nil {
		return nil, err
	}
	out := make([]Backend, len(bs))
	for i, b := range bs {
		name := b.Name
		out[i] = Backend{Name: name, Version: b.Version, Caps: b.Caps, New: func() (solvers.Solver, error) { return solvers.Get(name) }}
		if name == "gonum" {
			out[i].TimeoutNote = gonumTimeoutNote
		}
	}
	return out, nil
}
