package solvers

import "fmt"

// Status says why a solve stopped and what it proved, after MathOptInterface's
// TerminationStatus. The zero value is Other.
//
// Context handling: a context whose deadline passes during a solve gives TimeLimit; a
// cancelled context gives Other, and the caller sees ctx.Err() != nil.
type Status int

const (
	Other                 Status = iota // stopped for a reason not listed here
	Optimal                             // a proven optimum (within tolerances) is in the Solution
	Infeasible                          // the constraints admit no point
	Unbounded                           // feasible, with objective improving without bound
	InfeasibleOrUnbounded               // one of the two; the backend did not decide which
	TimeLimit                           // stopped by Options.TimeLimit or a context deadline
	IterationLimit                      // stopped by Options.IterationLimit
	NumericalError                      // gave up on numerical difficulty
)

var statusNames = [...]string{
	Other:                 "other",
	Optimal:               "optimal",
	Infeasible:            "infeasible",
	Unbounded:             "unbounded",
	InfeasibleOrUnbounded: "infeasible_or_unbounded",
	TimeLimit:             "time_limit",
	IterationLimit:        "iteration_limit",
	NumericalError:        "numerical_error",
}

// String is the status as printed in coraopt's JSON output ("optimal", "time_limit", …).
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// ParseStatus is the inverse of String.
func ParseStatus(s string) (Status, error) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), nil
		}
	}
	return Other, fmt.Errorf("unknown status %q", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Status) UnmarshalText(b []byte) error {
	v, err := ParseStatus(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// IsLimit reports whether the solver stopped on a limit rather than proving anything.
func (s Status) IsLimit() bool { return s == TimeLimit || s == IterationLimit }
