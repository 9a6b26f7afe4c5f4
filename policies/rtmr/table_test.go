package rtmr

import (
	"fmt"
	"testing"
)

// policyNames are the four schedulers of Tables V–VI.
var policyNames = []string{"rtmr", "rtmr-nofeedback", "rtmr-tight", "dc", "fifo"}

func newPolicy(t fataler, name string, c Cluster) Scheduler {
	var s Scheduler
	var err error
	switch name {
	case "rtmr":
		s, err = NewRTMR(c, SchedulerConfig{Feedback: true})
	case "rtmr-tight":
		s, err = NewRTMR(c, SchedulerConfig{Feedback: true, FeedbackKeepTighter: true})
	case "rtmr-nofeedback":
		s, err = NewRTMR(c, SchedulerConfig{})
	case "dc":
		s, err = NewDC(c, Estimates{})
	case "fifo":
		s = NewFIFO()
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWorkloadTable runs the policies over seeds of both workloads, under Within and
// under Beyond with the default factor 1.3 and with 2.0, and prints mean accept / success / utilization beside Tables V and VI (run with
// -v). DC runs workload II without the jobs with more than 30 reduces, as §V does.
// Utilization is §V's: slot time of successful jobs (FIFO: all jobs) over all slots ×
// the span from the first arrival to the last finish.
func TestWorkloadTable(t *testing.T) {
	seeds := 20
	if testing.Short() {
		seeds = 3
	}
	for _, fam := range []string{"rtmr-1", "rtmr-2"} {
		for _, mode := range []struct {
			rm     RuntimeModel
			factor float64
		}{{Within, 1}, {Beyond, 1.3}, {Beyond, 2}} {
			rm := mode.rm
			for _, p := range policyNames {
				var acc, suc, util float64
				misses := 0
				for seed := 1; seed <= seeds; seed++ {
					w := generated(t, fam, uint64(seed), rm, mode.factor)
					if p == "dc" {
						w = w.WithReducesAtMost(w.Cluster.ReduceSlots())
					}
					o := drive(t, w, newPolicy(t, p, w.Cluster))
					acc += o.AcceptRatio()
					suc += o.SuccessRatio()
					util += o.Utilization(p == "fifo")
					misses += o.accepted - o.succeeded
					if p == "fifo" && o.accepted != len(w.Jobs) {
						t.Errorf("fifo rejected a job")
					}
					if rm == Within && p != "dc" && p != "fifo" && o.succeeded != o.accepted {
						t.Errorf("%s %s seed %d: %d accepted jobs missed", fam, p, seed, o.accepted-o.succeeded)
					}
				}
				n := float64(seeds)
				t.Log(fmt.Sprintf("%s %-6s ×%.1f %-16s accept %5.1f%%  success %5.1f%%  util %5.1f%%  misses %d",
					fam, rm, mode.factor, p, 100*acc/n, 100*suc/n, 100*util/n, misses))
			}
		}
	}
}
