package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// PerfDoc is what WritePerformance renders: the targets evaluated on a Go benchmark run,
// and any number of `coraopt bench -o json` documents.
type PerfDoc struct {
	Date    string // of the measurements
	Machine string // e.g. "2 cores (AMD EPYC), linux/amd64"
	Load    string // the load during the runs, in words
	// Count is the -count of the Go benchmark run (the medians are over it).
	Count       int
	Evaluations []Evaluation
	// Runs are coraopt bench JSON documents, each with a title and the command that
	// produced it.
	Runs []PerfRun
	// Commands regenerate the document.
	Commands []string
}

// PerfRun is one `coraopt bench` run in the document.
type PerfRun struct {
	Title, Command string
	JSON           []byte
}

// WritePerformance renders d as Markdown: a section of docs/performance.md (its headings
// are level 3, under the document's own "The benchmark run").
func WritePerformance(w io.Writer, d PerfDoc) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured on %s on %s. %s\n\n", d.Date, d.Machine, d.Load)
	fmt.Fprintf(&b, "### The performance targets (docs/design.md)\n\n")
	fmt.Fprintf(&b, "Each target is measured by a Go benchmark (`make bench`), the median of %d runs (`-count %d`). "+
		"\"measured / target\" is the measured value over the target's: at most 1 meets a \"≤\" target, at least 1 a \"≥\" target. "+
		"Wall time per operation is the measure; where the benchmark also reports the process's CPU time per operation "+
		"(less inflated by other work on a shared machine) it is in the notes.\n\n", d.Count, d.Count)
	fmt.Fprintf(&b, "| what | paper's figure | target | measured | measured / target | meets | benchmark |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|\n")
	for _, e := range d.Evaluations {
		t := e.Target
		measured, ratio, meets := "—", "—", "—"
		switch {
		case t.NotImplemented != "":
			measured = t.NotImplemented
		case !e.Ok:
			measured = "not measured: " + e.Detail
		default:
			measured = t.FormatMeasure(e.Measured)
			ratio = fmt.Sprintf("%.3g", e.Ratio)
			meets = map[bool]string{true: "yes", false: "**no**"}[e.Meets]
		}
		bm := "—"
		if len(t.Benchmarks) > 0 {
			var parts []string
			for _, k := range t.Benchmarks {
				parts = append(parts, "`"+k+"`")
			}
			bm = strings.Join(parts, ", ")
			if t.Tags != "" {
				bm += " (tag " + t.Tags + ")"
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", t.What, t.Paper, t.Goal, measured, ratio, meets, bm)
	}
	fmt.Fprintf(&b, "\nNotes:\n\n")
	for _, e := range d.Evaluations {
		if e.Ok {
			fmt.Fprintf(&b, "- %s: %s.\n", e.Target.What, e.Detail)
		}
	}
	for _, r := range d.Runs {
		if err := writeRun(&b, r); err != nil {
			return err
		}
	}
	if len(d.Commands) > 0 {
		fmt.Fprintf(&b, "\n### Regenerating this file\n\n```sh\n%s\n```\n", strings.Join(d.Commands, "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRun(b *strings.Builder, r PerfRun) error {
	var doc documentJSON
	if err := json.Unmarshal(r.JSON, &doc); err != nil {
		return fmt.Errorf("bench: %s: %w", r.Title, err)
	}
	fmt.Fprintf(b, "\n### %s\n\n`%s`", r.Title, r.Command)
	if la := doc.Environment.LoadAverage; len(la) == 3 {
		fmt.Fprintf(b, " — started %s, load average %.2f / %.2f / %.2f (1/5/15 min)", doc.Started.Format("15:04 MST"), la[0], la[1], la[2])
	}
	fmt.Fprintf(b, "; %d run(s) per solver and instance after %d warm-up, time limit %gs.\n\n", doc.Settings.Repeat, doc.Settings.Warmup, doc.Settings.TimeLimitSeconds)
	var solverNames []string
	for _, s := range doc.Settings.Solvers {
		solverNames = append(solverNames, fmt.Sprintf("%s %s", s, doc.Environment.Solvers[s]))
	}
	if len(solverNames) > 0 {
		fmt.Fprintf(b, "Backends: %s.\n\n", strings.Join(solverNames, ", "))
	}
	agree := 0
	judged := 0
	for _, row := range doc.Rows {
		if row.Agree != nil {
			judged++
			if *row.Agree {
				agree++
			}
		}
	}
	fmt.Fprintf(b, "%d rows; %d of the %d that had an answer to compare agree; %d disagreement(s).", len(doc.Rows), agree, judged, doc.Disagreements)
	if doc.Interrupted {
		fmt.Fprintf(b, " Interrupted after %d of %d instances.", doc.Finished, doc.Cases)
	}
	fmt.Fprintf(b, "\n\n")
	if len(doc.Summary) > 0 {
		fmt.Fprintf(b, "| family | class | solver | solved / attempted | instances compared | shifted geo. mean | relative |\n|---|---|---|---|---|---|---|\n")
		for _, s := range doc.Summary {
			sgm, rel := "—", "—"
			if s.SGMSeconds != nil {
				sgm = FormatSeconds(*s.SGMSeconds)
			}
			if s.Relative != nil {
				rel = fmt.Sprintf("%.2f", *s.Relative)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %d / %d | %d | %s | %s |\n", s.Family, s.Class, s.Solver, s.Solved, s.Attempted, s.Instances, sgm, rel)
		}
		fmt.Fprintf(b, "\n")
	}
	writeRowMatrix(b, doc)
	if len(doc.Scaling) > 0 {
		fmt.Fprintf(b, "\nGrowth of the median time with the job count N (least squares on ln t = ln c + k ln N):\n\n")
		fmt.Fprintf(b, "| family | method | N | k | R² | k per layer | R² per layer |\n|---|---|---|---|---|---|---|\n")
		for _, s := range doc.Scaling {
			kl, rl := "—", "—"
			if s.PerLayer != nil {
				kl, rl = fmt.Sprintf("%.3f", s.PerLayer.K), fmt.Sprintf("%.4f", s.PerLayer.R2)
			}
			fmt.Fprintf(b, "| %s | %s | %d … %d | %.3f | %.4f | %s | %s |\n", s.Family, s.Solver,
				s.Points[0].N, s.Points[len(s.Points)-1].N, s.Time.K, s.Time.R2, kl, rl)
		}
	}
	return nil
}

// writeRowMatrix prints one line per instance with each solver's median time and ratio.
func writeRowMatrix(b *strings.Builder, doc documentJSON) {
	var solvers, instances []string
	cell := map[[2]string]rowJSON{}
	for _, r := range doc.Rows {
		if r.Solver == "-" {
			continue
		}
		if !slices.Contains(solvers, r.Solver) {
			solvers = append(solvers, r.Solver)
		}
		if !slices.Contains(instances, r.Instance) {
			instances = append(instances, r.Instance)
		}
		cell[[2]string{r.Instance, r.Solver}] = r
	}
	if len(instances) == 0 {
		return
	}
	fmt.Fprintf(b, "Median time per instance (ratio to the fastest agreeing solver; ✗ marks an answer that is not in agreement):\n\n")
	fmt.Fprintf(b, "| instance | size | %s |\n|---|---|%s\n", strings.Join(solvers, " | "), strings.Repeat("---|", len(solvers)))
	for _, inst := range instances {
		size := ""
		var cells []string
		for _, s := range solvers {
			r, ok := cell[[2]string{inst, s}]
			if !ok {
				cells = append(cells, "")
				continue
			}
			size = r.Size.String()
			c := FormatSeconds(r.Seconds.Median)
			if r.Status != "optimal" && r.Status != StatusDone {
				c = r.Status + " " + c
			}
			if r.Ratio != nil && !math.IsNaN(*r.Ratio) {
				c += fmt.Sprintf(" (%.2g)", *r.Ratio)
			}
			if r.Agree != nil && !*r.Agree {
				c += " ✗"
			}
			cells = append(cells, c)
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", inst, size, strings.Join(cells, " | "))
	}
}
