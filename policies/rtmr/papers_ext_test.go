//go:build papers

package rtmr_test

import "testing"

// TestPapersPolicyWithinAllSucceed is TestPolicyWithinAllSucceed on seeds 1–100: the
// README's "exactly 100% on 100 seeds".
func TestPapersPolicyWithinAllSucceed(t *testing.T) { policyWithinAllSucceed(t, 100) }

// TestPapersPaperTables is TestPaperTables on seeds 1–20: the README's Tables V–VI.
func TestPapersPaperTables(t *testing.T) { paperTables(t, 20) }
