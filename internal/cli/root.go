// Package cli implements the coraopt command line. Each command lives in its own file
// with an options struct and a run function that writes to injected streams, so every
// command is tested without a terminal (the GitHub CLI's layout). cmd/coraopt only calls
// Main.
//
// Contract (docs/cli.md): JSON on stdout, diagnostics on stderr; exit 0 on success,
// 1 when a check failed or the model is infeasible/unbounded/stopped on a limit, 2 on a
// usage or input error, 3 on an internal error (a recovered panic: a bug, never an
// answer about the input). `-` as a file name reads standard input.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/coraopt/coraopt/internal/workpool"
	"github.com/coraopt/coraopt/solve"
	_ "github.com/coraopt/coraopt/solvers/all" // every backend compiled into this binary
)

// Exit codes.
const (
	ExitOK       = 0
	ExitFailed   = 1 // a check failed, or the model is infeasible / unbounded / hit a limit
	ExitBadUsage = 2 // usage or input error
	// ExitInternal is a bug: a panic recovered in a command. Go's own exit code for an
	// unrecovered panic is 2, the code of a bad input, so no panic may reach the runtime.
	ExitInternal = 3
)

// Streams are the command's standard streams. IsTerminal tells whether Out is a terminal
// (table output and progress bars by default).
type Streams struct {
	In         io.Reader
	Out        io.Writer
	Err        io.Writer
	IsTerminal bool
}

// SystemStreams returns the process's streams.
func SystemStreams() Streams {
	return Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, IsTerminal: term.IsTerminal(int(os.Stdout.Fd()))}
}

// ExitError carries an exit code out of a command.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// usageErr wraps err as an input/usage error (exit 2).
func usageErr(err error) error { return &ExitError{Code: ExitBadUsage, Err: err} }

// usageErrf formats an input/usage error (exit 2).
func usageErrf(format string, args ...any) error {
	return usageErr(fmt.Errorf(format, args...))
}

// failed is an outcome that is not an error of the user's but not a success either
// (exit 1): infeasible, a failed check. The message, if any, goes to stderr.
func failed(err error) error { return &ExitError{Code: ExitFailed, Err: err} }

// Version is the module version baked in by the Go toolchain ("(devel)" in a checkout).
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// globalOptions are the flags every command shares.
type globalOptions struct {
	output string // json | table | "" (auto)
	// registry holds the formulations solve, verify and bench offer (solve.Default(),
	// or a test's).
	registry *solve.Registry
}

// format resolves the output format: the flag, or table on a terminal and JSON otherwise.
func (g *globalOptions) format(s Streams) (string, error) {
	switch g.output {
	case "":
		if s.IsTerminal {
			return "table", nil
		}
		return "json", nil
	case "json", "table":
		return g.output, nil
	}
	return "", usageErrf("--output %q: want json or table", g.output)
}

// NewRootCmd builds the command tree writing to s.
func NewRootCmd(s Streams) *cobra.Command { return newRootCmd(s, solve.Default()) }

// newRootCmd builds the command tree with the formulations of reg.
func newRootCmd(s Streams, reg *solve.Registry) *cobra.Command {
	g := &globalOptions{registry: reg}
	root := &cobra.Command{
		Use:   "coraopt",
		Short: "Completion-time-aware cluster scheduling as optimization, solved and verified",
		Long: `coraopt turns completion-time-aware cluster scheduling (CORA, RUSH, RDS, WOHA, RTMR)
into optimization problems, solves them with real solvers (a built-in sparse simplex,
HiGHS, lp_solve), and proves the answers right by cross-checking independent methods.

Output is a table on a terminal and JSON otherwise; choose with -o json|table.
Exit codes: 0 success, 1 infeasible or a failed check, 2 bad usage or input,
3 internal error (a bug: please report it, with the stack --debug prints).`,
		Version:       Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.PersistentFlags().StringVarP(&g.output, "output", "o", "", "output format: json or table (default: table on a terminal, JSON otherwise)")
	root.PersistentFlags().Bool(debugFlag, false, "on an internal error (exit 3), print the Go stack trace to stderr")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageErr(err) })
	root.AddCommand(
		newSolversCmd(s, g),
		newSolveCmd(s, g),
		newLPCmd(s, g),
		newExportCmd(s, g),
		newRSCoverageCmd(s, g),
		newRSDemandsCmd(s, g),
		newVerifyCmd(s, g),
		newBenchCmd(s, g),
		newGenCmd(s, g),
		newSimulateCmd(s, g),
		newSweepCmd(s, g),
	)
	return root
}

// Main runs the command line with args (without the program name) and returns the exit
// code. Errors are printed to s.Err.
func Main(ctx context.Context, args []string, s Streams) int {
	return run(ctx, NewRootCmd(s), args, s)
}

// run executes a command tree and maps its error to an exit code. A panic in the
// command, or in a task of internal/workpool that hands it back as a
// *workpool.PanicError, is exit 3, with the stack only under --debug.
func run(ctx context.Context, root *cobra.Command, args []string, s Streams) (code int) {
	defer func() {
		if v := recover(); v != nil {
			code = reportInternal(root, s, v, debug.Stack())
		}
	}()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var pe *workpool.PanicError // a simulate run's or a sweep cell's, on the pool
	if errors.As(err, &pe) {
		return reportInternal(root, s, err.Error(), pe.Stack)
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintf(s.Err, "coraopt: %v\n", ee.Err)
		}
		return ee.Code
	}
	// cobra's own errors (unknown command, bad args) are usage errors.
	fmt.Fprintf(s.Err, "coraopt: %v\n", err)
	return ExitBadUsage
}

const debugFlag = "debug"

// reportInternal prints an internal error — the stack only under --debug, which the
// command line may not have reached when the panic came — and returns exit 3.
func reportInternal(root *cobra.Command, s Streams, value any, stack []byte) int {
	fmt.Fprintf(s.Err, "coraopt: internal error, please report: %v\n", value)
	if on, err := root.PersistentFlags().GetBool(debugFlag); err == nil && on {
		s.Err.Write(stack)
	} else {
		fmt.Fprintf(s.Err, "coraopt: run again with --%s for the stack trace\n", debugFlag)
	}
	return ExitInternal
}
