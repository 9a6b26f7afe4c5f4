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
}

// backend is one solver the checks may use.
type backend struct {
	name   string
	solver solvers.Solver
	caps   solvers.Capabilities
}

// preferred orders the default backends: the reference first.
var preferred = []string{"highs", "simplex", "lpsolve", "gonum", "qp"}

// resolveBackends returns the selected backends, in order.
func resolveBackends(names []string) ([]backend, error) {
	if names == nil {
		have := solvers.Names()
		names = nil
		for _, n := range preferred {
			if slices.Contains(have, n) {
				names = append(names, n)
			}
		}
		for _, n := range have {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	var out []backend
	for _, n := range names {
		if slices.ContainsFunc(out, func(b backend) bool { return b.name == n }) {
			continue
		}
		s, err := solvers.Get(n)
		if err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		b := backend{name: n, solver: s, caps: solvers.Capabilities{LP: true}}
		if d, ok := s.(solvers.Describer); ok {
			b.caps = d.Capabilities()
		}
		out = append(out, b)
	}
	return out, nil
}

// Formulation names accepted by ParseFormulations besides TAS, CORA and RS.
const (
	Auto = "auto" // the defaults (see Options.Formulations)
	All  = "all"  // TAS, CORA and RS (RS where it applies)
)

// ParseFormulations turns "auto", "all" or a comma-separated list of tas, cora, rs into
// Options.Formulations (nil for auto).
func ParseFormulations(s string) ([]string, error) {
	switch s {
	case "", Auto:
		return nil, nil
	case All:
		return []string{TAS, CORA, RS}, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if !slices.Contains([]string{TAS, CORA, RS}, f) {
			return nil, fmt.Errorf("unknown formulation %q (want auto, all, or a list of tas, cora, rs)", f)
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// verifier holds what every suite needs.
type verifier struct {
	opt      Options
	backends []backend
	tol      certificate.Tolerances
}

func (v *verifier) solverOptions() solvers.Options {
	return solvers.Options{TimeLimit: v.opt.TimeLimit}
}

// withCap returns the selected backends that have a capability.
func (v *verifier) withCap(has func(solvers.Capabilities) bool) []backend {
	var out []backend
	for _, b := range v.backends {
		if has(b.caps) {
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
		ns[i] = b.name
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
	bs, err := resolveBackends(opt.Solvers)
	if err != nil {
		return Report{}, err
	}
	if opt.TimeLimit <= 0 {
		opt.TimeLimit = DefaultTimeLimit
	}
	if opt.MaxMIPSize == 0 {
		opt.MaxMIPSize = DefaultMaxMIPSize
	}
	v := &verifier{opt: opt, backends: bs, tol: opt.Tolerances.WithDefaults()}
	forms, explicit := opt.Formulations, true
	if len(forms) == 0 {
		forms, explicit = []string{TAS, RS}, false
	}
	var rep Report
	for _, f := range forms {
		suite, ok := suiteFor(f)
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

// suiteFor is the table of formulations. RDS (rds.txt eq. 3) is the next entry: a suite
// that builds the receding-horizon QP of each control interval, solves it with every QP
// backend (v.withCap(QP)) and reports Certificate's KKT checks (kkt-stationarity,
// kkt-dual-feasibility, kkt-complementarity, duality-gap) and the agreement of the
// backends' optimal objectives, as suiteCORA does for FINAL.
func suiteFor(name string) (suite, bool) {
	switch name {
	case TAS:
		return suiteTAS, true
	case CORA:
		return suiteCORA, true
	case RS:
		return suiteRS, true
	}
	return nil, false
}
