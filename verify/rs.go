package verify

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/sched"
)

// suiteRS verifies RS (rush.txt §III) the way rs.Solve computes it: the worst-case
// demand η_i of every job with a runtime (rs.Demands), cross-checked by
// rs.CrossCheckDemands (checks rs/<job>/wcde/…, rs/<job>/rem/…, rs/<job>/eta), then the
// robust instance (rs.RobustInstance) verified as TAS with the prefix rs: onion peeling,
// its certificate, the MIP, and Alg. 4's mapping with the jobs' task_slots.
//
// RS applies to single-resource instances with at least one runtime and with RS
// parameters (the instance's robust block, or Options.RS). Where it does not apply the
// suite is silent unless RS was asked for, and then says why in a skipped check.
func suiteRS(ctx context.Context, v *verifier, in *sched.Instance, explicit bool) Report {
	var rep Report
	skip := func(reason string) Report {
		if explicit {
			rep.Add(Skip(RS, reason))
		}
		return rep
	}
	if len(in.Resources) != 1 {
		return skip(fmt.Sprintf("RS schedules one resource, the container (rush.txt §II); the instance has %d", len(in.Resources)))
	}
	runtimes := 0
	for _, j := range in.Jobs {
		if j.Runtime != nil {
			runtimes++
		}
	}
	if runtimes == 0 {
		return skip("no job has a runtime distribution, so there is no worst-case demand to estimate")
	}
	p, ok := rs.ParamsOf(in)
	if v.opt.RS != nil {
		p, ok = *v.opt.RS, true
	}
	if !ok {
		return skip("the instance has no robust block (theta, delta)")
	}
	ds, err := rs.Demands(in, p)
	if err != nil {
		rep.Add(Fail(RS+"/demands", 0, err.Error()))
		return rep
	}
	checks, err := rs.CrossCheckDemands(ds, p)
	if err != nil {
		rep.Add(Fail(RS+"/demands", 0, err.Error()))
		return rep
	}
	for _, c := range checks {
		rep.Add(New(c.Name, c.OK, c.MaxViolation, c.Detail))
	}
	robust, err := rs.RobustInstance(in, ds)
	if err != nil {
		rep.Add(Fail(RS+"/robust-instance", 0, err.Error()))
		return rep
	}
	rep.Merge(v.tasChecks(ctx, robust, RS))
	return rep
}
