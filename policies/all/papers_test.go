//go:build papers

package all_test

import (
	"flag"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestPapersOnlinePoliciesComplete is TestOnlinePoliciesComplete on seeds 1–20,
// cora-final on seeds 1–5.
func TestPapersOnlinePoliciesComplete(t *testing.T) { onlinePoliciesComplete(t, 20, 5) }

// TestPapersRDSFamilyEveryEvent runs the per-event planners on the 100-job rds workload
// of seed 1 as the papers trigger them (runComplete's checks; ~30 s of planning at every
// one of ~73,000 task finishes) and pins docs/simulate.md's finding: on rds.txt's own metric
// (eq. 1's deadline-miss penalty) exact CORA re-planned on the RDS utilities, and the
// oracle, are below RDS.
func TestPapersRDSFamilyEveryEvent(t *testing.T) { rdsFamilyEveryEvent(t, 100) }

// TestPapersPlanFidelity is TestPlanFidelity on 1,000 random workloads: two halves of
// 500 on the two cores a CI machine has (rapid draws each half from its own seed).
func TestPapersPlanFidelity(t *testing.T) {
	withRapidChecks(t, 500)
	for _, half := range []string{"first-500", "second-500"} {
		t.Run(half, func(t *testing.T) {
			t.Parallel()
			rapid.Check(t, planFidelity)
		})
	}
}

// withRapidChecks raises rapid's -rapid.checks to at least n until t ends (an explicit
// larger -rapid.checks wins). The flag is global: a caller must not be parallel, and
// is not, so no other test of the package runs meanwhile.
func withRapidChecks(t *testing.T, n int) {
	f := flag.Lookup("rapid.checks")
	if f == nil {
		t.Fatal("rapid's -rapid.checks flag is not registered")
	}
	old := f.Value.String()
	if cur, err := strconv.Atoi(old); err == nil && cur >= n {
		return
	}
	if err := flag.Set("rapid.checks", strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
}
