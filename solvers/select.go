package solvers

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/model"
)

// Class is a problem class a backend may solve.
type Class string

// Problem classes.
const (
	LP  Class = "LP"
	MIP Class = "MIP"
	QP  Class = "QP"
)

// In reports whether caps include the class.
func (c Class) In(caps Capabilities) bool {
	switch c {
	case LP:
		return caps.LP
	case MIP:
		return caps.MIP
	case QP:
		return caps.QP
	}
	return false
}

// plural names the class in messages ("MIPs").
func (c Class) plural() string { return string(c) + "s" }

// preference is the default choice per class, best first. HiGHS leads LP and MIP (the
// fastest and most robust here); the built-in simplex is the pure-Go LP default; "mip"
// is the built-in branch and bound (solvers/mip), the pure-Go MIP default once it is
// compiled in, ahead of lp_solve, which is slower on the MIP test set; the built-in qp
// leads QP because it is pure Go and returns duals the RDS certificate uses.
var preference = map[Class][]string{
	LP:  {"highs", "simplex", "lpsolve", "gonum", "qp"},
	MIP: {"highs", "mip", "lpsolve"},
	QP:  {"qp", "highs"},
}

// ClassesOf is the classes a backend must solve to solve p: LP, MIP or QP by
// p.Kind(), and MIP and QP for a mixed-integer QP.
func ClassesOf(p *model.Problem) []Class {
	switch p.Kind() {
	case "MIQP":
		return []Class{MIP, QP}
	case "QP":
		return []Class{QP}
	case "MIP":
		return []Class{MIP}
	}
	return []Class{LP}
}

// Preference returns the default order of backends for a class, best first. Backends
// not compiled in are part of it; Select skips them.
func Preference(c Class) []string { return slices.Clone(preference[c]) }

// Backend is a compiled-in backend with what it solves.
type Backend struct {
	Name    string
	Version string
	Caps    Capabilities
	Solver  Solver
}

// Solves reports whether the backend solves every class.
func (b Backend) Solves(classes ...Class) bool {
	for _, c := range classes {
		if !c.In(b.Caps) {
			return false
		}
	}
	return true
}

// describe builds the Backend of a solver; one without a Describer is taken to solve
// LPs only (the least it can be asked).
func describe(name string, s Solver) Backend {
	b := Backend{Name: name, Solver: s, Caps: Capabilities{LP: true}}
	if d, ok := s.(Describer); ok {
		b.Caps, b.Version = d.Capabilities(), d.Version()
	}
	return b
}

// NoBackendError says that no backend of this binary solves the classes asked for, or
// that the named one does not, with what would and how to get it.
type NoBackendError struct {
	Classes []Class
	// Name is the backend asked for by name; "" when the default was asked for.
	Name string
	// Have lists the compiled-in backends that would do; Missing maps the backends that
	// would do but are not compiled in to how to get them.
	Have    []string
	Missing map[string]string
}

func (e *NoBackendError) Error() string {
	what := classList(e.Classes)
	var b strings.Builder
	if e.Name != "" {
		fmt.Fprintf(&b, "solver %q cannot solve %s", e.Name, what)
		if len(e.Have) > 0 {
			fmt.Fprintf(&b, "; backends for %s in this binary: %s", what, strings.Join(e.Have, ", "))
			return b.String()
		}
		b.WriteString("; ")
	}
	fmt.Fprintf(&b, "no backend for %s is compiled into this binary", what)
	if hints := e.hints(); hints != "" {
		b.WriteString("; to get one, " + hints)
	}
	return b.String()
}

// hints says how to get each missing backend that would do, by name.
func (e *NoBackendError) hints() string {
	names := make([]string, 0, len(e.Missing))
	for n := range e.Missing {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + e.Missing[n]
	}
	return strings.Join(parts, "; or ")
}

func classList(cs []Class) string {
	ps := make([]string, len(cs))
	for i, c := range cs {
		ps[i] = c.plural()
	}
	return strings.Join(ps, " and ")
}

// Select returns the backend that solves every class given: the named one, or with an
// empty name the first compiled-in backend of the first class's preference order that
// solves them all (then any other compiled-in one that does, by name). An unknown or
// not-compiled-in name gives Get's error (*ErrNotCompiled for the latter); a backend
// that cannot solve a class, or no backend at all, a *NoBackendError naming what would
// do and how to get it.
func Select(name string, classes ...Class) (Backend, error) {
	if len(classes) == 0 {
		return Backend{}, errors.New("solvers: Select needs a problem class")
	}
	if name != "" {
		s, err := Get(name)
		if err != nil {
			return Backend{}, err
		}
		b := describe(name, s)
		if !b.Solves(classes...) {
			return Backend{}, noBackend(name, classes)
		}
		return b, nil
	}
	for _, n := range Order(Names(), classes[0]) {
		s, err := Get(n)
		if err != nil {
			continue
		}
		if b := describe(n, s); b.Solves(classes...) {
			return b, nil
		}
	}
	return Backend{}, noBackend("", classes)
}

// noBackend lists what would solve the classes: compiled-in backends, and the missing
// ones with their hints. A missing backend's capabilities are unknown, so it counts when
// its name is in the preference order of every class.
func noBackend(name string, classes []Class) *NoBackendError {
	e := &NoBackendError{Classes: classes, Name: name, Missing: map[string]string{}}
	for _, b := range mustAll(Names()) {
		if b.Solves(classes...) {
			e.Have = append(e.Have, b.Name)
		}
	}
	for n, hint := range Missing() {
		ok := true
		for _, c := range classes {
			ok = ok && slices.Contains(preference[c], n)
		}
		if ok {
			e.Missing[n] = hint
		}
	}
	return e
}

// Order sorts backend names the way defaults are chosen: the preference order of class
// first (every class's, in LP, MIP, QP order, when class is ""), then the rest by name.
// Duplicates are dropped.
func Order(names []string, class Class) []string {
	var pref []string
	if class != "" {
		pref = preference[class]
	} else {
		for _, c := range []Class{LP, MIP, QP} {
			pref = append(pref, preference[c]...)
		}
	}
	var out []string
	for _, n := range pref {
		if slices.Contains(names, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	rest := slices.Clone(names)
	slices.Sort(rest)
	for _, n := range rest {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Backends resolves names (nil: every compiled-in backend, in Order(…, "")) to backends
// in the order given, dropping duplicates. An unknown or not-compiled-in name is Get's
// error.
func Backends(names []string) ([]Backend, error) {
	if names == nil {
		names = Order(Names(), "")
	}
	var out []Backend
	for _, n := range names {
		if slices.ContainsFunc(out, func(b Backend) bool { return b.Name == n }) {
			continue
		}
		s, err := Get(n)
		if err != nil {
			return nil, err
		}
		out = append(out, describe(n, s))
	}
	return out, nil
}

// mustAll describes compiled-in backends, skipping any whose factory fails.
func mustAll(names []string) []Backend {
	var out []Backend
	for _, n := range names {
		if s, err := Get(n); err == nil {
			out = append(out, describe(n, s))
		}
	}
	return out
}
