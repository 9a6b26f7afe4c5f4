//go:build papers && highs

package woha_test

import "testing"

// TestPapersExactGapMIP is TestExactGapMIP on 100 instances.
func TestPapersExactGapMIP(t *testing.T) { exactGapMIP(t, 100) }
