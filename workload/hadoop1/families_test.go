package hadoop1

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/workload"
)

// The Hadoop-1 families register beside the workload package's, generate what
// WOHAFamily and RTMRFamilyBeyond do, and refuse an unbounded --workflows.
func TestFamilies(t *testing.T) {
	reg, err := workload.NewRegistry(slices.Concat(workload.Families(), Families())...)
	if err != nil {
		t.Fatal(err)
	}
	a := workload.DefaultArgs()
	a.Workflows, a.Seed, a.RuntimeModel, a.BeyondFactor = 2, 5, "beyond", 1.5
	for _, tc := range []struct {
		family string
		want   func() (*workload.Workload, error)
	}{
		{"woha", func() (*workload.Workload, error) { return WOHAFamily("woha", 2, 5) }},
		{"woha-fig2", func() (*workload.Workload, error) { return WOHAFamily("woha-fig2", 0, 1) }},
		{"woha-3wf", func() (*workload.Workload, error) { return WOHAFamily("woha-3wf", 0, 5) }},
		{"rtmr-2", func() (*workload.Workload, error) { return RTMRFamilyBeyond("rtmr-2", 5, "beyond", 1.5) }},
	} {
		f, ok := reg.Family(tc.family)
		if !ok {
			t.Fatalf("%s not registered", tc.family)
		}
		got, err := f.Generate(a)
		if err != nil {
			t.Fatalf("%s: %v", tc.family, err)
		}
		want, _ := tc.want()
		if !cmp.Equal(want, got) {
			t.Errorf("%s: the registry's workload is not the generator's", tc.family)
		}
	}
	woha, _ := reg.Family("woha")
	var oe *workload.OptionError
	for _, n := range []int{0, MaxWorkflows + 1} {
		a.Workflows = n
		if _, err := woha.Generate(a); !errors.As(err, &oe) || oe.Option != "workflows" {
			t.Errorf("--workflows %d: %v, want an OptionError on workflows", n, err)
		}
	}
}
