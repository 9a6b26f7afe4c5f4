package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/model/lpformat"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solve"
)

type exportOptions struct {
	formulation string
	format      string
	out         string
	cora        coraOptions
	changed     func(string) bool
}

// exportOptionFlags are export's flags that belong to particular formulations
// (solve.Formulation.Options).
var exportOptionFlags = []string{"strict", "scale", "k"}

func newExportCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &exportOptions{}
	reg := g.registry
	cmd := &cobra.Command{
		Use:   "export FILE",
		Short: "Write the optimization model of an instance as MPS or CPLEX-LP, for any solver",
		Long: `Read an instance file (JSON; - for standard input), build the optimization model a
formulation's solver method solves and write it in MPS (free format) or CPLEX-LP, so that
any LP/MIP solver can solve it: coraopt lp, HiGHS, lp_solve, CPLEX, Gurobi, SCIP, …

Formulations (--formulation):
` + reg.ModelHelpText() + `
The weights k^-u of the CORA models are written as float64 prints them: those that
underflow are 0. The numerics guard's warning goes to standard error (--strict: exit 2).

Output: the model on standard output, or in --out FILE. -o/--output, the output format
(json, table) of the other commands, does not apply: a model is MPS or LP (--format).
Exit codes: 0 written; 1 the model builder proves the instance has no schedule; 2 bad
usage, an invalid instance or --strict with a warning.`,
		Example: `  coraopt export testdata/cora/spread.json --formulation cora-final --format mps --out spread.mps
  coraopt lp spread.mps --solver highs
  coraopt export instance.json --formulation cora-linearized --format lp | less`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if g.output != "" {
				return usageErrf("-o/--output %q: export writes a model, not json or a table; choose its format with --format mps|lp and its file with --out FILE", g.output)
			}
			o.changed = cmd.Flags().Changed
			return runExport(cmd.Context(), s, reg, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.formulation, "formulation", "cora-final", "model to write: "+strings.Join(reg.ModelNames(), ", "))
	f.StringVar(&o.format, "format", "mps", "file format: mps (free MPS) or lp (CPLEX-LP)")
	f.StringVar(&o.out, "out", "", "write the model to `FILE` instead of standard output")
	f.BoolVar(&o.cora.strict, "strict", false, "cora models: exit 2 when the numerics guard or the utility rounding warns")
	f.Float64Var(&o.cora.scale, "scale", 0, "cora models: utility scale before rounding (0: smallest of 1, 10, 100, 1000 making them integers, else 1000)")
	f.Float64Var(&o.cora.k, "k", 0, "cora models: base of the weights k^-u (0: |jobs|·|slots|·|resources|)")
	return cmd
}

func runExport(ctx context.Context, s Streams, reg *solve.Registry, o *exportOptions, path string) error {
	switch o.format {
	case "mps", "lp":
	default:
		return usageErrf("--format %q: want mps or lp", o.format)
	}
	req := solve.Request{Formulation: o.formulation, CORA: solve.CORAOptions{Scale: o.cora.scale, K: o.cora.k, Strict: o.cora.strict}}
	for _, name := range exportOptionFlags {
		if o.changed != nil && o.changed(name) {
			req.Set = append(req.Set, name)
		}
	}
	if _, _, err := reg.Check(req); err != nil {
		return usageErr(flagged(err))
	}
	in, err := readInstance(s, path)
	if err != nil {
		return err
	}
	req.Instance = in
	m, warnings, err := reg.Model(ctx, req)
	var re *solve.RequestError
	switch {
	case errors.As(err, &re):
		return usageErr(flagged(err))
	case err != nil:
		return failed(flagged(err))
	}
	for _, w := range warnings {
		fmt.Fprintf(s.Err, "coraopt: warning: %s\n", w)
	}
	p, err := m.Compile()
	if err != nil {
		return failed(fmt.Errorf("export: %w", err))
	}
	var w io.Writer = s.Out
	var file *os.File
	if o.out != "" && o.out != "-" {
		if file, err = os.Create(o.out); err != nil {
			return usageErr(err)
		}
		w = file
	}
	bw := bufio.NewWriter(w)
	if o.format == "mps" {
		err = mps.Write(bw, p, mps.Options{})
	} else {
		err = lpformat.Write(bw, p)
	}
	if err == nil {
		err = bw.Flush()
	}
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return failed(fmt.Errorf("export: %w", err))
	}
	return nil
}
