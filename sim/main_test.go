package sim_test

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs the property tests on 1,000 random workloads unless -rapid.checks says
// otherwise: the acceptance asks for 1,000 runs of every policy against the
// bound, and they take about a second.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		if err := flag.Set("rapid.checks", "1000"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
