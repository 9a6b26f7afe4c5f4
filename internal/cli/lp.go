package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/internal/gzfile"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/lpformat"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
)

// maxShownWarnings caps the reader warnings printed to stderr.
const maxShownWarnings = 10

type lpOptions struct {
	g         *globalOptions
	solver    string
	timeLimit time.Duration
	format    string
}

// lpResult is the JSON output of `coraopt lp`.
type lpResult struct {
	Status         string   `json:"status"`
	Objective      *float64 `json:"objective"`
	Iterations     int      `json:"iterations"`
	SolveSeconds   float64  `json:"solve_seconds"`
	Solver         string   `json:"solver"`
	BackendVersion string   `json:"backend_version,omitempty"`
	Model          string   `json:"model,omitempty"`
	Kind           string   `json:"kind"`
	Rows           int      `json:"rows"`
	Cols           int      `json:"cols"`
	Nonzeros       int      `json:"nonzeros"`
}

func newLPCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &lpOptions{g: g}
	cmd := &cobra.Command{
		Use:   "lp FILE",
		Short: "Solve an LP, MIP or QP model from an MPS or CPLEX-LP file",
		Long: `Read a model from an MPS file (free or fixed) or a CPLEX-LP file and solve it with one of
the solver backends compiled into this binary ("coraopt solvers" lists them); without
--solver, the first compiled in of the model's class in the default order.

FILE is a path, or - for standard input; gzip-compressed input (a .gz file) is decompressed.
Formats (--format):
  auto       by extension: .lp is CPLEX-LP, anything else MPS; standard input is
             recognised by its first word (Minimize/Maximize: LP). The default.
  mps        MPS, free or fixed (free is tried first; fixed columns allow names
             with spaces)
  free-mps   free MPS only
  fixed-mps  fixed MPS only (fields in columns 2-3, 5-12, 15-22, 25-36, 40-47, 50-61)
  lp         CPLEX-LP
MPS sections: NAME, OBJSENSE, ROWS, COLUMNS (with integer markers), RHS, RANGES,
BOUNDS, QUADOBJ/QMATRIX, ENDATA. A malformed file is reported with its line number.

Output: status, objective (including the constant), iterations, solve time and solver.
With -o json the keys are status, objective (null without a primal point), iterations,
solve_seconds, solver, backend_version, model, kind, rows, cols, nonzeros.
Exit codes: 0 optimal; 1 infeasible, unbounded, stopped on a limit or interrupted;
2 bad input (unreadable or malformed file, unknown solver, a model the solver cannot
solve).`,
		Example: `  coraopt lp afiro.mps --solver gonum
  coraopt lp model.lp --solver highs --time-limit 30s -o json
  gunzip -c big.mps.gz | coraopt lp - --format mps
  coraopt lp legacy.mps --format fixed-mps`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLP(cmd, s, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.solver, "solver", "", "solver backend (default: the first compiled in of LP: "+strings.Join(solvers.Preference(solvers.LP), ", ")+
		"; MIP: "+strings.Join(solvers.Preference(solvers.MIP), ", ")+"; QP: "+strings.Join(solvers.Preference(solvers.QP), ", ")+" that solves the model; see coraopt solvers)")
	f.DurationVar(&o.timeLimit, "time-limit", 0, "stop the solver after this long (e.g. 30s, 5m); 0 means no limit")
	f.StringVar(&o.format, "format", "auto", "input format: auto, mps, free-mps, fixed-mps or lp")
	return cmd
}

func runLP(cmd *cobra.Command, s Streams, o *lpOptions, path string) error {
	output, err := o.g.format(s)
	if err != nil {
		return err
	}
	if o.timeLimit < 0 {
		return usageErrf("--time-limit %v: must not be negative", o.timeLimit)
	}
	switch o.format {
	case "auto", "mps", "free-mps", "fixed-mps", "lp":
	default:
		return usageErrf("--format %q: want auto, mps, free-mps, fixed-mps or lp", o.format)
	}
	p, err := readModel(s, path, o.format)
	if err != nil {
		return err
	}
	b, err := solvers.Select(o.solver, solvers.ClassesOf(p)...)
	var nb *solvers.NoBackendError
	switch {
	case errors.As(err, &nb) && nb.Name != "":
		return usageErrf("--%w", err) // `solver "x" cannot solve MIPs; …`
	case err != nil:
		return usageErrf("--solver: %w", err)
	}
	ctx := cmd.Context()
	sol, err := b.Solver.Solve(ctx, p, solvers.Options{TimeLimit: o.timeLimit})
	if err != nil {
		return failed(err) // backends name themselves in their errors
	}
	res := lpResult{
		Status:         sol.Status.String(),
		Iterations:     sol.Iterations,
		SolveSeconds:   sol.WallTime.Seconds(),
		Solver:         b.Name,
		BackendVersion: sol.Version,
		Model:          p.Name,
		Kind:           p.Kind(),
		Rows:           p.NumRows(),
		Cols:           p.NumCols(),
		Nonzeros:       p.NumNonzeros(),
	}
	if sol.HasPrimal() && !math.IsNaN(sol.Objective) && !math.IsInf(sol.Objective, 0) {
		v := sol.Objective
		res.Objective = &v
	}
	if output == "json" {
		if err := writeJSON(s.Out, res); err != nil {
			return fmt.Errorf("lp: %w", err)
		}
	} else if err := writeLPTable(s.Out, res, sol); err != nil {
		return err
	}
	switch {
	case ctx.Err() != nil:
		return failed(fmt.Errorf("interrupted: %w", ctx.Err()))
	case sol.Status != solvers.Optimal:
		return failed(fmt.Errorf("%s: the solver stopped with status %s", path, sol.Status))
	}
	return nil
}

func writeLPTable(w io.Writer, res lpResult, sol *solvers.Solution) error {
	tw := newTable(w)
	name := res.Model
	if name == "" {
		name = "(unnamed)"
	}
	row(tw, "model", fmt.Sprintf("%s: %s, %d rows, %d columns, %d nonzeros", name, res.Kind, res.Rows, res.Cols, res.Nonzeros))
	solver := res.Solver
	if res.BackendVersion != "" {
		solver += " (" + res.BackendVersion + ")"
	}
	row(tw, "solver", solver)
	row(tw, "status", res.Status)
	if res.Objective != nil {
		row(tw, "objective", fmt.Sprintf("%.12g", *res.Objective))
	} else {
		row(tw, "objective", "-")
	}
	row(tw, "iterations", res.Iterations)
	row(tw, "solve time", sol.WallTime.Round(time.Microsecond))
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("lp: %w", err)
	}
	return nil
}

// readModel reads the model at path ("-": standard input) in the given format, printing
// reader warnings to stderr. Read and parse errors are input errors (exit 2).
func readModel(s Streams, path, format string) (*model.Problem, error) {
	r, name, err := openInput(s, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	text, err := gzfile.Sniff(r)
	if err != nil {
		return nil, usageErrf("%s: %v", name, err)
	}
	data, err := io.ReadAll(text)
	if err != nil {
		return nil, usageErrf("%s: %v", name, err)
	}
	if format == "auto" {
		format = guessFormat(path, data)
	}
	var warnings []string
	var p *model.Problem
	if format == "lp" {
		p, err = lpformat.Read(bytes.NewReader(data), lpformat.Options{
			Warn: func(w lpformat.Warning) { warnings = append(warnings, w.String()) },
		})
	} else {
		f := map[string]mps.Format{"mps": mps.Auto, "free-mps": mps.Free, "fixed-mps": mps.Fixed}[format]
		p, err = mps.Read(bytes.NewReader(data), mps.Options{
			Format: f,
			Warn:   func(w mps.Warning) { warnings = append(warnings, w.String()) },
		})
	}
	for k, w := range warnings {
		if k == maxShownWarnings {
			fmt.Fprintf(s.Err, "coraopt: warning: %s: %d more warnings\n", name, len(warnings)-k)
			break
		}
		fmt.Fprintf(s.Err, "coraopt: warning: %s: %s\n", name, w)
	}
	if err != nil {
		var pe1 *mps.ParseError
		var pe2 *lpformat.ParseError
		if errors.As(err, &pe1) || errors.As(err, &pe2) {
			return nil, usageErrf("%s (read as %s): %v", name, formatName(format), err)
		}
		return nil, usageErrf("%s: %v", name, err)
	}
	if p.Name == "" && path != "-" {
		p.Name = strings.TrimSuffix(baseName(path), ".gz")
	}
	return p, nil
}

func formatName(format string) string {
	switch format {
	case "lp":
		return "CPLEX-LP"
	case "free-mps":
		return "free MPS"
	case "fixed-mps":
		return "fixed MPS"
	}
	return "MPS"
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// guessFormat picks "lp" or "mps": by extension for files, by the first word for
// standard input (an LP file starts with Minimize or Maximize, after comments).
func guessFormat(path string, data []byte) string {
	if path != "-" {
		if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(path), ".gz"), ".lp") {
			return "lp"
		}
		return "mps"
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '*' || line[0] == '\\' {
			continue
		}
		word := strings.ToLower(strings.Fields(line)[0])
		for _, kw := range []string{"min", "max", "minimize", "maximize", "minimise", "maximise", "minimum", "maximum"} {
			if word == kw {
				return "lp"
			}
		}
		break
	}
	return "mps"
}
