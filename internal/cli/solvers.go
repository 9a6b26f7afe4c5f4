package cli

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/solvers"
)

type solversOptions struct {
	g *globalOptions
}

type solverInfo struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	Version   string `json:"version,omitempty"`
	LP        bool   `json:"lp"`
	MIP       bool   `json:"mip"`
	QP        bool   `json:"qp"`
	Duals     bool   `json:"duals"`
	Basis     bool   `json:"basis"`
	Hint      string `json:"hint,omitempty"`
}

func newSolversCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &solversOptions{g: g}
	return &cobra.Command{
		Use:   "solvers",
		Short: "List the solver backends compiled into this binary",
		Long: `List every solver backend this binary knows: the ones compiled in, with their versions
and what they solve (LP, MIP, QP, duals, warm-start bases), and the ones that need a
build tag, with the command that gets them.

The pure-Go backends (simplex, qp, gonum) are always present. HiGHS and lp_solve need
their C libraries and a build with -tags highs,lpsolve: run "make build".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSolvers(s, o) },
	}
}

func runSolvers(s Streams, o *solversOptions) error {
	format, err := o.g.format(s)
	if err != nil {
		return err
	}
	infos := []solverInfo{}
	for _, name := range solvers.Names() {
		sv, err := solvers.Get(name)
		info := solverInfo{Name: name, Available: err == nil}
		if err != nil {
			info.Hint = err.Error()
		} else if d, ok := sv.(solvers.Describer); ok {
			c := d.Capabilities()
			info.Version = d.Version()
			info.LP, info.MIP, info.QP, info.Duals, info.Basis = c.LP, c.MIP, c.QP, c.Duals, c.Basis
		}
		infos = append(infos, info)
	}
	missing := solvers.Missing()
	names := make([]string, 0, len(missing))
	for n := range missing {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		infos = append(infos, solverInfo{Name: n, Hint: missing[n]})
	}
	if format == "json" {
		return writeJSON(s.Out, map[string]any{"solvers": infos})
	}
	tw := newTable(s.Out)
	row(tw, "SOLVER", "VERSION", "LP", "MIP", "QP", "DUALS", "BASIS", "NOTE")
	yn := func(b bool) string {
		if b {
			return "yes"
		}
		return "-"
	}
	for _, i := range infos {
		if !i.Available {
			row(tw, i.Name, "-", "-", "-", "-", "-", "-", "not compiled in: "+i.Hint)
			continue
		}
		row(tw, i.Name, i.Version, yn(i.LP), yn(i.MIP), yn(i.QP), yn(i.Duals), yn(i.Basis), "")
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("solvers: %w", err)
	}
	return nil
}
