//go:build papers

package woha_test

import "testing"

// TestPapersThreeWorkflowsThroughTheSimulator is TestThreeWorkflowsThroughTheSimulator on
// seeds 1–10.
func TestPapersThreeWorkflowsThroughTheSimulator(t *testing.T) {
	threeWorkflowsThroughTheSimulator(t, 10)
}

// TestPapersRandomWorkflowsThroughTheSimulator is TestRandomWorkflowsThroughTheSimulator on
// seeds 1–5.
func TestPapersRandomWorkflowsThroughTheSimulator(t *testing.T) {
	randomWorkflowsThroughTheSimulator(t, 5)
}
