//go:build papers

package rds

import "testing"

// TestPapersRDSWorkload is TestRDSWorkload on seeds 1–3.
func TestPapersRDSWorkload(t *testing.T) { rdsWorkload(t, 3) }
