package all

import (
	"cmp"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/rds"
	"github.com/coraopt/coraopt/solvers"
)

// RDS takes its backends from a sweep file, so that a sweep can set the built-in
// solvers against HiGHS on the same cells: backend solves the eq. 3 QP,
// shortfall_backend the least-shortfall LP (registry names, `coraopt solvers`; absent:
// rds.DefaultBackend, and the binary's default LP backend).
func init() {
	parameterized["rds"] = rdsPolicy("rds", rds.Config{})
	parameterized["rds-ideal"] = rdsPolicy("rds-ideal", rds.Config{Forecast: rds.Ideal})
}

func rdsPolicy(name string, base rds.Config) func(Params) (policies.Policy, error) {
	return func(p Params) (policies.Policy, error) {
		if err := p.Only(name, "backend", "shortfall_backend"); err != nil {
			return nil, err
		}
		c := base
		for _, k := range []struct {
			key   string
			to    *string
			def   string
			class solvers.Class
		}{{"backend", &c.Backend, rds.DefaultBackend, solvers.QP}, {"shortfall_backend", &c.ShortfallBackend, "", solvers.LP}} {
			v, err := p.String(name, k.key, "")
			if err != nil {
				return nil, err
			}
			// Fail naming the key, rather than as rds.New's error about the policy.
			if _, err := solvers.Select(cmp.Or(v, k.def), k.class); err != nil {
				return nil, &ParamError{Policy: name, Key: k.key, Msg: err.Error()}
			}
			*k.to = v
		}
		return rds.New(c)
	}
}
