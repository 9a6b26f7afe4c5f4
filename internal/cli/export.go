package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/formulations/cora"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/lpformat"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/sched"
)

type exportOptions struct {
	formulation string
	format      string
	out         string
	cora        coraOptions
}

func newExportCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export FILE",
		Short: "Write the optimization model of an instance as MPS or CPLEX-LP, for any solver",
		Long: `Read an instance file (JSON; - for standard input), build one of its optimization
models and write it in MPS (free format) or CPLEX-LP, so that any LP/MIP solver can solve
it: coraopt lp, HiGHS, lp_solve, CPLEX, Gurobi, SCIP, …

Formulations (--formulation):
  cora-final       FINAL (cora.txt §II-C): per job, slot and resource the columns
                   x[job,tS,resource] and lam0/lam1/lamC[…], rows link[…] (λ1 + C·λc = x),
                   convex[…] (λ0 + λ1 + λc = 1), capacity[resource,tS] and
                   demand[job,resource]; minimize Σ λ0 + k^-u(λ1 + λc). An LP.
  cora-linearized  Linearized-CORA (cora.txt §II-B3): one lam<j>[…] per point
                   j = 0..capacity. An LP; refused when it would be very large.
  tas-mip          The time-indexed TAS MIP (one completion binary w[job,s] per job and
                   slot). Its lexicographic objective is not one objective: the file has
                   the constraints and no objective; the outcomes are Σ_s U(s)·w[job,s].

The weights k^-u of the CORA models are written as float64 prints them: those that
underflow are 0. The numerics guard's warning goes to standard error (--strict: exit 2).

Output: the model on standard output, or in --out FILE. -o/--output, the output format
(json, table) of the other commands, does not apply: a model is MPS or LP (--format).
Exit codes: 0 written; 2 bad usage, an invalid instance or --strict with a warning.`,
		Example: `  coraopt export testdata/cora/spread.json --formulation cora-final --format mps --out spread.mps
  coraopt lp spread.mps --solver highs
  coraopt export instance.json --formulation cora-linearized --format lp | less`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if g.output != "" {
				return usageErrf("-o/--output %q: export writes a model, not json or a table; choose its format with --format mps|lp and its file with --out FILE", g.output)
			}
			return runExport(s, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.formulation, "formulation", "cora-final", "model to write: cora-final, cora-linearized or tas-mip")
	f.StringVar(&o.format, "format", "mps", "file format: mps (free MPS) or lp (CPLEX-LP)")
	f.StringVar(&o.out, "out", "", "write the model to `FILE` instead of standard output")
	f.BoolVar(&o.cora.strict, "strict", false, "cora models: exit 2 when the numerics guard or the utility rounding warns")
	f.Float64Var(&o.cora.scale, "scale", 0, "cora models: utility scale before rounding (0: smallest of 1, 10, 100, 1000 making them integers, else 1000)")
	f.Float64Var(&o.cora.k, "k", 0, "cora models: base of the weights k^-u (0: |jobs|·|slots|·|resources|)")
	return cmd
}

func runExport(s Streams, o *exportOptions, path string) error {
	switch o.format {
	case "mps", "lp":
	default:
		return usageErrf("--format %q: want mps or lp", o.format)
	}
	in, err := readInstance(s, path)
	if err != nil {
		return err
	}
	m, warnings, err := exportModel(in, o)
	if err != nil {
		return err
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

// exportModel builds the requested model and its warnings.
func exportModel(in *sched.Instance, o *exportOptions) (*model.Model, []string, error) {
	opts := cora.Options{Scale: o.cora.scale, K: o.cora.k, Strict: o.cora.strict}
	var lp *cora.LP
	var err error
	switch o.formulation {
	case "cora-final":
		lp, err = cora.BuildFinal(in, opts)
	case "cora-linearized":
		lp, err = cora.BuildLinearized(in, opts)
	case "tas-mip":
		mip, err := tas.BuildMIP(in)
		if errors.Is(err, tas.ErrInfeasible) {
			return nil, nil, failed(err)
		}
		if err != nil {
			return nil, nil, usageErr(err)
		}
		return mip.Model, nil, nil
	default:
		return nil, nil, usageErrf("--formulation %q: want cora-final, cora-linearized or tas-mip", o.formulation)
	}
	if err != nil {
		return nil, nil, usageErr(err)
	}
	return lp.Model, lp.Warnings, nil
}
