package simplex

import (
	"github.com/coraopt/coraopt/model/mps"

	"github.com/coraopt/coraopt/internal/testmodels"
	"math"
	"testing"
)

func TestDbgFree(t *testing.T) {
	for _, name := range []string{"greenbea", "25fv47", "80bau3b", "israel", "adlittle", "scrs8", "stair", "etamacro", "e226", "shell", "standmps"} {
		p, _ := mps.ReadFile(testmodels.Path(t, name+".mps"), mps.Options{})
		free, lo, up, box, fixed := 0, 0, 0, 0, 0
		for j := range p.ColCost {
			l, u := p.ColLower[j], p.ColUpper[j]
			switch {
			case l == u:
				fixed++
			case math.IsInf(l, -1) && math.IsInf(u, 1):
				free++
			case math.IsInf(u, 1):
				lo++
			case math.IsInf(l, -1):
				up++
			default:
				box++
			}
		}
		negc := 0
		for j, c := range p.ColCost {
			if c < 0 && math.IsInf(p.ColUpper[j], 1) {
				negc++
			}
		}
		t.Logf("%s: free %d lower %d upper %d boxed %d fixed %d; lower-only with c<0: %d", name, free, lo, up, box, fixed, negc)
	}
}
