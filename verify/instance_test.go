package verify

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

// pureGo are the backends of every build; tests name them so the liars stay out.
var pureGo = []string{"simplex", "gonum"}

func verifyInstance(t *testing.T, name string, opt Options) Report {
	t.Helper()
	if opt.Solvers == nil {
		opt.Solvers = pureGo
	}
	rep, err := Instance(context.Background(), load(t, name), opt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rep
}

func wantStatus(t *testing.T, rep Report, want map[string]string) {
	t.Helper()
	for name, st := range want {
		c := mustFind(t, rep, name)
		if c.Status() != st {
			t.Errorf("%s: %s, want %s: %s%s", name, c.Status(), st, c.Detail, c.Reason)
		}
	}
}

// TestInstanceTAS: the checks that need no MIP backend run and hold; the MIP checks are
// skipped with the reason in a plain build (instance_highs_test.go runs them).
func TestInstanceTAS(t *testing.T) {
	rep := verifyInstance(t, "quickstart.json", Options{})
	if !rep.OK() {
		t.Fatalf("failures: %v", rep.Failures())
	}
	wantStatus(t, rep, map[string]string{
		"tas/onion/capacity": "pass", "tas/lexmax-certificate": "pass", "tas/onion-in-mip": "pass",
		"tas/mapping-bound": "pass", "tas/mapping-structure/exact-volume": "pass",
	})
	for _, n := range []string{"tas/onion-vs-mip", "tas/lexmax-methods", "tas/backends"} {
		if c := mustFind(t, rep, n); c.Status() != "skip" || !strings.Contains(c.Reason, "MIP backend") {
			t.Errorf("%s: %s %q", n, c.Status(), c.Reason)
		}
	}
	if _, ok := rep.Find("rs/eta"); ok {
		t.Error("rs ran on an instance without runtimes")
	}
}

func TestInstanceMaxMIPSize(t *testing.T) {
	rep := verifyInstance(t, "quickstart.json", Options{MaxMIPSize: 10})
	if c := mustFind(t, rep, "tas/onion-vs-mip"); c.Status() != "skip" || !strings.Contains(c.Reason, "max-mip-size 10") {
		t.Errorf("%s %q", c.Status(), c.Reason)
	}
}

func TestInstanceInfeasible(t *testing.T) {
	rep := verifyInstance(t, "tas/infeasible.json", Options{})
	if len(rep.Checks) != 1 {
		t.Fatalf("%v", rep.Checks)
	}
	wantStatus(t, rep, map[string]string{"tas/infeasible": "pass"})
	if d := rep.Checks[0].Detail; !strings.Contains(d, "max-flow confirms") {
		t.Errorf("detail %q", d)
	}
	// The same check on a feasible instance refutes the claim.
	v := &verifier{opt: Options{MaxMIPSize: -1}, tol: certificate.DefaultTolerances()}
	c := v.infeasible(context.Background(), load(t, "quickstart.json"), TAS, "a claim")
	if c.Status() != "fail" || !strings.Contains(c.Detail, "independent max-flow") {
		t.Errorf("infeasible on a feasible instance: %s %s", c.Status(), c.Detail)
	}
}

func TestOnionInMIP(t *testing.T) {
	in := load(t, "quickstart.json")
	mip, err := tas.BuildMIP(in)
	if err != nil {
		t.Fatal(err)
	}
	p, err := mip.Model.Compile()
	if err != nil {
		t.Fatal(err)
	}
	v := &verifier{tol: certificate.DefaultTolerances()}
	if c := v.pointInModel("onion-in-mip", p, mip, onion(t, in)); !c.OK {
		t.Errorf("onion's schedule: %s", c.Detail)
	}
	if c := v.pointInModel("onion-in-mip", p, mip, overCapacity(t, in)); c.OK {
		t.Errorf("a schedule over capacity passes: %s", c.Detail)
	}
}

// TestInstanceCORA pins the FINAL finding: it agrees with exact CORA on
// testdata/cora/agree.json and not on spread.json (formulations/cora's documentation).
func TestInstanceCORA(t *testing.T) {
	for _, tc := range []struct {
		instance string
		agree    bool
	}{{"cora/agree.json", true}, {"cora/spread.json", false}} {
		rep := verifyInstance(t, tc.instance, Options{Formulations: []string{CORA}})
		want := map[string]string{"cora/exact/demand": "pass", "cora/backends": "pass", "cora/final-integrality": "pass",
			"cora/final/duality-gap": "pass", "cora/final/complementary-slackness": "pass", "cora/final/demand": "pass",
			"cora/linearized-vs-final": "pass", "cora/final-vs-exact": "pass"}
		if !tc.agree {
			want["cora/final-vs-exact"] = "fail"
		}
		wantStatus(t, rep, want)
		if got, want := len(rep.Failures()), map[bool]int{true: 0, false: 1}[tc.agree]; got != want {
			t.Errorf("%s: failures %v", tc.instance, failed(rep))
		}
		if !tc.agree {
			c := mustFind(t, rep, "cora/final-vs-exact")
			if !(c.MaxViolation > 0) || !strings.Contains(c.Detail, "position") {
				t.Errorf("the disagreement does not say where: %g %q", c.MaxViolation, c.Detail)
			}
		}
	}
}

// TestInstanceLPBackendsDisagree: a backend whose point is off makes cora/backends fail.
func TestInstanceLPBackendsDisagree(t *testing.T) {
	rep := verifyInstance(t, "cora/agree.json", Options{Formulations: []string{CORA}, Solvers: []string{"simplex", liarShift}})
	c := mustFind(t, rep, "cora/backends")
	if c.Status() != "fail" || !strings.Contains(c.Detail, liarShift+": certificate fails") {
		t.Errorf("cora/backends with a liar: %s %s", c.Status(), c.Detail)
	}
	// As the reference, the liar's own certificate fails.
	rep = verifyInstance(t, "cora/agree.json", Options{Formulations: []string{CORA}, Solvers: []string{liarShift}})
	if rep.OK() {
		t.Error("the liar's FINAL passed")
	}
}

func TestInstanceRS(t *testing.T) {
	rep := verifyInstance(t, "instances/runtime-robust.json", Options{})
	if !rep.OK() {
		t.Fatalf("failures: %v", rep.Failures())
	}
	var rs int
	for _, c := range rep.Checks {
		if strings.HasPrefix(c.Name, "rs/") {
			rs++
		}
	}
	if rs < 10 {
		t.Errorf("only %d rs checks", rs)
	}
	wantStatus(t, rep, map[string]string{"rs/onion/demand": "pass", "rs/lexmax-certificate": "pass"})
	// Asked for on an instance without runtimes, RS says why it does not apply.
	rep = verifyInstance(t, "quickstart.json", Options{Formulations: []string{RS}})
	if c := mustFind(t, rep, "rs"); c.Status() != "skip" || !strings.Contains(c.Reason, "runtime") {
		t.Errorf("rs on quickstart: %s %q", c.Status(), c.Reason)
	}
}

func TestInstanceBadOptions(t *testing.T) {
	in := load(t, "quickstart.json")
	for name, opt := range map[string]Options{
		"unknown solver":      {Solvers: []string{"nope"}},
		"unknown formulation": {Solvers: pureGo, Formulations: []string{"rds"}},
	} {
		if _, err := Instance(context.Background(), in, opt); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Instance(context.Background(), nil, Options{}); err == nil {
		t.Error("nil instance: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Instance(ctx, in, Options{Solvers: pureGo}); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestParseFormulations(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false}, {"auto", nil, false}, {"all", []string{TAS, CORA, RS}, false},
		{"cora, tas,cora", []string{CORA, TAS}, false}, {"rds", nil, true}, {"tas,", nil, true},
		// cora-final and cora-linearized are checked inside cora's suite.
		{"cora-final,cora", []string{CORA}, false}, {"nosuch", nil, true},
	} {
		got, err := ParseFormulations(nil, tc.in)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("ParseFormulations(%q) = %v, %v", tc.in, got, err)
		}
	}
}

// TestCertificateChecks: verify.Certificate names one check per measure, skips the dual
// certificate without duals and names the QP's KKT checks.
func TestCertificateChecks(t *testing.T) {
	build := func(quadratic bool) *model.Problem {
		m := model.New("cert")
		x := m.Continuous(0, 3, "x")
		y := m.Continuous(0, model.Inf, "y")
		m.AddLe(model.Sum(x, y), 4, "cap")
		if quadratic { // min x² − 2x + y: optimum x = 1, y = 0
			m.Minimize(model.SumExpr(x.Mul(-2), y.E()))
			m.AddQuadObj(x, x, 1)
		} else { // min −2x − y: optimum x = 3, y = 1
			m.Minimize(model.SumExpr(x.Mul(-2), y.Mul(-1)))
		}
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := build(false)
	s, _ := solvers.Get("simplex")
	sol, err := s.Solve(context.Background(), p, solvers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := Certificate(p, sol, certificate.Tolerances{})
	want := []string{"bounds", "rows", "row-activity", "objective", "reduced-costs", "dual-feasibility", "complementary-slackness", "duality-gap"}
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, want) || !rep.OK() {
		t.Fatalf("checks %v, failures %v", names, rep.Failures())
	}
	bad := *sol
	bad.Objective += 1
	if c := mustFind(t, Certificate(p, &bad, certificate.Tolerances{}), "objective"); c.OK || c.MaxViolation != 1 {
		t.Errorf("wrong objective: %+v", c)
	}
	noDuals := *sol
	noDuals.RowDual, noDuals.ReducedCost = nil, nil
	if c := mustFind(t, Certificate(p, &noDuals, certificate.Tolerances{}), "dual"); c.Status() != "skip" {
		t.Errorf("no duals: %+v", c)
	}
	if rep := Certificate(p, &solvers.Solution{}, certificate.Tolerances{}); rep.OK() || rep.Checks[0].Name != "primal" {
		t.Errorf("no point: %v", rep.Checks)
	}
	q := build(true)
	qs, _ := solvers.Get("qp")
	qsol, err := qs.Solve(context.Background(), q, solvers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep = Certificate(q, qsol, certificate.Tolerances{})
	for _, n := range []string{"kkt-stationarity", "kkt-dual-feasibility", "kkt-complementarity", "duality-gap"} {
		if c := mustFind(t, rep, n); !c.OK {
			t.Errorf("%s: %s", n, c.Detail)
		}
	}
	off := *qsol
	off.X = []float64{0.5, 0}
	off.Objective = q.Objective(off.X)
	if rep := Certificate(q, &off, certificate.Tolerances{}); rep.OK() {
		t.Error("a QP point off the optimum passes its KKT checks")
	}
}
