package verify

import (
	"fmt"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

// Certificate recomputes the certificate of sol for p (package solvers/certificate) and
// reports one check per measure: bounds, rows, integrality (MIP), row-activity (when
// the Solution has it), objective; and for a continuous problem with duals
// reduced-costs, dual-feasibility, complementary-slackness and duality-gap — for a QP
// the first three are named kkt-stationarity, kkt-dual-feasibility and
// kkt-complementarity (RDS's receding-horizon QP plugs in here). A continuous problem
// without duals gets a skipped dual check. The backend's Status is shown, never trusted.
func Certificate(p *model.Problem, sol *solvers.Solution, tol certificate.Tolerances) Report {
	var rep Report
	status := "no solution"
	if sol != nil {
		status = sol.Status.String()
		if sol.Backend != "" {
			status = sol.Backend + " reported " + status
		}
	}
	primal := certificate.Primal(p, sol, tol)
	if primal.Structural != nil {
		rep.Add(Fail("primal", 0, fmt.Sprintf("%v (%s)", primal.Structural, status)))
		return rep
	}
	for _, m := range primal.Measures {
		rep.Add(measureCheck(m, status, primalMeaning[m.Name]))
	}
	if p.HasInteger() {
		return rep
	}
	if sol.RowDual == nil && sol.ReducedCost == nil {
		rep.Add(Skip("dual", fmt.Sprintf("%s returned no duals: optimality of this continuous solution is not certified here", backendOf(sol))))
		return rep
	}
	dual := certificate.Dual(p, sol, tol)
	if dual.Structural != nil {
		rep.Add(Fail("dual", 0, fmt.Sprintf("%v (%s)", dual.Structural, status)))
		return rep
	}
	qp := p.HasQuadratic()
	for _, m := range dual.Measures {
		c := measureCheck(m, status, dualMeaning[m.Name])
		if qp {
			c.Name = kktName[m.Name]
		}
		rep.Add(c)
	}
	return rep
}

var (
	primalMeaning = map[string]string{
		certificate.Bounds:      "every column within its bounds",
		certificate.Rows:        "every row within its bounds, Ax recomputed",
		certificate.Integrality: "every integer column integral",
		certificate.RowActivity: "the reported row activities equal Ax",
		certificate.Objective:   "the reported objective equals cᵀx + ½xᵀQx + offset recomputed",
	}
	dualMeaning = map[string]string{
		certificate.ReducedCosts:    "reduced costs equal c + Qx − Aᵀy recomputed",
		certificate.DualFeasibility: "no multiplier has the sign of an infinite bound",
		certificate.Complementarity: "every multiplier sits on an active bound (|multiplier| × distance)",
		certificate.DualityGap:      "primal and dual objectives agree",
	}
	kktName = map[string]string{
		certificate.ReducedCosts:    "kkt-stationarity",
		certificate.DualFeasibility: "kkt-dual-feasibility",
		certificate.Complementarity: "kkt-complementarity",
		certificate.DualityGap:      "duality-gap",
	}
)

func measureCheck(m certificate.Measure, status, meaning string) Check {
	if m.OK() {
		return Pass(m.Name, m.Max, fmt.Sprintf("%s (%d checked; %s)", meaning, m.Checked, status))
	}
	return Fail(m.Name, nanInf(m.Max), fmt.Sprintf("%d of %d violate it; largest: %s (%s)", m.Violations, m.Checked, m.Worst, status))
}

func backendOf(sol *solvers.Solution) string {
	if sol != nil && sol.Backend != "" {
		return sol.Backend
	}
	return "the backend"
}
