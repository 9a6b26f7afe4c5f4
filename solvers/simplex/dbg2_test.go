package simplex

import (
	"github.com/coraopt/coraopt/model/mps"

	"context"
	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/solvers"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
func TestDbgTime(t *testing.T) {
	for _, name := range strings.Split(os.Getenv("MODELS"), ",") {
		path := "/tmp/" + name + ".mps"
		if !strings.HasPrefix(name, "sched") {
			path = testmodels.Path(t, name+".mps")
		}
		p, err := mps.ReadFile(path, mps.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := &Solver{}
		reps := 9
		if strings.HasPrefix(name, "sched5") || name == "greenbea" {
			reps = 1
		}
		var best time.Duration = 1 << 62
		var it int
		for r := 0; r < reps; r++ {
			c0 := cpuNow()
			sol, _ := s.Solve(context.Background(), p, solvers.Options{})
			c := cpuNow() - c0
			if c < best {
				best = c
			}
			it = sol.Iterations
		}
		t.Logf("%-10s cpu %10v iters %6d  per-iter %v", name, best, it, best/time.Duration(max(it, 1)))
	}
}
