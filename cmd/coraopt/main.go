// Command coraopt solves, verifies, benchmarks and simulates completion-time-aware
// cluster scheduling problems. See `coraopt --help` and the README.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/coraopt/coraopt/internal/cli"
)

func main() {
	// SIGTERM ends a run as Ctrl-C does (commands stop, keep what is finished, and say
	// so): it is what Slurm sends at a job's time limit and on scancel, and what
	// Kubernetes and systemd send to stop a process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.SystemStreams())
	stop()
	os.Exit(code)
}
