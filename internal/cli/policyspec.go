package cli

import (
	"slices"
	"strings"
	"time"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/sweep"
)

// parsePolicySpecs reads --policies: comma-separated names and exec:NAME=CMD entries
// (a CMD cannot hold a comma: a sweep file, or a script, can), as sweep.PolicySpec, the
// form sweep files give them in. An external name may not be a registered policy's:
// the results would carry two policies of one name.
func parsePolicySpecs(list string, timeout time.Duration) ([]sweep.PolicySpec, error) {
	var specs []sweep.PolicySpec
	for _, item := range strings.Split(list, ",") {
		if !external.IsSpec(item) {
			if _, err := all.New(item); err != nil {
				return nil, usageErrf("--policies: %v (or exec:NAME=CMD for a program of your own)", err)
			}
			specs = append(specs, sweep.PolicySpec{Name: item})
			continue
		}
		c, err := external.ParseSpec(item)
		if err != nil {
			return nil, usageErrf("--policies: %v", err)
		}
		if slices.Contains(all.Names(), c.Name) {
			return nil, usageErrf("--policies: %s: %q is a registered policy's name; name your program otherwise", item, c.Name)
		}
		_, cmd, _ := strings.Cut(item, "=")
		specs = append(specs, sweep.PolicySpec{Name: c.Name, Exec: cmd, Timeout: timeout})
	}
	return specs, nil
}
