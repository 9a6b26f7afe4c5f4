package rs_test

import (
	"fmt"

	"github.com/coraopt/coraopt/formulations/rs"
)

// The worst-case demand of a job whose 60 pending tasks take 2 ± 0.6 slots each
// (RUSH's Gaussian estimator): at θ = 0.9 the reference alone asks for 126
// container-slots; allowing any distribution within KL divergence 0.7 of it asks for 139.
func ExampleWorstCaseDemand() {
	ref, err := rs.GaussianTasks(2, 0.6, 60, rs.Quantization{Theta: 0.9, MaxDelta: 0.7})
	if err != nil {
		panic(err)
	}
	e, err := rs.WorstCaseDemand(ref.PMF, 0.9, 0.7)
	if err != nil {
		panic(err)
	}
	fmt.Printf("reference N(%.0f, %.2f²) in %d bins of %g\n", ref.Mean, ref.Std, ref.Bins(), ref.Width())
	fmt.Printf("reference 0.9-quantile %d, worst case %d (KL %.3f, %d REM evaluations)\n",
		e.ReferenceQuantile, e.Eta, e.KL, e.Evaluations)
	// Output:
	// reference N(120, 4.65²) in 154 bins of 1
	// reference 0.9-quantile 126, worst case 139 (KL 0.658, 5 REM evaluations)
}

// Cross-checks of one reference, as verify runs them.
func ExampleCrossCheck() {
	ref, err := rs.NewPMF(1, []float64{0.1, 0.2, 0.4, 0.2, 0.1})
	if err != nil {
		panic(err)
	}
	checks, err := rs.CrossCheck(ref, 0.8, 0.3)
	if err != nil {
		panic(err)
	}
	for _, c := range checks {
		fmt.Println(c.Name, c.OK)
	}
	// Output:
	// wcde/bisection-vs-scan true
	// wcde/tail-threshold true
	// rem/closed-form-vs-dual true
	// rem/monotone-in-L true
	// wcde/delta-zero true
	// wcde/monotone-in-delta true
	// wcde/monotone-in-theta true
	// wcde/worst-case-distribution true
}
