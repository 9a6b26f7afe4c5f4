package simplex

import (
	"github.com/coraopt/coraopt/model/mps"

	"fmt"
	"github.com/coraopt/coraopt/internal/testmodels"
	"os"
	"strings"
	"testing"
)

func TestDbgSeeds(t *testing.T) {
	for _, name := range strings.Split(os.Getenv("MODELS"), ",") {
		p, _ := mps.ReadFile(testmodels.Path(t, name+".mps"), mps.Options{})
		var out []string
		tot := 0
		for seed := uint64(1); seed <= 12; seed++ {
			set := settings{primalTol: 1e-7, dualTol: 1e-7, seed: seed, ctx: t.Context()}
			r := solveLP(p, set, nil, true, true)
			out = append(out, fmt.Sprint(r.iters))
			tot += r.iters
		}
		t.Logf("%s: %s  avg %d", name, strings.Join(out, " "), tot/12)
	}
}
