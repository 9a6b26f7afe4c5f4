//go:build papers

package rtmr

import "testing"

// TestPapersWorkloadTable is TestWorkloadTable on seeds 1–20.
func TestPapersWorkloadTable(t *testing.T) { workloadTable(t, 20) }

// TestPapersExactGap is TestExactGap on 1,000 instances.
func TestPapersExactGap(t *testing.T) { exactGap(t, 1000) }

// TestPapersRTMRWorkloadsWithinAllSucceed is TestRTMRWorkloadsWithinAllSucceed on seeds
// 1–100.
func TestPapersRTMRWorkloadsWithinAllSucceed(t *testing.T) { rtmrWorkloadsWithinAllSucceed(t, 100) }
