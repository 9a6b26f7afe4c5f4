//go:build highs

package verify

import (
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

func init() {
	solvers.Register(liarInfeasible, func() (solvers.Solver, error) {
		return &liar{name: liarInfeasible, inner: "highs", caps: solvers.Capabilities{LP: true, MIP: true},
			mangle: func(_ *model.Problem, s *solvers.Solution) *solvers.Solution {
				return &solvers.Solution{Status: solvers.Infeasible, Backend: liarInfeasible}
			}}, nil
	})
}

// TestInstanceMIPChecks runs the MIP cross-checks with HiGHS on the small testdata
// instances: every check holds (stall.json: the max-flow certificate is skipped on its
// stalled layer and the MIP decides).
func TestInstanceMIPChecks(t *testing.T) {
	for _, name := range []string{"quickstart.json", "tas/stall.json", "tas/release.json", "tas/max-parallel.json",
		"tas/two-resources.json", "tas/zero-utility.json", "instances/runtime-robust.json"} {
		rep := verifyInstance(t, name, Options{Solvers: []string{"highs"}, MaxMIPSize: 400})
		if !rep.OK() {
			t.Errorf("%s: failures %v", name, rep.Failures())
			continue
		}
		wantStatus(t, rep, map[string]string{"tas/onion-vs-mip": "pass", "tas/lexmax-methods": "pass", "tas/backends": "pass",
			"tas/mip/rows": "pass", "tas/mip/integrality": "pass", "tas/mip/demand": "pass"})
	}
}

// TestInstanceMIPBackendsDisagree: a MIP backend that claims every model infeasible
// makes onion-vs-mip, lexmax-methods and backends fail, and as a second backend it
// makes backends fail alone.
func TestInstanceMIPBackendsDisagree(t *testing.T) {
	rep := verifyInstance(t, "tas/max-parallel.json", Options{Solvers: []string{liarInfeasible}})
	for _, n := range []string{"tas/onion-vs-mip", "tas/lexmax-methods", "tas/backends"} {
		if c := mustFind(t, rep, n); c.Status() != "fail" {
			t.Errorf("liar as the reference: %s %s %s", n, c.Status(), c.Detail)
		}
	}
	rep = verifyInstance(t, "tas/max-parallel.json", Options{Solvers: []string{"highs", liarInfeasible}})
	if got := failed(rep); len(got) != 1 || got[0] != "tas/backends" {
		t.Errorf("liar as a second backend: failures %v", got)
	}
	if c := mustFind(t, rep, "tas/backends"); !strings.Contains(c.Detail, liarInfeasible+": no point") {
		t.Errorf("detail %q", c.Detail)
	}
	// Claimed infeasible by onion peeling and max-flow, confirmed by HiGHS; the liar's
	// claim on a feasible instance cannot make it pass.
	rep = verifyInstance(t, "tas/infeasible.json", Options{Solvers: []string{"highs"}})
	if c := mustFind(t, rep, "tas/infeasible"); c.Status() != "pass" || !strings.Contains(c.Detail, "highs: infeasible") {
		t.Errorf("tas/infeasible: %s %s", c.Status(), c.Detail)
	}
}

func TestInstanceCORAHiGHS(t *testing.T) {
	rep := verifyInstance(t, "cora/spread.json", Options{Formulations: []string{CORA}, Solvers: []string{"highs", "simplex"}})
	if got := failed(rep); len(got) != 1 || got[0] != "cora/final-vs-exact" {
		t.Errorf("failures %v", got)
	}
	wantStatus(t, rep, map[string]string{"cora/backends": "pass", "cora/final/duality-gap": "pass", "cora/final-integrality": "pass"})
}
