package all

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/policies"
)

// Params are a policy's parameters as a sweep file writes them: the entry
// {"name": "rush", "delta": 0.7} gives policy rush the Params {"delta": 0.7}. Values are
// decoded JSON (float64, string, bool, []any, map[string]any).
type Params map[string]any

// parameterized holds the constructors of the policies that take parameters. A policy
// registered here is also in constructors, built with its defaults, so New and Names
// serve it unchanged; NewWithParams prefers this entry. To register a policy with
// parameters, add it to both maps; the constructor reads its keys with Params.Float (or
// its own decoding) and rejects the rest with Params.Only.
var parameterized = map[string]func(Params) (policies.Policy, error){}

// ParamError is a bad parameter of a policy: Key names it (empty when the problem is not
// one key's), so a sweep file can report it at its JSON path.
type ParamError struct {
	Policy, Key, Msg string
}

func (e *ParamError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("policy %s: %s", e.Policy, e.Msg)
	}
	return fmt.Sprintf("policy %s: parameter %s: %s", e.Policy, e.Key, e.Msg)
}

// NewWithParams returns a fresh policy by name configured by p. With no parameters it is
// New. A policy that takes none rejects any key with a *ParamError naming it.
func NewWithParams(name string, p Params) (policies.Policy, error) {
	if c, ok := parameterized[name]; ok {
		return c(p)
	}
	if len(p) > 0 {
		if _, ok := constructors[name]; ok {
			return nil, &ParamError{Policy: name, Key: slices.Sorted(maps.Keys(p))[0], Msg: "unknown parameter (this policy takes none)"}
		}
	}
	return New(name)
}

// TakesParams reports whether the named policy accepts parameters.
func TakesParams(name string) bool {
	_, ok := parameterized[name]
	return ok
}

// Float returns the number under key, or def when the key is absent; the error names
// the key when the value is not a number.
func (p Params) Float(policy, key string, def float64) (float64, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	f, ok := v.(float64)
	if !ok {
		return 0, &ParamError{Policy: policy, Key: key, Msg: fmt.Sprintf("must be a number, got %T", v)}
	}
	return f, nil
}

// Only rejects any key not in allowed, naming the first (sorted) such key.
func (p Params) Only(policy string, allowed ...string) error {
	for _, k := range slices.Sorted(maps.Keys(p)) {
		if !slices.Contains(allowed, k) {
			return &ParamError{Policy: policy, Key: k, Msg: fmt.Sprintf("unknown parameter (have %s)", strings.Join(allowed, ", "))}
		}
	}
	return nil
}
