//go:build highs

package verify

import (
	"context"
	"testing"
)

// TestStateHiGHS: with every backend compiled in, the built-in QP and HiGHS both solve
// each RDS state file of testdata, and rds/backends compares their optimal objectives.
func TestStateHiGHS(t *testing.T) {
	for _, name := range []string{"table1-t10.json", "table1-t10-eq3.json", "green.json", "mapreduce-ar.json"} {
		rep, err := State(context.Background(), loadState(t, name), Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c, ok := rep.Find("rds/backends")
		if !ok || c.Status() != "pass" {
			t.Errorf("%s: rds/backends %+v", name, c)
		}
		for _, n := range []string{"rds/qp/kkt-primal", "rds/highs/kkt-primal"} {
			if _, ok := rep.Find(n); !ok {
				t.Errorf("%s: no %s", name, n)
			}
		}
		if !rep.OK() {
			t.Logf("%s: %s", name, rep.Summary())
			for _, f := range rep.Failures() {
				t.Logf("  %s: %s", f.Name, f.Detail)
			}
		}
	}
}
