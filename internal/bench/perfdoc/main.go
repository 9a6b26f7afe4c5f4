// Command perfdoc renders the generated part of docs/performance.md: the performance
// targets (docs/design.md) evaluated on a `go test -bench` run (make bench), and the
// summaries of `coraopt bench -o json` runs. It only formats what it is given; the
// measurements are made by the commands the document lists. With -doc FILE it replaces
// the text between <!-- perfdoc:begin --> and <!-- perfdoc:end --> in FILE (package
// docblock), leaving the hand-written text around it; without, it prints the block.
//
//	go run ./internal/bench/perfdoc -gobench bench.txt -count 5 \
//	    -run 'Netlib LPs=netlib.json=coraopt bench --suite netlib …' \
//	    -date 2026-11-21 -machine '…' -load '…' -doc docs/performance.md
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/coraopt/coraopt/internal/bench"
	"github.com/coraopt/coraopt/internal/docblock"
)

type runs []bench.PerfRun

func (r *runs) String() string { return fmt.Sprint(len(*r)) }

// Set parses TITLE=FILE=COMMAND.
func (r *runs) Set(v string) error {
	parts := strings.SplitN(v, "=", 3)
	if len(parts) != 3 {
		return fmt.Errorf("-run %q: want TITLE=FILE=COMMAND", v)
	}
	data, err := os.ReadFile(parts[1])
	if err != nil {
		return err
	}
	*r = append(*r, bench.PerfRun{Title: parts[0], JSON: data, Command: parts[2]})
	return nil
}

type lines []string

func (l *lines) String() string     { return strings.Join(*l, "\n") }
func (l *lines) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	var (
		gobench  = flag.String("gobench", "", "output of go test -bench (required)")
		count    = flag.Int("count", 1, "the -count of that run")
		date     = flag.String("date", "", "date of the measurements")
		machine  = flag.String("machine", "", "the machine, in words")
		load     = flag.String("load", "", "the load during the runs, in words")
		module   = flag.String("module", "github.com/coraopt/coraopt", "module path stripped from package names")
		doc      = flag.String("doc", "", "replace the block between the markers in this file (docs/performance.md); empty: print it")
		rs       runs
		commands lines
	)
	flag.Var(&rs, "run", "a coraopt bench JSON run: TITLE=FILE=COMMAND (repeatable)")
	flag.Var(&commands, "cmd", "a command that regenerates the document (repeatable)")
	flag.Parse()
	if err := run(*gobench, *module, *doc, bench.PerfDoc{Date: *date, Machine: *machine, Load: *load, Count: *count, Runs: rs, Commands: commands}); err != nil {
		fmt.Fprintln(os.Stderr, "perfdoc:", err)
		os.Exit(1)
	}
}

// block names the generated block of the document (docblock.Markers).
const block = "perfdoc"

func run(gobench, module, doc string, d bench.PerfDoc) error {
	if gobench == "" {
		return fmt.Errorf("-gobench is required")
	}
	f, err := os.Open(gobench)
	if err != nil {
		return err
	}
	defer f.Close()
	g, err := bench.ParseGoBench(f, module)
	if err != nil {
		return err
	}
	d.Evaluations = bench.Evaluate(bench.Targets(), g)
	if doc == "" {
		return bench.WritePerformance(os.Stdout, d)
	}
	var b bytes.Buffer
	if err := bench.WritePerformance(&b, d); err != nil {
		return err
	}
	return docblock.Replace(doc, block, b.Bytes())
}
