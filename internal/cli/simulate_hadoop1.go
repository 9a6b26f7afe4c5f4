package cli

import (
	"fmt"
	"io"

	"github.com/coraopt/coraopt/sim"
)

// writeWorkflowAdmissionTables prints the workflow outcomes (woha.txt §VI) and the
// admission measures (rtmr.txt §V) of the policies that have them.
func writeWorkflowAdmissionTables(w io.Writer, ms []*sim.Metrics) {
	var wf, adm []*sim.Metrics
	for _, m := range ms {
		if m.WorkflowMetrics != nil {
			wf = append(wf, m)
		}
		if m.AdmissionMetrics != nil {
			adm = append(adm, m)
		}
	}
	if len(wf) > 0 {
		fmt.Fprintln(w, "\nworkflows")
		tw := newTable(w)
		row(tw, "policy", "met", "violation ratio", "max tardiness s", "total tardiness s", "workspans s")
		for _, m := range wf {
			met, spans := 0, ""
			for k, o := range m.Workflows {
				if o.Met != nil && *o.Met {
					met++
				}
				if k < 8 {
					if o.Workspan != nil {
						spans += fmt.Sprintf("%s %.0f ", o.ID, *o.Workspan)
					} else {
						spans += o.ID + " - "
					}
				} else if k == 8 {
					spans += "…"
				}
			}
			row(tw, m.Name, fmt.Sprintf("%d/%d", met, len(m.Workflows)), fmt.Sprintf("%.3f", m.DeadlineViolationRatio),
				fmt.Sprintf("%.0f", m.MaxTardiness), fmt.Sprintf("%.0f", m.TotalTardiness), spans)
		}
		tw.Flush()
	}
	if len(adm) > 0 {
		fmt.Fprintln(w, "\nadmission (rtmr.txt §V)")
		tw := newTable(w)
		row(tw, "policy", "accepted", "rejected", "accept ratio", "success ratio", "successful utilization")
		for _, m := range adm {
			row(tw, m.Name, m.Accepted, m.Rejected, fmt.Sprintf("%.3f", m.AcceptRatio), fmt.Sprintf("%.3f", m.SuccessRatio),
				fmt.Sprintf("%.3f", m.SuccessfulUtilization))
		}
		tw.Flush()
	}
}
