package hadoop1

import (
	"strconv"

	"github.com/coraopt/coraopt/workload"
)

// MaxWorkflows bounds the woha family's workflows: some 115 MB of workload file
// (gen --family woha --workflows 2000 wrote 11.6 MB in 1.6 s), within what simulate
// reads (workload.MaxInputBytes); a larger count would run for minutes and then be refused.
const MaxWorkflows = 20_000

// Families are the Hadoop-1 papers' generator families, for a workload.Registry: woha,
// woha-fig2, woha-3wf (WOHAFamily) and rtmr-1, rtmr-2 (RTMRFamilyBeyond).
func Families() []workload.Family {
	checkWOHA := func(a workload.FamilyArgs) error {
		if a.Workflows < 1 || a.Workflows > MaxWorkflows {
			return &workload.OptionError{Option: "workflows", Value: itoa(a.Workflows),
				Msg: "need at least 1 workflow and at most " + itoa(MaxWorkflows) + " (some 115 MB of workload file)"}
		}
		return nil
	}
	checkRTMR := func(a workload.FamilyArgs) error {
		if a.RuntimeModel != "within" && a.RuntimeModel != "beyond" {
			return &workload.OptionError{Option: "runtime-model", Value: strconv.Quote(a.RuntimeModel), Msg: "want within or beyond"}
		}
		if !(a.BeyondFactor >= 1) || a.BeyondFactor > 100 {
			return &workload.OptionError{Option: "beyond-factor", Value: ftoa(a.BeyondFactor), Msg: "want a number in [1, 100]"}
		}
		return nil
	}
	woha := func(family string, check func(workload.FamilyArgs) error) func(a workload.FamilyArgs) (*workload.Workload, error) {
		return func(a workload.FamilyArgs) (*workload.Workload, error) {
			if check != nil {
				if err := check(a); err != nil {
					return nil, err
				}
			}
			return WOHAFamily(family, a.Workflows, a.Seed)
		}
	}
	rtmrGen := func(family string) func(a workload.FamilyArgs) (*workload.Workload, error) {
		return func(a workload.FamilyArgs) (*workload.Workload, error) {
			if err := checkRTMR(a); err != nil {
				return nil, err
			}
			return RTMRFamilyBeyond(family, a.Seed, a.RuntimeModel, a.BeyondFactor)
		}
	}
	const rtmrDoc = `rtmr.txt §V workloads I and II (Tables II-IV): exponential
inter-arrivals of mean 14 s, 30 heterogeneous workers, per-job worst-case
estimates; --runtime-model within (true task times within them) or beyond
(up to --beyond-factor times them, default 1.3).`
	return []workload.Family{
		{Name: "woha", Options: []string{"workflows", "seed", "at-once"}, Check: checkWOHA, Generate: woha("woha", checkWOHA),
			Doc: `woha.txt §V-A: --workflows random layered DAGs with Yahoo!-like task statistics,
a submission every 5 min on average, deadline 1.5-3 × a workspan lower bound;
32 workers × (2 map + 1 reduce); true task times U[0.8, 1.2] × the estimates.`},
		{Name: "woha-fig2", Options: []string{"at-once"}, Generate: woha("woha-fig2", nil),
			Doc: `woha.txt Fig. 2 (reconstructed): three workflows, D = 9, 9, 50, 3 map +
3 reduce slots, unit task times.`},
		{Name: "woha-3wf", Options: []string{"seed", "at-once"}, Generate: woha("woha-3wf", nil),
			Doc: `woha.txt §VI-A: three copies of a 33-job workflow submitted at 0, 5, 10 min
with deadlines 80, 70, 60 min on 32 × (2 + 1) slots; --seed draws the topology.`},
		{Name: "rtmr-1", Options: []string{"seed", "runtime-model", "beyond-factor", "at-once"}, Check: checkRTMR, Generate: rtmrGen("rtmr-1"), Doc: rtmrDoc},
		{Name: "rtmr-2", Options: []string{"seed", "runtime-model", "beyond-factor", "at-once"}, Check: checkRTMR, Generate: rtmrGen("rtmr-2"), Doc: rtmrDoc},
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
