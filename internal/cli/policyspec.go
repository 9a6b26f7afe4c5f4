package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/workload"
)

// policySpec is one entry of --policies: a registered policy, or an external program
// (exec:NAME=CMD, docs/protocol.md) run once per simulation.
type policySpec struct {
	name string
	cmd  *external.Command
}

// parsePolicySpecs reads --policies: comma-separated names and exec:NAME=CMD entries
// (a CMD cannot hold a comma: a sweep file, or a script, can). An external name may
// not be a registered policy's: the results would carry two policies of one name.
func parsePolicySpecs(list string, timeout time.Duration) ([]policySpec, error) {
	var specs []policySpec
	for _, item := range strings.Split(list, ",") {
		if !external.IsSpec(item) {
			if _, err := all.New(item); err != nil {
				return nil, usageErrf("--policies: %v (or exec:NAME=CMD for a program of your own)", err)
			}
			specs = append(specs, policySpec{name: item})
			continue
		}
		c, err := external.ParseSpec(item)
		if err != nil {
			return nil, usageErrf("--policies: %v", err)
		}
		if slices.Contains(all.Names(), c.Name) {
			return nil, usageErrf("--policies: %s: %q is a registered policy's name; name your program otherwise", item, c.Name)
		}
		c.Timeout = timeout
		specs = append(specs, policySpec{name: c.Name, cmd: &c})
	}
	return specs, nil
}

// run calls fn with a fresh policy of p for one run on w: a registered one, or the
// program of an external one, started for the run and reaped after it; the program's
// standard error goes to stderr, prefixed with its name.
func (p policySpec) run(ctx context.Context, stderr *external.SyncWriter, w *workload.Workload, fn func(policies.Policy) error) error {
	if p.cmd == nil {
		pol, err := all.New(p.name)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		return fn(pol)
	}
	return external.With(ctx, *p.cmd, w, external.Options{Stderr: stderr}, fn)
}
