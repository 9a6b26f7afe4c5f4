package rs

import (
	"context"
	"fmt"
	"testing"
)

// TestSectionVAClaims pins the numbers the README's Findings quote for rush.txt §V-A:
// "When the DE unit only has 25 samples, the produced η_i fails to cover v_i with a
// probability of θ no matter how conservative δ_i is. … However, when we have more than
// 35 samples, a δ_i larger than 0.7 achieves the goal." The paper does not state θ. With
// the experiment of DefaultCoverageConfig (2,000 repetitions, seed 1 — what
// `coraopt rs-coverage` runs), at θ = 0.9 the second sentence holds and the first does
// not, for both sampling models; the first fails at θ = 0.95 and 0.99 as well. The
// closed-form model, which needs no sampling, agrees on where k = 25 reaches θ.
func TestSectionVAClaims(t *testing.T) {
	for _, tc := range []struct {
		theta       float64
		independent bool
		// The smallest δ of the grid at which k = 25 covers v in at least θ of the runs,
		// and the coverage measured and modelled there.
		delta           float64
		coverage, model float64
		// The lowest coverage at k = 35, δ ≥ 0.7 (the lowest over k ≥ 35 in the full table).
		enough float64
	}{
		{0.9, false, 0.3, 0.9460, 0.9456, 0.9970},
		{0.9, true, 0.5, 0.9340, 0.9330, 0.9720},
		{0.95, false, 0.3, 0.9830, 0, 1},
		{0.99, false, 0.1, 0.9960, 0, 1},
	} {
		t.Run(fmt.Sprintf("theta=%g/independent=%v", tc.theta, tc.independent), func(t *testing.T) {
			cfg := DefaultCoverageConfig()
			cfg.Theta, cfg.Independent = tc.theta, tc.independent
			cfg.Ks = []int{25, 35} // each cell depends only on its own k (common random numbers per repetition)
			res, err := Coverage(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			enough, few := res.Claims[0], res.Claims[1]
			if !enough.Checked || !enough.Holds || !few.Checked || few.Holds {
				t.Fatalf("claims: ≥35 samples & δ ≥ 0.7 holds=%v (want true); 25 samples never covers holds=%v (want false)\n%s\n%s",
					enough.Holds, few.Holds, enough.Detail, few.Detail)
			}
			row := res.Cells[0] // k = 25
			first := -1
			for j, c := range row {
				if c.Coverage >= tc.theta {
					first = j
					break
				}
			}
			if first < 0 || row[first].Delta != tc.delta || fmt.Sprintf("%.4f", row[first].Coverage) != fmt.Sprintf("%.4f", tc.coverage) {
				t.Fatalf("k = 25 first reaches θ at cell %d: %+v; want δ = %g with coverage %.4f", first, row, tc.delta, tc.coverage)
			}
			if tc.model != 0 && fmt.Sprintf("%.4f", row[first].Model) != fmt.Sprintf("%.4f", tc.model) {
				t.Errorf("closed form at k = 25, δ = %g: %.4f, want %.4f", tc.delta, row[first].Model, tc.model)
			}
			low := 1.0
			for _, r := range res.Cells[1:] {
				for _, c := range r {
					if c.Delta >= 0.7 {
						low = min(low, c.Coverage)
					}
				}
			}
			if fmt.Sprintf("%.4f", low) != fmt.Sprintf("%.4f", tc.enough) {
				t.Errorf("lowest coverage at k = 35, δ ≥ 0.7: %.4f, want %.4f", low, tc.enough)
			}
		})
	}
}
