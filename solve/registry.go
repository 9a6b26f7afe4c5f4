package solve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// Input is what a formulation reads.
type Input int

const (
	// InstanceInput is a scheduling instance (sched.Instance, the instance file).
	InstanceInput Input = iota
	// StateInput is an RDS state file (formulations/rds.StateFile): jobs' progress and
	// the capacity history of one control step, not an instance.
	StateInput
)

// Method is one way to solve a formulation.
type Method struct {
	Name string
	// Classes are the problem classes the method hands to one backend (a QP method that
	// also solves an LP on the same backend lists both); nil for a fast path that needs
	// no solver.
	Classes []solvers.Class
	// Help is one paragraph for `coraopt solve --help` (wrapped, no indentation).
	Help string
}

// NeedsSolver reports whether the method runs on a backend.
func (m Method) NeedsSolver() bool { return len(m.Classes) > 0 }

// Formulation is one registry entry.
type Formulation struct {
	// Name is what --formulation takes.
	Name string
	// Help describes the formulation in `coraopt solve --help`: a paragraph, wrapped, no
	// indentation.
	Help string
	// Methods, the default (what "auto" means) first.
	Methods []Method
	Input   Input
	// Options names the request fields of this formulation that a caller may set (the
	// command line's flags, e.g. "theta"); setting one for another formulation is an
	// error that names the formulations it applies to.
	Options []string
	// ExactDemand: schedules meet the demand exactly (CORA's eq. 4), not at least.
	ExactDemand bool
	// Verify names the verify suite that covers this formulation ("" for its own name):
	// cora-final and cora-linearized are checked inside cora's suite.
	Verify string
	// DefaultVerify: `coraopt verify` runs the suite without --formulation (where it
	// applies to the instance).
	DefaultVerify bool
	// Bench, when set, gives `coraopt bench --instances` a case for each instance file.
	Bench *Bench
	// Model, when set, builds the one optimization model the formulation's solver
	// method solves, for a caller that writes it out (`coraopt export`; Registry.Model).
	Model *ModelSpec
	// Solve runs a method (req.Method is resolved: never "" or "auto"; the backend, when
	// the method needs one, is in b).
	Solve func(ctx context.Context, req *Request, b solvers.Backend) (*Result, error)
}

// VerifySuite is the name of the verify suite that covers f.
func (f *Formulation) VerifySuite() string {
	if f.Verify != "" {
		return f.Verify
	}
	return f.Name
}

// Method returns the named method; "" and "auto" give the default.
func (f *Formulation) Method(name string) (Method, bool) {
	if name == "" || name == Auto {
		return f.Methods[0], true
	}
	for _, m := range f.Methods {
		if m.Name == name {
			return m, true
		}
	}
	return Method{}, false
}

// MethodNames lists the methods, "auto" first.
func (f *Formulation) MethodNames() []string {
	out := []string{Auto}
	for _, m := range f.Methods {
		out = append(out, m.Name)
	}
	return out
}

// Bench describes the model a formulation contributes to the benchmark harness: a model
// every backend of its class is timed on, with a method of the formulation run through
// Solve beside them (its objective comparable with the model's optimum).
type Bench struct {
	// Case is the case name's suffix (NAME/<Case>) and family ("tas-mip", "cora-final").
	Case  string
	Class solvers.Class
	// Model builds the model from an instance.
	Model func(in *sched.Instance) (*model.Problem, error)
	// FastPath is the method run beside the backends ("" for none); Objective maps its
	// Result to the model's objective (e.g. the lowest utility level).
	FastPath  string
	Objective func(*Result) float64
}

// ModelSpec is a formulation's optimization model.
type ModelSpec struct {
	// Help describes its columns, rows and objective: a paragraph, wrapped, no
	// indentation (`coraopt export --help`).
	Help string
	// Build builds it for req.Instance with req's options; the strings are warnings
	// for the user (the CORA numerics guard).
	Build func(ctx context.Context, req *Request) (*model.Model, []string, error)
}

// Model builds the optimization model of req's formulation (Formulation.Model) for
// req.Instance, with its warnings. Errors: *RequestError for a request Check refuses,
// a formulation without a model or an instance the model cannot be built for; an
// error wrapping ErrNoSchedule when building it proves the instance has no schedule.
func (r *Registry) Model(ctx context.Context, req Request) (*model.Model, []string, error) {
	f, m, err := r.Check(req)
	if err != nil {
		return nil, nil, err
	}
	if f.Model == nil {
		return nil, nil, requestErrf("%s %q: no single model to build (formulations with one: %s)", field("formulation"), f.Name, strings.Join(r.ModelNames(), ", "))
	}
	if req.Instance == nil {
		return nil, nil, requestErrf("solve: %s needs an instance", f.Name)
	}
	req.Method = m.Name
	return f.Model.Build(ctx, &req)
}

// ModelNames lists the formulations with a model (Formulation.Model), in registry order.
func (r *Registry) ModelNames() []string {
	var out []string
	for _, f := range r.list {
		if f.Model != nil {
			out = append(out, f.Name)
		}
	}
	return out
}

// ModelHelpText lists the formulations with a model and the model's help, as
// HelpText lists formulations (for `coraopt export --help`).
func (r *Registry) ModelHelpText() string {
	var b strings.Builder
	for _, f := range r.list {
		if f.Model != nil {
			writeEntry(&b, f.Name, f.Model.Help)
		}
	}
	return b.String()
}

// Auto is the method name that picks the formulation's default.
const Auto = "auto"

// Registry is a set of formulations, in the order they were added (help and "all"
// follow it). It is not safe for concurrent Add; build it, then share it.
type Registry struct {
	list []*Formulation
}

// NewRegistry returns a registry of the given formulations.
func NewRegistry(fs ...Formulation) (*Registry, error) {
	r := &Registry{}
	for _, f := range fs {
		if err := r.Add(f); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Default returns a new registry of coraopt's formulations: tas, rs, cora, cora-final,
// cora-linearized, rds.
func Default() *Registry {
	r, err := NewRegistry(withAlg3(tasFormulation()), rsFormulation(), coraFormulation(),
		coraLPFormulation(finalSpec), coraLPFormulation(linearizedSpec), rdsFormulation())
	if err != nil {
		panic(err) // the built-in entries are valid; a test pins it
	}
	return r
}

// Add registers a formulation. Its name must be new, and it needs a Solve function and
// at least one method, with distinct names other than "auto".
func (r *Registry) Add(f Formulation) error {
	switch {
	case f.Name == "" || f.Name == Auto:
		return fmt.Errorf("solve: formulation name %q", f.Name)
	case r.Lookup(f.Name) != nil:
		return fmt.Errorf("solve: formulation %q registered twice", f.Name)
	case f.Solve == nil:
		return fmt.Errorf("solve: formulation %q has no Solve", f.Name)
	case len(f.Methods) == 0:
		return fmt.Errorf("solve: formulation %q has no method", f.Name)
	}
	seen := map[string]bool{}
	for _, m := range f.Methods {
		if m.Name == "" || m.Name == Auto || seen[m.Name] {
			return fmt.Errorf("solve: formulation %q: method name %q empty, reserved or repeated", f.Name, m.Name)
		}
		seen[m.Name] = true
	}
	r.list = append(r.list, &f)
	return nil
}

// Lookup returns the named formulation, nil when there is none.
func (r *Registry) Lookup(name string) *Formulation {
	for _, f := range r.list {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Formulations lists the entries in registry order.
func (r *Registry) Formulations() []*Formulation { return slices.Clone(r.list) }

// Names lists the formulation names in registry order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.list))
	for i, f := range r.list {
		out[i] = f.Name
	}
	return out
}

// OptionFormulations lists the formulations that take an option.
func (r *Registry) OptionFormulations(option string) []string {
	var out []string
	for _, f := range r.list {
		if slices.Contains(f.Options, option) {
			out = append(out, f.Name)
		}
	}
	return out
}

// VerifySuites lists the verify suites of the registry's instance formulations, in
// registry order, each once.
func (r *Registry) VerifySuites() []string {
	var out []string
	for _, f := range r.list {
		if s := f.VerifySuite(); f.Input == InstanceInput && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// RequestError is a request that cannot run as asked (an unknown formulation or method,
// an option of another formulation, a missing or unsuitable backend, bad parameters):
// the caller's mistake, exit 2 on the command line. Its message names the request's
// fields as the registry does ("method", "theta"); Describe names them the caller's way.
type RequestError struct {
	msg message
	err error // the error the message wraps (%w), nil if none
}

func (e *RequestError) Error() string { return e.msg.render(plainField) }
func (e *RequestError) Unwrap() error { return e.err }

// requestErrf is a *RequestError; a field argument is a request field named in the
// message, and one %w verb wraps its error.
func requestErrf(format string, args ...any) error {
	return &RequestError{msg: message{format, args}, err: errors.Unwrap(fmt.Errorf(format, plainArgs(args)...))}
}

// requestErr makes err a *RequestError, its message unchanged.
func requestErr(err error) error { return requestErrf("%w", err) }

// MethodError is a method that failed (a solver error, a limit); Err is the method's own
// error.
type MethodError struct {
	Method string
	Err    error
}

func (e *MethodError) Error() string { return e.render(plainField) }
func (e *MethodError) Unwrap() error { return e.Err }

func (e *MethodError) render(name func(string) string) string {
	return name("method") + " " + e.Method + ": " + Describe(e.Err, name)
}

// field is a request field named in an error message: its name in Error, what the
// caller's namer makes of it in Describe.
type field string

// plainField names a field as the registry does: Formulation.Options' names, and
// formulation, method, solver, time-limit, lexmax, saturation for the rest.
func plainField(f string) string { return f }

// message is an error message with request fields in its arguments.
type message struct {
	format string
	args   []any
}

// render formats m with every field named by name, a nested message or error likewise.
func (m message) render(name func(string) string) string {
	args := make([]any, len(m.args))
	for i, a := range m.args {
		switch a := a.(type) {
		case field:
			args[i] = name(string(a))
		case message:
			args[i] = a.render(name)
		case error:
			args[i] = Describe(a, name)
		default:
			args[i] = a
		}
	}
	return fmt.Sprintf(strings.ReplaceAll(m.format, "%w", "%v"), args...)
}

// plainArgs is args with fields and messages rendered plainly (for fmt.Errorf).
func plainArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case field:
			out[i] = string(a)
		case message:
			out[i] = a.render(plainField)
		default:
			out[i] = a
		}
	}
	return out
}

// fieldValues is "name a, name b" (joined by sep) with name the field: how a message
// lists several values of one field ("method onion or method alg3").
func fieldValues(name string, values []string, sep string) message {
	var m message
	for i, v := range values {
		if i > 0 {
			m.format += sep
		}
		m.format += "%s %s"
		m.args = append(m.args, field(name), v)
	}
	return m
}

// Describe is err's message with every request field that solve's errors in it name
// written by name: the command line passes its flags (func(f string) string { return
// "--" + f }), so "method \"x\": tas takes …" reads "--method \"x\": tas takes …". The
// rest of the message is err.Error()'s.
func Describe(err error, name func(field string) string) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	var walk func(e error)
	walk = func(e error) {
		switch x := e.(type) {
		case *RequestError:
			msg = strings.Replace(msg, x.Error(), x.msg.render(name), 1)
			return // render covered what it wraps
		case *MethodError:
			msg = strings.Replace(msg, x.Error(), x.render(name), 1)
			return
		case interface{ Unwrap() []error }:
			for _, in := range x.Unwrap() {
				walk(in)
			}
		case interface{ Unwrap() error }:
			if in := x.Unwrap(); in != nil {
				walk(in)
			}
		}
	}
	walk(err)
	return msg
}

// StatusError is a backend that ran but stopped without an optimal point to read a
// schedule from (a limit, infeasible, a numerical failure): Status is the backend's
// status. Partial is what the method had then — the model and the backend's answer
// (Points), the backend and the formulation's additions (CORA, Details) — for a caller
// that reports or certifies it, as package verify does when it sets backends side by
// side. An infeasible status comes inside a *NoScheduleError.
type StatusError struct {
	Status  solvers.Status
	Partial *Result
	msg     string
}

func (e *StatusError) Error() string { return e.msg }

// ErrNoSchedule is wrapped by Solve's error when the instance has no feasible schedule.
var ErrNoSchedule = errors.New("no feasible schedule")

// NoScheduleError says why the instance has no schedule; it wraps ErrNoSchedule.
type NoScheduleError struct{ Err error }

func (e *NoScheduleError) Error() string { return e.Err.Error() }
func (e *NoScheduleError) Unwrap() []error {
	return []error{e.Err, ErrNoSchedule}
}

// HelpText renders the registry for `coraopt solve --help`: every formulation with its
// help, then every method (by name, first description wins) with the formulations that
// use it.
func (r *Registry) HelpText() string {
	var b strings.Builder
	b.WriteString("Formulation (--formulation):\n")
	for _, f := range r.list {
		writeEntry(&b, f.Name, f.Help)
	}
	b.WriteString("\nMethods (--method):\n")
	var autos []string
	for _, f := range r.list {
		autos = append(autos, f.Methods[0].Name+" for "+f.Name)
	}
	writeEntry(&b, Auto, "the formulation's default: "+strings.Join(autos, ", ")+".")
	var seen []string
	for _, f := range r.list {
		for _, m := range f.Methods {
			if slices.Contains(seen, m.Name) || m.Help == "" {
				continue
			}
			seen = append(seen, m.Name)
			var users []string
			for _, g := range r.list {
				if slices.ContainsFunc(g.Methods, func(x Method) bool { return x.Name == m.Name }) {
					users = append(users, g.Name)
				}
			}
			writeEntry(&b, m.Name, m.Help+" ("+strings.Join(users, ", ")+")")
		}
	}
	return b.String()
}

// writeEntry writes "  name  text" with text wrapped at 88 columns and indented under
// itself (a name longer than the gutter gets its own line).
func writeEntry(b *strings.Builder, name, text string) {
	const gutter = 8
	const width = 88
	line := "  " + name
	if len(line) >= gutter {
		b.WriteString(line + "\n")
		line = strings.Repeat(" ", gutter)
	} else {
		line += strings.Repeat(" ", gutter-len(line))
	}
	start := len(line)
	for _, w := range strings.Fields(text) {
		if len(line) > start && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", gutter)
			start = len(line)
		}
		if len(line) > start {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
}
