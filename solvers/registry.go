package solvers

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Factory creates a ready-to-use Solver.
type Factory func() (Solver, error)

type entry struct {
	factory Factory
	missing string // non-empty: not compiled in; how to get it
}

// The registry is written only by init functions of backend packages (as database/sql's
// drivers are) and read afterwards; the mutex keeps that honest under concurrent tests.
var (
	regMu    sync.RWMutex
	registry = map[string]entry{}
)

// Register makes a backend available under name. It panics on a duplicate name, which is
// a programming error caught at init time.
func Register(name string, f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	if e, dup := registry[name]; dup && e.missing == "" {
		panic("solvers: Register called twice for " + name)
	}
	registry[name] = entry{factory: f}
}

// RegisterMissing records that a backend exists but is not compiled into this binary,
// with a hint on how to get it; Get returns an error carrying the hint. A real Register
// of the same name wins whatever the order.
func RegisterMissing(name, hint string) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, ok := registry[name]; ok {
		return
	}
	registry[name] = entry{missing: hint}
}

// ErrNotCompiled is wrapped by Get's error when the backend needs a build tag.
type ErrNotCompiled struct{ Name, Hint string }

func (e *ErrNotCompiled) Error() string {
	return fmt.Sprintf("solver %q is not compiled into this binary: %s", e.Name, e.Hint)
}

// Get returns a new instance of the named backend.
func Get(name string) (Solver, error) {
	regMu.RLock()
	e, ok := registry[name]
	regMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown solver %q (available: %s)", name, strings.Join(Names(), ", "))
	}
	if e.missing != "" {
		return nil, &ErrNotCompiled{Name: name, Hint: e.missing}
	}
	s, err := e.factory()
	if err != nil {
		return nil, fmt.Errorf("solver %q: %w", name, err)
	}
	return s, nil
}

// Names lists the backends compiled into this binary, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	var out []string
	for n, e := range registry {
		if e.missing == "" {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Missing lists backends known but not compiled in, with their hints, sorted by name.
func Missing() map[string]string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := map[string]string{}
	for n, e := range registry {
		if e.missing != "" {
			out[n] = e.missing
		}
	}
	return out
}
