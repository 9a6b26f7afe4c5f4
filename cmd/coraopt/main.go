// Command coraopt solves, verifies, benchmarks and simulates completion-time-aware
// cluster scheduling problems. See `coraopt --help` and the README.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/coraopt/coraopt/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], cli.SystemStreams())
	stop()
	os.Exit(code)
}
