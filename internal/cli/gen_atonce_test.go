package cli

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/workload"
)

// gen --at-once: every job arrives at 0 with the utility of each completion time it
// had (workload.NoArrivals), for every family with arrivals.
func TestGenAtOnce(t *testing.T) {
	for _, fam := range []string{"cora", "rush", "rds"} {
		args := []string{"gen", "--family", fam, "--jobs", "6", "--seed", "3"}
		code, plain, errOut := runCLI(context.Background(), "", args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", fam, code, errOut)
		}
		code, once, errOut := runCLI(context.Background(), "", append(args, "--at-once")...)
		if code != 0 {
			t.Fatalf("%s --at-once: exit %d: %s", fam, code, errOut)
		}
		a, err := workload.Parse([]byte(plain))
		if err != nil {
			t.Fatal(err)
		}
		b, err := workload.Parse([]byte(once))
		if err != nil {
			t.Fatal(err)
		}
		moved := false
		for i := range a.Jobs {
			ja, jb := a.Jobs[i], b.Jobs[i]
			moved = moved || ja.Arrival > 0
			c := ja.Arrival + 300
			ua := workload.UtilityOfResponse(ja.Utility, (c-ja.Arrival)/a.TimeUnit)
			ub := workload.UtilityOfResponse(jb.Utility, c/b.TimeUnit)
			if jb.Arrival != 0 || ua != ub && (ua-ub)*(ua-ub) > 1e-18 {
				t.Fatalf("%s job %s: arrival %g, utility at %g s: %g, want %g", fam, jb.ID, jb.Arrival, c, ub, ua)
			}
		}
		if !moved {
			t.Fatalf("%s: no job arrived after 0 to begin with; the test checks nothing", fam)
		}
	}
}
