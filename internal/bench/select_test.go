package bench

import (
	"errors"
	"regexp"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/solve"
)

// needsModels reports whether a selection reads the solver test models (the netlib and
// miplib suites), which make deps puts in the cache.
func needsModels(sel Selection) bool { return sel.Suite == "netlib" || sel.Suite == "miplib" }

// Select builds each suite with the names a report gives it, and refuses a selection
// that contradicts itself with the field at fault.
func TestSelect(t *testing.T) {
	reg := solve.Default()
	for _, tc := range []struct {
		name   string
		sel    Selection
		suite  string
		sizes  []string
		seeded bool
		first  string // the first case's name
	}{
		{"netlib", Selection{Suite: "netlib"}, "netlib", nil, false, ""},
		{"miplib", Selection{Suite: "miplib", Cases: regexp.MustCompile("^small_mip$")}, "miplib", nil, false, "small_mip"},
		{"formulations", Selection{Suite: "formulations", Sizes: []Dims{{5, 8}}, Seed: 3}, "formulations", []string{"5x8"}, true, "tas-mip/N=5,T=8"},
		{"fastpaths", Selection{Suite: "fastpaths", Sizes: []Dims{{Jobs: 50}}, Cases: regexp.MustCompile("^wcde/")}, "fastpaths", []string{"50"}, true, "wcde/N=50,bins=1000"},
		{"scaling", Selection{Suite: "fastpaths", Scaling: true}, "fastpaths-scaling", []string{"1000", "2000", "4000", "8000", "16000", "32000", "64000", "64", "128", "256", "512", "1024", "1000", "2000", "4000", "8000"}, true, ""},
		{"instances", Selection{Instances: "testdata/tiny", Registry: reg, Cases: regexp.MustCompile("two-var")}, "instances:testdata/tiny", nil, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if needsModels(tc.sel) {
				testmodels.RequireDir(t) // fails under make test, skips in a plain go test without make deps
			}
			if tc.sel.Registry == nil {
				tc.sel.Registry = reg
			}
			got, err := Select(tc.sel)
			if err != nil {
				t.Fatal(err)
			}
			if got.Suite != tc.suite || !slices.Equal(got.Sizes, tc.sizes) || got.Seeded != tc.seeded || len(got.Cases) == 0 {
				t.Fatalf("suite %q sizes %v seeded %v, %d cases; want %q %v %v", got.Suite, got.Sizes, got.Seeded, len(got.Cases), tc.suite, tc.sizes, tc.seeded)
			}
			if tc.first != "" && got.Cases[0].Name != tc.first {
				t.Errorf("first case %s, want %s", got.Cases[0].Name, tc.first)
			}
			if tc.sel.Cases != nil && slices.ContainsFunc(got.Cases, func(c Case) bool { return !tc.sel.Cases.MatchString(c.Name) }) {
				t.Errorf("a case the filter does not match was kept")
			}
		})
	}
	for _, tc := range []struct {
		name  string
		sel   Selection
		field string
	}{
		{"unknown suite", Selection{Suite: "bogus"}, "suite"},
		{"suite and instances", Selection{Suite: "netlib", Instances: "testdata/tiny"}, "instances"},
		{"scaling elsewhere", Selection{Suite: "formulations", Scaling: true}, "scaling"},
		{"sizes of a fixed suite", Selection{Suite: "netlib", Sizes: []Dims{{Jobs: 10}}}, "sizes"},
		{"sizes of instances", Selection{Instances: "testdata/tiny", Sizes: []Dims{{Jobs: 10}}}, "sizes"},
		{"missing directory", Selection{Instances: "testdata/none"}, "instances"},
		{"filter matching nothing", Selection{Suite: "netlib", Cases: regexp.MustCompile("^nothing$")}, "cases"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if needsModels(tc.sel) && tc.field == "cases" {
				testmodels.RequireDir(t) // the filter is applied to the suite's models
			}
			tc.sel.Registry = reg
			_, err := Select(tc.sel)
			var se *SelectionError
			if !errors.As(err, &se) || se.Field != tc.field {
				t.Errorf("%v, want a SelectionError on %s", err, tc.field)
			}
		})
	}
}
