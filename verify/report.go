package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// Check is one named claim and whether it held.
//
// A check is in one of four states:
//
//   - passed: OK, the claim holds (MaxViolation within the check's tolerance);
//   - failed: !OK and !Skipped — the report is not OK;
//   - skipped: Skipped, the check did not run (Reason says why: no backend, over a size
//     limit, a time limit). OK is false: a skipped check never counts as a pass, and it
//     is listed as skipped in the table and in JSON; it does not fail the report;
//   - informational: OK and Info, a measurement that is not a claim on this instance,
//     for example Theorem 3's excess where the theorem's conditions do not hold.
type Check struct {
	Name string
	OK   bool
	// MaxViolation is the largest violation found, in the check's own unit (units of a
	// resource, slots, utility, objective value…); 0 when the claim held exactly.
	MaxViolation float64
	Detail       string
	Skipped      bool
	Reason       string // why it was skipped
	Info         bool
}

// Status is "pass", "fail", "skip" or "info".
func (c Check) Status() string {
	switch {
	case c.Skipped:
		return "skip"
	case !c.OK:
		return "fail"
	case c.Info:
		return "info"
	}
	return "pass"
}

// Failed reports whether the check ran and did not hold.
func (c Check) Failed() bool { return !c.OK && !c.Skipped }

// Pass, Fail, Skip and Info build checks.
func Pass(name string, maxViolation float64, detail string) Check {
	return Check{Name: name, OK: true, MaxViolation: maxViolation, Detail: detail}
}

// Fail is a check that did not hold.
func Fail(name string, maxViolation float64, detail string) Check {
	return Check{Name: name, MaxViolation: maxViolation, Detail: detail}
}

// Skip is a check that did not run, with the reason.
func Skip(name, reason string) Check {
	return Check{Name: name, Skipped: true, Reason: reason}
}

// Info is a measurement reported for information; it does not fail the report.
func Info(name string, measured float64, detail string) Check {
	return Check{Name: name, OK: true, Info: true, MaxViolation: measured, Detail: detail}
}

// New is a check that passes when ok and fails otherwise.
func New(name string, ok bool, maxViolation float64, detail string) Check {
	return Check{Name: name, OK: ok, MaxViolation: maxViolation, Detail: detail}
}

// Report is the outcome of a verification: every check, in the order they ran.
type Report struct {
	Checks []Check
}

// Add appends checks.
func (r *Report) Add(cs ...Check) { r.Checks = append(r.Checks, cs...) }

// Merge appends the checks of other reports.
func (r *Report) Merge(others ...Report) {
	for _, o := range others {
		r.Checks = append(r.Checks, o.Checks...)
	}
}

// Merge returns one report with the checks of all, in order.
func Merge(reports ...Report) Report {
	var out Report
	out.Merge(reports...)
	return out
}

// Prefixed returns a copy of r whose check names start with prefix + "/".
func (r Report) Prefixed(prefix string) Report {
	out := Report{Checks: make([]Check, len(r.Checks))}
	for i, c := range r.Checks {
		c.Name = prefix + "/" + c.Name
		out.Checks[i] = c
	}
	return out
}

// OK reports whether no check failed. Skipped checks do not fail a report, but they are
// not passes either: Counts and the renderings list them.
func (r Report) OK() bool {
	for _, c := range r.Checks {
		if c.Failed() {
			return false
		}
	}
	return true
}

// Failures returns the checks that failed.
func (r Report) Failures() []Check {
	var out []Check
	for _, c := range r.Checks {
		if c.Failed() {
			out = append(out, c)
		}
	}
	return out
}

// Find returns the first check with the given name.
func (r Report) Find(name string) (Check, bool) {
	for _, c := range r.Checks {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// Counts tallies the checks by state.
type Counts struct {
	Checks, Passed, Failed, Skipped, Info int
}

// Counts returns how many checks passed, failed, were skipped or informational.
func (r Report) Counts() Counts {
	n := Counts{Checks: len(r.Checks)}
	for _, c := range r.Checks {
		switch c.Status() {
		case "pass":
			n.Passed++
		case "fail":
			n.Failed++
		case "skip":
			n.Skipped++
		case "info":
			n.Info++
		}
	}
	return n
}

// CheckJSON is the JSON form of a Check.
type CheckJSON struct {
	Name   string `json:"name"`
	Status string `json:"status"` // pass, fail, skip, info
	OK     bool   `json:"ok"`
	// MaxViolation is null when the value is not finite (JSON has no Inf or NaN).
	MaxViolation *float64 `json:"max_violation"`
	Detail       string   `json:"detail"`
	Skipped      bool     `json:"skipped,omitempty"`
	Reason       string   `json:"reason,omitempty"`
}

// ReportJSON is the JSON form of a Report: {"ok": …, "counts": …, "checks": [...]}.
type ReportJSON struct {
	OK     bool        `json:"ok"`
	Counts CountsJSON  `json:"counts"`
	Checks []CheckJSON `json:"checks"`
}

// CountsJSON is the JSON form of Counts.
type CountsJSON struct {
	Checks  int `json:"checks"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Info    int `json:"info"`
}

// JSON converts r to its JSON form.
func (r Report) JSON() ReportJSON {
	n := r.Counts()
	out := ReportJSON{OK: r.OK(), Counts: CountsJSON(n), Checks: make([]CheckJSON, len(r.Checks))}
	for i, c := range r.Checks {
		cj := CheckJSON{Name: c.Name, Status: c.Status(), OK: c.OK, Detail: c.Detail, Skipped: c.Skipped, Reason: c.Reason}
		if v := c.MaxViolation; !math.IsNaN(v) && !math.IsInf(v, 0) {
			cj.MaxViolation = &v
		}
		out.Checks[i] = cj
	}
	return out
}

// MarshalJSON writes r as ReportJSON.
func (r Report) MarshalJSON() ([]byte, error) { return json.Marshal(r.JSON()) }

// WriteJSON writes r as indented JSON and a newline.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r.JSON()); err != nil {
		return fmt.Errorf("verify: writing the report: %w", err)
	}
	return nil
}

// WriteTable writes r as an aligned table — CHECK, RESULT (ok, FAIL, skipped, info),
// MAX VIOLATION and DETAIL (the reason for a skipped check) — followed by a line of
// counts.
func (r Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CHECK\tRESULT\tMAX VIOLATION\tDETAIL")
	for _, c := range r.Checks {
		result := map[string]string{"pass": "ok", "fail": "FAIL", "skip": "skipped", "info": "info"}[c.Status()]
		viol, detail := FormatViolation(c.MaxViolation), c.Detail
		if c.Skipped {
			viol, detail = "-", c.Reason
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Name, result, viol, oneLine(detail))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("verify: writing the report: %w", err)
	}
	_, err := fmt.Fprintln(w, r.Summary())
	return err
}

// Summary is one line: the verdict and the counts.
func (r Report) Summary() string {
	n := r.Counts()
	verdict := "ok"
	if n.Failed > 0 {
		verdict = "FAILED"
	}
	return fmt.Sprintf("%s: %d checks, %d passed, %d failed, %d skipped, %d informational",
		verdict, n.Checks, n.Passed, n.Failed, n.Skipped, n.Info)
}

// FormatViolation formats a violation for the table: 0 as "0", others with 3 significant
// digits.
func FormatViolation(v float64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%.3g", v)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
