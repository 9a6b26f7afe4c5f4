package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

// Formulations Instance can verify.
const (
	TAS  = "tas"  // onion peeling, its certificate, the TAS MIP, lexmax methods, backends, Alg. 4 mapping
	CORA = "cora" // exact CORA, FINAL on every LP backend, FINAL against exact, Lemma 3
	RS   = "rs"   // WCDE cross-checks per job, then the TAS checks on the worst-case demands
)

// Defaults of Options.
const (
	// DefaultMaxMIPSize is the largest TAS MIP (columns) the MIP checks solve. The
	// lexmax-methods check solves it lexicographically five times; at 20 tight jobs
	// (≈ 800 columns) HiGHS needs seconds per lexmax (lexmax's BenchmarkLexmax/tas20).
	DefaultMaxMIPSize = 400
	// DefaultTimeLimit bounds every solver call; a solve stopped by it makes its check
	// skipped, not passed.
	DefaultTimeLimit = time.Minute
	// DefaultMaxLinearizedColumns bounds the Linearized-CORA model of the Lemma 3 check.
	DefaultMaxLinearizedColumns = 20_000
)

// Options control Instance. The zero value verifies the default formulations with every
// backend compiled into the binary.
type Options struct {
	// Formulations to verify (TAS, CORA, RS). Empty means the defaults: TAS always, and
	// RS when the instance has a single resource, jobs with runtimes and RS parameters.
	// FINAL (CORA) runs only when asked for: it is known to disagree with exact CORA.
	Formulations []string
	// Solvers are the backends (registry names) used for the MIP and LP checks, the
	// first capable one being the reference. Nil means every backend compiled in, HiGHS
	// first, then the built-in ones.
	Solvers []string
	// MaxMIPSize: TAS MIPs with more columns skip the MIP checks. 0 means
	// DefaultMaxMIPSize; negative means no limit.
	MaxMIPSize int
	// TimeLimit bounds each solver call (0: DefaultTimeLimit).
	TimeLimit time.Duration
	// Budget is onion peeling's stall-branch budget (tas.Options.MaxBranches).
	Budget int
	// CertificateWork bounds LexmaxCertificate (0: DefaultCertificateWork).
	CertificateWork int
	// RS overrides the instance's robust block.
	RS *rs.Params
	// Tolerances of the LP/MIP certificates (zero fields: certificate's defaults).
	Tolerances certificate.Tolerances
	// Registry holds the formulations (nil: solve.Default()).
	Registry *solve.Registry
}

// Formulation names accepted by ParseFormulations besides the registry's.
const (
	Auto = "auto" // the defaults (see Options.Formulations)
	All  = "all"  // every suite (TAS, CORA, RS, then the registry's others), each where it applies
)

// registryOf is reg, or solve's default registry.
func registryOf(reg *solve.Registry) *solve.Registry {
	if reg == nil {
		return solve.Default()
	}
	return reg
}

// Suites lists the verify suites of a registry (nil: solve.Default()) in the order
// "all" runs them: tas, cora, rs, then the registry's other instance formulations in
// registry order. cora-final and cora-linearized are checked inside cora's suite.
func Suites(reg *solve.Registry) []string {
	var out []string
	have := registryOf(reg).VerifySuites()
	for _, s := range []string{TAS, CORA, RS} {
		if slices.Contains(have, s) {
			out = append(out, s)
		}
	}
	for _, s := range have {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// ParseFormulations turns "auto", "all" or a comma-separated list of suites (Suites)
// into Options.Formulations (nil for auto). A formulation of the registry that is
// checked inside another's suite (cora-final: cora) names that suite.
func ParseFormulations(reg *solve.Registry, s string) ([]string, error) {
	reg = registryOf(reg)
	suites := Suites(reg)
	switch s {
	case "", Auto:
		return nil, nil
	case All:
		return suites, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if e := reg.Lookup(f); e != nil {
			if e.Input != solve.InstanceInput {
				return nil, fmt.Errorf("formulation %q reads an RDS state file, not an instance: verify it with coraopt solve --formulation %s --verify", f, f)
			}
			f = e.VerifySuite()
		}
		if !slices.Contains(suites, f) {
			return nil, fmt.Errorf("unknown formulation %q (want auto, all, or a list of %s)", f, strings.Join(suites, ", "))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// defaultSuites are the suites Instance runs without Options.Formulations.
func defaultSuites(reg *solve.Registry) []string {
	var out []string
	for _, f := range reg.Formulations() {
		if s := f.VerifySuite(); f.DefaultVerify && f.Input == solve.InstanceInput && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// verifier holds what every suite needs.
type verifier struct {
	opt      Options
	backends []solvers.Backend
	reg      *solve.Registry
	tol      certificate.Tolerances
}

func (v *verifier) solverOptions() solvers.Options {
	return solvers.Options{TimeLimit: v.opt.TimeLimit}
}

// withCap returns the selected backends that have a capability.
func (v *verifier) withCap(has func(solvers.Capabilities) bool) []solvers.Backend {
	var out []solvers.Backend
	for _, b := range v.backends {
		if has(b.Caps) {
			out = append(out, b)
		}
	}
	return out
}

func (v *verifier) names() string {
	if len(v.backends) == 0 {
		return "none"
	}
	ns := make([]string, len(v.backends))
	for i, b := range v.backends {
		ns[i] = b.Name
	}
	return strings.Join(ns, ", ")
}

// Instance runs every method that applies to in for the chosen formulations and
// cross-checks their answers (see the package documentation for the checks). The error
// is non-nil only for bad options (an unknown or missing backend) or when ctx ends; the
// report then holds the checks that finished.
func Instance(ctx context.Context, in *sched.Instance, opt Options) (Report, error) {
	if in == nil {
		return Report{}, errors.New("verify: nil instance")
	}
	bs, err := solvers.Backends(opt.Solvers)
	if err != nil {
		return Report{}, fmt.Errorf("verify: %w", err)
	}
	if opt.TimeLimit <= 0 {
		opt.TimeLimit = DefaultTimeLimit
	}
	if opt.MaxMIPSize == 0 {
		opt.MaxMIPSize = DefaultMaxMIPSize
	}
	v := &verifier{opt: opt, backends: bs, reg: registryOf(opt.Registry), tol: opt.Tolerances.WithDefaults()}
	forms, explicit := opt.Formulations, true
	if len(forms) == 0 {
		forms, explicit = defaultSuites(v.reg), false
	}
	var rep Report
	for _, f := range forms {
		suite, ok := v.suiteFor(f)
		if !ok {
			return rep, fmt.Errorf("verify: unknown formulation %q", f)
		}
		rep.Merge(suite(ctx, v, in, explicit))
		if err := ctx.Err(); err != nil {
			return rep, fmt.Errorf("verify: %w", err)
		}
	}
	return rep, nil
}

// suite verifies one formulation of an instance. explicit says whether the user asked for
// it (a suite that does not apply then says so in a skipped check; otherwise it stays
// silent).
type suite func(ctx context.Context, v *verifier, in *sched.Instance, explicit bool) Report

// suiteFor is the table of suites: tas, cora and rs have their own cross-checks; any
// other instance formulation of the registry gets the generic suite (every method,
// checked and compared). RDS is checked per step (RDSStep), from a state file.
func (v *verifier) suiteFor(name string) (suite, bool) {
	switch name {
	case TAS:
		return suiteTAS, true
	case CORA:
		return suiteCORA, true
	case RS:
		return suiteRS, true
	}
	if slices.Contains(v.reg.VerifySuites(), name) {
		return func(ctx context.Context, v *verifier, in *sched.Instance, explicit bool) Report {
			return v.generic(ctx, in, name, explicit)
		}, true
	}
	return nil, false
}
