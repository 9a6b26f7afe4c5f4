package verify

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

func suiteTAS(ctx context.Context, v *verifier, in *sched.Instance, _ bool) Report {
	return v.tasChecks(ctx, in, TAS)
}

// tasChecks verifies TAS (rush.txt §III-B) on in, naming every check prefix/…:
//
//	onion/<schedule checks>   onion peeling's schedule against the instance
//	lexmax-certificate        LexmaxCertificate of onion's schedule (no solver)
//	onion-in-mip              onion's schedule is a feasible point of the TAS MIP (no solver)
//	mip/<certificate>         the MIP point lexmax (ordered outcomes) returned, recomputed
//	mip/<schedule checks>     its decoded schedule against the instance
//	onion-vs-mip              the two sorted vectors agree
//	lexmax-methods            water-filling (probe, duals, milp) and exponential weights
//	                          agree with ordered outcomes on the MIP
//	backends                  every MIP backend's max-min level equals onion's minimum
//	mapping-structure, mapping-bound (and …/exact-volume)   Alg. 4 and Theorem 3
//	alg3-vs-onion             RUSH Alg. 3 as printed against the lexmax (a measurement)
//
// An infeasible instance gets one check, prefix/infeasible (see infeasible).
func (v *verifier) tasChecks(ctx context.Context, in *sched.Instance, prefix string) Report {
	var rep Report
	res, err := v.reg.Solve(ctx, solve.Request{Formulation: TAS, Method: "onion", Instance: in, Budget: v.opt.Budget})
	switch {
	case ctx.Err() != nil:
		return rep
	case errors.Is(err, solve.ErrNoSchedule):
		rep.Add(v.infeasible(ctx, in, prefix, "onion peeling: "+err.Error()))
		return rep
	case err != nil:
		rep.Add(Fail(prefix+"/onion", 0, "onion peeling failed: "+err.Error()))
		return rep
	}
	onion := res.Schedule
	rep.Merge(Schedule(in, onion, ScheduleOptions{}).Prefixed(prefix + "/onion"))
	rep.Add(LexmaxCertificate(prefix+"/lexmax-certificate", in, onion, v.opt.CertificateWork))
	rep.Merge(v.tasMIP(ctx, in, prefix, onion))
	rep.Merge(mappingChecks(in, onion, prefix))
	rep.Add(Alg3VsOnion(ctx, v.reg, prefix+"/alg3-vs-onion", in, onion))
	return rep
}

// tasMIP runs the checks on the time-indexed MIP (formulations/tas.BuildMIP).
func (v *verifier) tasMIP(ctx context.Context, in *sched.Instance, prefix string, onion *sched.Schedule) Report {
	var rep Report
	names := []string{prefix + "/onion-vs-mip", prefix + "/lexmax-methods", prefix + "/backends"}
	skipAll := func(reason string) {
		for _, n := range names {
			rep.Add(Skip(n, reason))
		}
	}
	mip, err := tas.BuildMIP(in)
	if err != nil {
		rep.Add(Fail(prefix+"/onion-in-mip", 0, "building the TAS MIP failed although onion peeling found a schedule: "+err.Error()))
		return rep
	}
	p, err := mip.Model.Compile()
	if err != nil {
		rep.Add(Fail(prefix+"/onion-in-mip", 0, "compiling the TAS MIP: "+err.Error()))
		return rep
	}
	rep.Add(v.pointInModel(prefix+"/onion-in-mip", p, mip, onion))

	if limit := v.opt.MaxMIPSize; limit > 0 && p.NumCols() > limit {
		skipAll(fmt.Sprintf("the TAS MIP has %d columns, above --max-mip-size %d", p.NumCols(), limit))
		return rep
	}
	mipBackends := v.withCap(func(c solvers.Capabilities) bool { return c.MIP })
	if len(mipBackends) == 0 {
		skipAll(fmt.Sprintf("no MIP backend among the solvers used (%s); build with -tags highs or lpsolve", v.names()))
		return rep
	}
	ref := mipBackends[0]
	// The MIP is solved through package solve (formulation tas, method mip) on the
	// reference backend, as `coraopt solve --method mip` solves it.
	lexSolve := func(method, saturation string) (*solve.Result, error) {
		return v.reg.Solve(ctx, solve.Request{Formulation: TAS, Method: "mip", Instance: in, Solver: ref.Name,
			Lexmax: method, Saturation: saturation, TimeLimit: v.opt.TimeLimit})
	}
	ordered, err := lexSolve("ordered", "")
	err = methodErr(err)
	switch {
	case ctx.Err() != nil:
		return rep
	case isLimit(err):
		skipAll(fmt.Sprintf("lexmax (ordered) with %s stopped at a limit: %v", ref.Name, err))
		return rep
	case err != nil:
		for _, n := range names {
			rep.Add(Fail(n, 0, fmt.Sprintf("lexmax (ordered) with %s on the TAS MIP failed although onion peeling found a schedule: %v", ref.Name, err)))
		}
		return rep
	}
	mipSched := ordered.Schedule
	rep.Merge(Certificate(p, ordered.Points[0].Solution, v.tol).Prefixed(prefix + "/mip"))
	rep.Merge(Schedule(in, mipSched, ScheduleOptions{}).Prefixed(prefix + "/mip"))
	rep.Add(OnionVsMIP(prefix+"/onion-vs-mip", onion.Sorted, mipSched.Sorted, onion.Exact, ref.Name))
	rep.Add(v.lexmaxMethods(ctx, prefix+"/lexmax-methods", lexSolve, mipSched.Sorted, ref.Name))
	rep.Add(v.maxMinBackends(ctx, prefix+"/backends", in, mip, mipBackends, onion.Min))
	return rep
}

// pointInModel checks that a schedule, encoded as a point of the TAS MIP, satisfies
// every bound, row and integrality of the model: the MIP and the schedule agree on
// what a feasible schedule is.
func (v *verifier) pointInModel(name string, p *model.Problem, mip *tas.MIP, s *sched.Schedule) Check {
	x, err := mip.Encode(s)
	if err != nil {
		return Fail(name, 0, "the schedule is not a point of the TAS MIP: "+err.Error())
	}
	r := certificate.Primal(p, &solvers.Solution{X: x, Objective: p.Objective(x)}, v.tol)
	if !r.OK() {
		return Fail(name, worstMeasure(r), fmt.Sprintf("the schedule, encoded as a point of the TAS MIP, violates it: %v", oneLine(r.Err().Error())))
	}
	return Pass(name, worstMeasure(r), fmt.Sprintf("the schedule, encoded as a point of the TAS MIP (%d columns, %d rows), satisfies every bound, row and integrality", p.NumCols(), p.NumRows()))
}

func worstMeasure(r *certificate.Result) float64 {
	w := 0.0
	for _, m := range r.Measures {
		w = math.Max(w, nanInf(m.Max))
	}
	return w
}

// methodErr is the method's own error inside solve's *MethodError (the lexmax error,
// as the checks quote it), else err.
func methodErr(err error) error {
	var me *solve.MethodError
	if errors.As(err, &me) {
		return me.Err
	}
	return err
}

// isLimit reports an error from a solve stopped by a time or iteration limit.
func isLimit(err error) bool {
	var se *lexmax.StatusError
	return errors.As(err, &se) && (se.Status == solvers.TimeLimit || se.Status == solvers.IterationLimit)
}

// OnionVsMIP compares onion peeling's sorted utility vector with the lexmax of the TAS
// MIP (decoded and recomputed from its allocation), with UtilityTol. When onion
// peeling proved its answer (exact) the two must be equal. When it did not (its stall
// budget ran out), onion's schedule is still feasible, so the MIP's vector must be at
// least as good — equal or lexicographically larger — and the detail says which.
func OnionVsMIP(name string, onion, mip []float64, exact bool, backend string) Check {
	k, c := firstDiff(mip, onion)
	switch {
	case c == 0 && exact:
		return Pass(name, 0, fmt.Sprintf("onion peeling and lexmax (ordered outcomes, %s) on the TAS MIP give the same sorted utility vector (%d entries)", backend, len(onion)))
	case c == 0:
		return Pass(name, 0, fmt.Sprintf("onion peeling was not proven exact (its stall budget ran out); the MIP's lexmax (%s) equals it, so it is optimal", backend))
	case c > 0 && !exact:
		return Pass(name, gap(mip, onion, k), fmt.Sprintf("onion peeling was not proven exact (its stall budget ran out) and the MIP's lexmax (%s) is better, as it may be: first difference at position %d, %s against onion's %s",
			backend, k+1, at(mip, k), at(onion, k)))
	case c > 0:
		return Fail(name, gap(mip, onion, k), fmt.Sprintf("onion peeling claims exactness but the MIP's lexmax (%s) is lexicographically better: position %d, %s against onion's %s",
			backend, k+1, at(mip, k), at(onion, k)))
	}
	return Fail(name, gap(mip, onion, k), fmt.Sprintf("the MIP's lexmax (%s) is worse than onion's feasible schedule, so the MIP solve did not reach the lexmax: position %d, %s against onion's %s",
		backend, k+1, at(mip, k), at(onion, k)))
}

// lexmaxMethods solves the MIP with water-filling under each saturation test and with
// exponential weights, and compares each decoded sorted vector with ordered outcomes'.
// Exponential weights may refuse (weights the solver cannot order, cora.txt Lemma 1's
// numerics); that is reported, not failed.
func (v *verifier) lexmaxMethods(ctx context.Context, name string,
	lexSolve func(method, saturation string) (*solve.Result, error), ordered []float64, backend string) Check {
	type method struct {
		label, method, saturation string
	}
	methods := []method{
		{"waterfill/probe", "waterfill", "probe"},
		{"waterfill/duals", "waterfill", "duals"},
		{"waterfill/milp", "waterfill", "milp"},
		{"expweights", "expweights", ""},
	}
	var parts, failures []string
	worst, compared := 0.0, 0
	for _, m := range methods {
		sr, err := lexSolve(m.method, m.saturation)
		err = methodErr(err)
		var wr *lexmax.WeightRangeError
		var na *lexmax.NotApplicableError
		switch {
		case ctx.Err() != nil:
			return Skip(name, "interrupted")
		case errors.As(err, &wr), errors.As(err, &na):
			parts = append(parts, m.label+": refused ("+err.Error()+")")
			continue
		case isLimit(err):
			parts = append(parts, m.label+": stopped at a limit")
			continue
		case err != nil:
			failures = append(failures, fmt.Sprintf("%s failed: %v", m.label, err))
			continue
		}
		compared++
		s := sr.Schedule
		res := sr.Details.(solve.MIPDetails)
		k, c := firstDiff(s.Sorted, ordered)
		note := ""
		if res.HandedOver {
			note = ", handed over to ordered"
		}
		if c != 0 {
			worst = math.Max(worst, gap(s.Sorted, ordered, k))
			failures = append(failures, fmt.Sprintf("%s differs from ordered at position %d: %s against %s", m.label, k+1, at(s.Sorted, k), at(ordered, k)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: same (%d solves%s)", m.label, res.Solves, note))
	}
	if len(failures) > 0 {
		return Fail(name, worst, strings.Join(append(failures, parts...), "; "))
	}
	if compared == 0 {
		return Skip(name, "no method besides ordered outcomes finished: "+strings.Join(parts, "; "))
	}
	return Pass(name, 0, fmt.Sprintf("with %s, every method agrees with ordered outcomes: %s", backend, strings.Join(parts, "; ")))
}

// maxMinBackends certifies, with every MIP backend, that onion's minimum utility L* is
// the max-min level of the TAS MIP: restricted to completion slots with U_i(s) ≥ L*
// (w_is fixed at 0 elsewhere) the MIP must have a point, which each backend returns and
// the certificate checks; restricted to U_i(s) > L* it must have none, which each
// backend must report (a point it returns instead is checked, and a valid one refutes
// L*). Two feasibility solves per backend: far easier for a MIP solver than maximizing
// the level (lp_solve did not finish max t s.t. u_i ≥ t on the 7-job quickstart in a
// minute).
func (v *verifier) maxMinBackends(ctx context.Context, name string, in *sched.Instance, mip *tas.MIP, bs []solvers.Backend, level float64) Check {
	tab := in.UtilityTable()
	restricted := func(keep func(u float64) bool) (*model.Problem, string, error) {
		m := mip.Model.Clone()
		for j, ws := range mip.W {
			any := false
			for s, w := range ws {
				if !w.Valid() {
					continue
				}
				if keep(tab[j][s]) {
					any = true
				} else {
					m.SetBounds(m.VarAt(w.Index()), 0, 0)
				}
			}
			if !any {
				return nil, in.Jobs[j].ID, nil
			}
		}
		p, err := m.Compile()
		return p, "", err
	}
	atLevel, _, err := restricted(func(u float64) bool { return u >= level })
	if err != nil || atLevel == nil {
		return Fail(name, 0, fmt.Sprintf("building the MIP restricted to level %.10g: %v", level, err))
	}
	above, stuck, err := restricted(func(u float64) bool { return u > level })
	if err != nil {
		return Fail(name, 0, fmt.Sprintf("building the MIP restricted above level %.10g: %v", level, err))
	}
	var parts, failures []string
	answered := 0
	for _, b := range bs {
		sol, err := b.Solver.Solve(ctx, atLevel, v.solverOptions())
		switch {
		case ctx.Err() != nil:
			return Skip(name, "interrupted")
		case err != nil:
			failures = append(failures, fmt.Sprintf("%s: %v", b.Name, err))
			continue
		case isLimitStatus(sol.Status) && !sol.HasPrimal():
			parts = append(parts, fmt.Sprintf("%s: stopped at a limit (%s) at level %.10g", b.Name, sol.Status, level))
			continue
		case !sol.HasPrimal():
			failures = append(failures, fmt.Sprintf("%s: no point with every utility ≥ %.10g (status %s), but onion's schedule is one", b.Name, level, sol.Status))
			continue
		}
		if r := certificate.Primal(atLevel, sol, v.tol); !r.OK() {
			failures = append(failures, fmt.Sprintf("%s: its point at level %.10g fails the certificate: %s", b.Name, level, oneLine(r.Err().Error())))
			continue
		}
		verdict := fmt.Sprintf("%s: a point at %.10g (checked)", b.Name, level)
		if above == nil {
			answered++
			parts = append(parts, verdict)
			continue
		}
		sol, err = b.Solver.Solve(ctx, above, v.solverOptions())
		switch {
		case ctx.Err() != nil:
			return Skip(name, "interrupted")
		case err != nil:
			failures = append(failures, fmt.Sprintf("%s: %v", b.Name, err))
			continue
		case sol.HasPrimal() && certificate.Primal(above, sol, v.tol).OK():
			failures = append(failures, fmt.Sprintf("%s: a valid point with every utility above %.10g: onion's minimum is not the max-min level", b.Name, level))
			continue
		case isLimitStatus(sol.Status):
			parts = append(parts, verdict+fmt.Sprintf(", stopped at a limit above it (%s)", sol.Status))
			continue
		case sol.Status != solvers.Infeasible:
			failures = append(failures, fmt.Sprintf("%s: status %s for every utility above %.10g, want infeasible", b.Name, sol.Status, level))
			continue
		}
		answered++
		parts = append(parts, verdict+", none above")
	}
	if stuck != "" {
		parts = append(parts, fmt.Sprintf("above it trivially none: job %s never exceeds %.10g", stuck, level))
	}
	if len(failures) > 0 {
		return Fail(name, 0, strings.Join(append(failures, parts...), "; "))
	}
	if answered == 0 {
		return Skip(name, strings.Join(parts, "; "))
	}
	return Pass(name, 0, fmt.Sprintf("every MIP backend confirms onion's minimum utility %.10g as the TAS MIP's max-min level: %s", level, strings.Join(parts, "; ")))
}

func isLimitStatus(s solvers.Status) bool {
	return s == solvers.TimeLimit || s == solvers.IterationLimit
}

// infeasible checks a claim that in has no schedule: an independent max-flow must find
// no schedule either, with a Hall witness whose two sides are recomputed, and every MIP
// backend (when the MIP is small enough) must find the TAS MIP infeasible — a point it
// returns is checked, and a feasible one refutes the claim.
func (v *verifier) infeasible(ctx context.Context, in *sched.Instance, prefix, claim string) Check {
	name := prefix + "/infeasible"
	all := make([]int, len(in.Jobs))
	for j := range all {
		all[j] = in.Horizon
	}
	ok, w := feasibleDeadlines(in, all)
	if ok {
		return Fail(name, 0, claim+"; but an independent max-flow gives every job its demand by the horizon")
	}
	dem, sup := hallSides(in, w.Resource, w.Jobs, all)
	if dem <= sup {
		return Fail(name, 0, fmt.Sprintf("%s; the max-flow's witness does not hold when recomputed (demand %d, supply %d)", claim, dem, sup))
	}
	parts := []string{claim, "max-flow confirms: " + w.describe(in)}
	mip, err := tas.BuildMIP(in)
	switch {
	case errors.Is(err, tas.ErrInfeasible):
		parts = append(parts, "the TAS MIP builder agrees ("+err.Error()+")")
	case err != nil:
		return Fail(name, 0, strings.Join(parts, "; ")+"; building the TAS MIP: "+err.Error())
	default:
		p, err := mip.Model.Compile()
		if err != nil {
			return Fail(name, 0, "compiling the TAS MIP: "+err.Error())
		}
		bs := v.withCap(func(c solvers.Capabilities) bool { return c.MIP })
		switch {
		case v.opt.MaxMIPSize > 0 && p.NumCols() > v.opt.MaxMIPSize:
			parts = append(parts, fmt.Sprintf("MIP not solved (%d columns, above --max-mip-size %d)", p.NumCols(), v.opt.MaxMIPSize))
		case len(bs) == 0:
			parts = append(parts, "no MIP backend to ask")
		}
		if v.opt.MaxMIPSize <= 0 || p.NumCols() <= v.opt.MaxMIPSize {
			for _, b := range bs {
				sol, err := b.Solver.Solve(ctx, p, v.solverOptions())
				switch {
				case ctx.Err() != nil:
					return Skip(name, "interrupted")
				case err != nil:
					return Fail(name, 0, fmt.Sprintf("%s; %s could not solve the TAS MIP: %v", strings.Join(parts, "; "), b.Name, err))
				case sol.HasPrimal() && certificate.Primal(p, sol, v.tol).OK():
					return Fail(name, 0, fmt.Sprintf("%s; but %s found a feasible point of the TAS MIP (status %s)", strings.Join(parts, "; "), b.Name, sol.Status))
				case sol.Status == solvers.Infeasible:
					parts = append(parts, b.Name+": infeasible")
				default:
					parts = append(parts, fmt.Sprintf("%s: %s, no feasible point", b.Name, sol.Status))
				}
			}
		}
	}
	return Pass(name, 0, "no schedule exists: "+strings.Join(parts, "; "))
}
