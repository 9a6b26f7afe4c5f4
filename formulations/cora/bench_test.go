package cora

import (
	"testing"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// paperInstance is workload.CORAPaper: cora.txt §III-C's instances.
func paperInstance(t testing.TB, seed uint64, n, T, c int) *sched.Instance {
	t.Helper()
	in, err := workload.CORAPaper(n, T, c, seed)
	if err != nil {
		t.Fatalf("paperInstance: %v", err)
	}
	return in
}

// BenchmarkBuildFinal builds and compiles FINAL for the paper's size, 100 jobs × 40
// slots × 1 resource (16,000 columns); BuildOnly stops before Compile. Target ≤ 50 ms.
func BenchmarkBuildFinal(b *testing.B) {
	in := paperInstance(b, 1, 100, 40, 40)
	b.Run("BuildOnly", func(b *testing.B) {
		for b.Loop() {
			if _, err := BuildFinal(in, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("BuildAndCompile", func(b *testing.B) {
		for b.Loop() {
			lp, err := BuildFinal(in, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := lp.Model.Compile(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
