package rtmr

// NewDCPolicyWithRules is the policy "dc" with the counterfactual rules of dcRules
// switched on, for the external tests that decide what makes DC's admitted jobs miss
// (TestDCSection3Workload, TestDCMissCauses). Both false is NewDCBaseline.
func NewDCPolicyWithRules(intervalCheck, reserveReduces bool) *Policy {
	name := "dc"
	if intervalCheck {
		name += "-interval"
	}
	if reserveReduces {
		name += "-reserve"
	}
	rules := dcRules{intervalCheck: intervalCheck, reserveReduces: reserveReduces}
	return &Policy{name: name, build: func(c Cluster) (Scheduler, error) { return newDC(c, Estimates{}, rules) }}
}
