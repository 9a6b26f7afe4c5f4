package cli

import (
	"fmt"
	"io"
	"math"

	"gonum.org/v1/plot/vg"

	"github.com/coraopt/coraopt/plot"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
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

// ganttColours colours Gantt bars by workflow when the workload has workflows (a lone
// job gets its own colour after them) and by job otherwise; legend names the
// workflows' colours (nil when colouring by job).
func ganttColours(w *workload.Workload) (colour func(job int) int, legend []string, by string) {
	index := map[string]int{}
	for _, wf := range w.Workflows {
		index[wf.ID] = len(legend)
		legend = append(legend, wf.ID)
	}
	for _, j := range w.Jobs {
		if _, ok := index[j.Workflow]; !ok && j.Workflow != "" {
			index[j.Workflow] = len(legend)
			legend = append(legend, j.Workflow)
		}
	}
	if len(legend) == 0 {
		return func(job int) int { return job }, nil, "job"
	}
	of := make([]int, len(w.Jobs))
	for i, j := range w.Jobs {
		if k, ok := index[j.Workflow]; ok {
			of[i] = k
		} else {
			of[i] = len(legend) + i
		}
	}
	if len(legend) > 24 {
		legend = nil // more entries than a legend can show; the colours still group
	}
	return func(job int) int { return of[job] }, legend, "workflow"
}

// writeWorkflowPlots draws workspan.{svg,png}: each workflow's workspan under each
// policy beside its relative deadline (woha.txt Fig. 11), for the first seed.
func writeWorkflowPlots(w *workload.Workload, out *simulateJSON, base func(string) string) error {
	if len(out.Policies) == 0 || out.Policies[0].WorkflowMetrics == nil {
		return nil
	}
	var names, wfs []string
	var deadlines []float64
	for _, o := range out.Policies[0].Workflows {
		wfs = append(wfs, o.ID)
		d := math.NaN()
		if o.Deadline != nil {
			d = *o.Deadline - o.Arrival
		}
		deadlines = append(deadlines, d)
	}
	spans := make([][]float64, len(out.Policies))
	for k, m := range out.Policies {
		names = append(names, m.Name)
		for _, o := range m.Workflows {
			x := math.NaN()
			if o.Workspan != nil {
				x = *o.Workspan
			}
			spans[k] = append(spans[k], x)
		}
	}
	p, err := plot.WorkspanBars(names, wfs, spans, deadlines, fmt.Sprintf("%s: workflow workspans and deadlines (seed %d)", w.Name, out.Seed))
	if err != nil {
		return err
	}
	width := vg.Length(min(max(1.2*float64(len(wfs))+2, 6), 20)) * vg.Inch
	return plot.SaveAll(p, base("workspan"), width, 4.5*vg.Inch)
}
