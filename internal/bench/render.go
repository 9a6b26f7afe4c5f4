package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Meta describes a run for its output: what ran, where and with which settings.
type Meta struct {
	Suite       string      `json:"suite"`
	Started     time.Time   `json:"started"`
	Environment Environment `json:"environment"`
	Settings    Settings    `json:"settings"`
}

// Environment is the machine and the solver versions of a run.
type Environment struct {
	Go   string `json:"go"`
	OS   string `json:"os"`
	Arch string `json:"arch"`
	CPUs int    `json:"cpus"`
	// LoadAverage is the 1, 5 and 15 minute load average when the run started (Linux).
	LoadAverage []float64         `json:"load_average,omitempty"`
	Solvers     map[string]string `json:"solvers"` // name → version
}

// Settings are the options of a run.
type Settings struct {
	Solvers          []string `json:"solvers"`
	Repeat           int      `json:"repeat"`
	Warmup           int      `json:"warmup"`
	TimeLimitSeconds float64  `json:"time_limit_seconds"`
	ShiftSeconds     float64  `json:"shift_seconds"`
	AgreementTol     float64  `json:"agreement_tolerance"`
	Seed             *uint64  `json:"seed,omitempty"`
	Sizes            []string `json:"sizes,omitempty"`
	Cases            string   `json:"cases,omitempty"`
}

type rowJSON struct {
	Instance  string             `json:"instance"`
	Family    string             `json:"family"`
	Class     Class              `json:"class"`
	Size      Size               `json:"size"`
	Solver    string             `json:"solver"`
	Status    string             `json:"status"`
	Objective *float64           `json:"objective"`
	Runs      int                `json:"runs"`
	Seconds   secondsJSON        `json:"seconds"`
	CPU       float64            `json:"cpu_seconds_median"`
	Ratio     *float64           `json:"ratio"`
	Fastest   bool               `json:"fastest"`
	Agree     *bool              `json:"agree"`
	Solved    bool               `json:"solved"`
	Metrics   map[string]float64 `json:"metrics,omitempty"`
	Note      string             `json:"note,omitempty"`
}

type secondsJSON struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

type summaryJSON struct {
	Family     string   `json:"family"`
	Class      Class    `json:"class"`
	Solver     string   `json:"solver"`
	Solved     int      `json:"solved"`
	Attempted  int      `json:"attempted"`
	Instances  int      `json:"instances"`
	SGMSeconds *float64 `json:"sgm_seconds"`
	Relative   *float64 `json:"relative"`
}

type scalingJSON struct {
	Family   string      `json:"family"`
	Solver   string      `json:"solver"`
	Points   []pointJSON `json:"points"`
	Time     fitJSON     `json:"time"`
	PerLayer *fitJSON    `json:"per_layer,omitempty"`
}

type pointJSON struct {
	N       int     `json:"n"`
	Seconds float64 `json:"median_seconds"`
	Layers  float64 `json:"layers,omitempty"`
}

type fitJSON struct {
	K  float64 `json:"k"`
	R2 float64 `json:"r2"`
}

type documentJSON struct {
	Meta
	Rows          []rowJSON     `json:"rows"`
	Summary       []summaryJSON `json:"summary"`
	Scaling       []scalingJSON `json:"scaling,omitempty"`
	Cases         int           `json:"cases"`
	Finished      int           `json:"finished"`
	Interrupted   bool          `json:"interrupted"`
	Disagreements int           `json:"disagreements"`
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func toRowJSON(r Row) rowJSON {
	return rowJSON{
		Instance: r.Instance, Family: r.Family, Class: r.Class, Size: r.Size, Solver: r.Solver,
		Status: r.Status, Objective: finite(r.Objective), Runs: len(r.Times),
		Seconds: secondsJSON{Min: r.Wall.Min.Seconds(), Median: r.Wall.Median.Seconds(), Max: r.Wall.Max.Seconds()},
		CPU:     r.CPU.Median.Seconds(), Ratio: finite(r.Ratio), Fastest: r.Fastest, Agree: r.Agree,
		Solved: r.Solved, Metrics: r.Metrics, Note: r.Note,
	}
}

// WriteJSON writes the run as one indented JSON document.
func WriteJSON(w io.Writer, meta Meta, rep *Report, scaling []Scaling) error {
	doc := documentJSON{Meta: meta, Rows: []rowJSON{}, Summary: []summaryJSON{}, Cases: rep.Cases,
		Finished: rep.Finished, Interrupted: rep.Interrupted, Disagreements: rep.Disagreements}
	for _, r := range rep.Rows {
		doc.Rows = append(doc.Rows, toRowJSON(r))
	}
	for _, s := range rep.Summary {
		sj := summaryJSON{Family: s.Family, Class: s.Class, Solver: s.Solver, Solved: s.Solved, Attempted: s.Attempted,
			Instances: s.Instances, Relative: finite(s.Relative)}
		if s.Instances > 0 {
			sj.SGMSeconds = finite(s.SGM.Seconds())
		}
		doc.Summary = append(doc.Summary, sj)
	}
	for _, s := range scaling {
		sj := scalingJSON{Family: s.Family, Solver: s.Solver, Time: fitJSON{K: s.Time.K, R2: s.Time.R2}}
		for _, p := range s.Points {
			sj.Points = append(sj.Points, pointJSON{N: p.N, Seconds: p.Median.Seconds(), Layers: p.Layers})
		}
		if s.PerLayer != nil {
			sj.PerLayer = &fitJSON{K: s.PerLayer.K, R2: s.PerLayer.R2}
		}
		doc.Scaling = append(doc.Scaling, sj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("bench: writing JSON: %w", err)
	}
	return nil
}

// CSVHeader is the header row of WriteCSV.
var CSVHeader = []string{"instance", "family", "class", "rows", "cols", "nnz", "jobs", "slots", "bins",
	"solver", "status", "objective", "runs", "min_seconds", "median_seconds", "max_seconds",
	"cpu_seconds_median", "ratio", "fastest", "agree", "note"}

// WriteCSV writes one record per row under CSVHeader. Empty cells mean "none" (no
// objective, no ratio, nothing to agree with). The summary is not part of the CSV: it is
// computed from these rows (see Summarize) and printed by the table and JSON outputs.
func WriteCSV(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return fmt.Errorf("bench: writing CSV: %w", err)
	}
	for _, r := range rep.Rows {
		agree := ""
		if r.Agree != nil {
			agree = strconv.FormatBool(*r.Agree)
		}
		rec := []string{r.Instance, r.Family, string(r.Class),
			itoa(r.Size.Rows), itoa(r.Size.Cols), itoa(r.Size.Nonzeros), itoa(r.Size.Jobs), itoa(r.Size.Slots), itoa(r.Size.Bins),
			r.Solver, r.Status, ftoa(r.Objective), strconv.Itoa(len(r.Times)),
			ftoa(r.Wall.Min.Seconds()), ftoa(r.Wall.Median.Seconds()), ftoa(r.Wall.Max.Seconds()),
			ftoa(r.CPU.Median.Seconds()), ftoa(r.Ratio), strconv.FormatBool(r.Fastest), agree, r.Note}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("bench: writing CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("bench: writing CSV: %w", err)
	}
	return nil
}

func itoa(v int) string {
	if v == 0 {
		return ""
	}
	return strconv.Itoa(v)
}

func ftoa(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// WriteTable writes the rows, the summary and the scaling fits as aligned text.
func WriteTable(w io.Writer, meta Meta, rep *Report, scaling []Scaling) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(cells ...string) { fmt.Fprintln(tw, strings.Join(cells, "\t")) }
	line("INSTANCE", "SIZE", "SOLVER", "STATUS", "OBJECTIVE", "MEDIAN(s)", "MIN(s)", "MAX(s)", "RATIO", "AGREE", "NOTE")
	for _, r := range rep.Rows {
		ratio := "-"
		if !math.IsNaN(r.Ratio) {
			ratio = fmt.Sprintf("%.2f", r.Ratio)
			if r.Fastest {
				ratio += "*"
			}
		}
		agree := "-"
		if r.Agree != nil {
			agree = map[bool]string{true: "yes", false: "NO"}[*r.Agree]
		}
		line(r.Instance, r.Size.String(), r.Solver, r.Status, fmtObjective(r.Objective),
			secs(r.Wall.Median), secs(r.Wall.Min), secs(r.Wall.Max), ratio, agree, r.Note)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("bench: writing the table: %w", err)
	}
	if len(rep.Summary) > 0 {
		limit := "its own time (no time limit)"
		if meta.Settings.TimeLimitSeconds > 0 {
			limit = fmt.Sprintf("the time limit %gs", meta.Settings.TimeLimitSeconds)
		}
		fmt.Fprintf(w, "\nSummary per family and class: shifted geometric mean of the median times (shift %gs) over\nthe instances every solver of the group attempted, relative to the best; an unsolved instance\nis charged %s.\n",
			meta.Settings.ShiftSeconds, limit)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		line = func(cells ...string) { fmt.Fprintln(tw, strings.Join(cells, "\t")) }
		line("FAMILY", "CLASS", "SOLVER", "SOLVED", "ATTEMPTED", "INSTANCES", "SGM(s)", "RELATIVE")
		for _, s := range rep.Summary {
			sgm, rel := "-", "-"
			if s.Instances > 0 {
				sgm = secs(s.SGM)
			}
			if !math.IsNaN(s.Relative) {
				rel = fmt.Sprintf("%.2f", s.Relative)
			}
			line(s.Family, string(s.Class), s.Solver, strconv.Itoa(s.Solved), strconv.Itoa(s.Attempted), strconv.Itoa(s.Instances), sgm, rel)
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("bench: writing the table: %w", err)
		}
	}
	if len(scaling) > 0 {
		fmt.Fprintf(w, "\nScaling: least squares on ln t = ln c + k·ln N over the median times (time ∝ N^k).\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		line = func(cells ...string) { fmt.Fprintln(tw, strings.Join(cells, "\t")) }
		line("FAMILY", "SOLVER", "N", "k", "R²", "k PER LAYER", "R² PER LAYER")
		for _, s := range scaling {
			kl, rl := "-", "-"
			if s.PerLayer != nil {
				kl, rl = fmt.Sprintf("%.3f", s.PerLayer.K), fmt.Sprintf("%.4f", s.PerLayer.R2)
			}
			nr := fmt.Sprintf("%d..%d (%d sizes)", s.Points[0].N, s.Points[len(s.Points)-1].N, len(s.Points))
			line(s.Family, s.Solver, nr, fmt.Sprintf("%.3f", s.Time.K), fmt.Sprintf("%.4f", s.Time.R2), kl, rl)
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("bench: writing the table: %w", err)
		}
	}
	if rep.Disagreements > 0 {
		fmt.Fprintf(w, "\n%d row(s) disagree with the reference or with another solver (AGREE = NO).\n", rep.Disagreements)
	}
	if rep.Interrupted {
		fmt.Fprintf(w, "\nInterrupted: %d of %d instances finished; the rows above are what finished.\n", rep.Finished, rep.Cases)
	}
	return nil
}

// secs formats a duration in seconds with four significant digits.
func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'g', 4, 64)
}
