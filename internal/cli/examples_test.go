package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/policies/external"
)

// TestExamplesParse runs every command line of every command's Examples and of the code
// blocks of README.md and docs/*.md through the real command tree — cobra's command lookup, flag
// parsing (persistent and local), flag value types and argument-count checks — with each
// command's action replaced by one that only checks -o/--output names an output format.
// So a renamed or removed flag, a wrong shorthand, a misspelt command or a wrong number of
// arguments in the documentation fails here, whatever the example's files or backends,
// and the check costs no solve. What the actions themselves reject (a missing file, an
// unknown --formulation) is tested with each command.
func TestExamplesParse(t *testing.T) {
	var help, readme [][]string
	walk(NewRootCmd(Streams{}), func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			help = append(help, commandLines(line)...)
		}
	})
	for _, doc := range docFiles(t) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		inBlock := false
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inBlock = !inBlock
				continue
			}
			if inBlock {
				readme = append(readme, commandLines(line)...)
			}
		}
	}
	// The extraction itself must find the examples, or this test checks nothing.
	if len(help) < 15 || len(readme) < 8 {
		t.Fatalf("found %d help example lines and %d documentation lines; the extraction is broken", len(help), len(readme))
	}
	for _, args := range slices.Concat(help, readme) {
		if err := parseOnly(args); err != nil {
			t.Errorf("coraopt %s: %v", strings.Join(args, " "), err)
		}
	}
}

// TestParseOnlyCatches: the check fails on what it is for — including the export
// example this test was written for (-o spread.mps, then --out, which did not exist).
func TestParseOnlyCatches(t *testing.T) {
	for _, tc := range []struct {
		line    string
		wantErr bool
	}{
		{"coraopt export testdata/cora/spread.json --no-such-flag", true},
		{"coraopt export testdata/cora/spread.json -o spread.mps", true},
		{"coraopt export testdata/cora/spread.json -z", true},
		{"coraopt solve a.json b.json", true},
		{"coraopt slove a.json", true},
		{"coraopt rs-coverage --reps many", true},
		{"$ ./bin/coraopt verify testdata/cora/spread.json --formulation cora -o table; echo \"exit $?\"", false},
		{"cat instance.json | coraopt solve - --method mip --solver highs", false},
		{"coraopt export x.json --formulation cora-final --format mps --out spread.mps", false},
	} {
		cmds := commandLines(tc.line)
		if len(cmds) != 1 {
			t.Fatalf("%q: %d command lines", tc.line, len(cmds))
		}
		if err := parseOnly(cmds[0]); (err != nil) != tc.wantErr {
			t.Errorf("%q: error %v, want an error: %t", tc.line, err, tc.wantErr)
		}
	}
	if got := commandLines("qp       coraopt-qp 1.0 (Goldfarb–Idnani dual active set)  yes"); got != nil {
		t.Errorf("a table row read as a command: %q", got)
	}
}

// docFiles are the documentation files the tests read: README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	return append([]string{"../../README.md"}, docs...)
}

func walk(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		walk(sub, f)
	}
}

// outputFormats are the values -o/--output takes (csv: bench only, which checks it).
var outputFormats = []string{"", "json", "table", "csv"}

// parseOnly executes args against a fresh command tree whose actions only check the
// output format, and returns the error cobra or that check reports.
func parseOnly(args []string) error {
	var out, errOut bytes.Buffer
	root := NewRootCmd(Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
	walk(root, func(c *cobra.Command) {
		if c.Run == nil && c.RunE == nil {
			return // a group: cobra prints its help
		}
		c.Run = nil
		c.RunE = func(c *cobra.Command, _ []string) error {
			if f := c.Flags().Lookup("output"); f != nil && !slices.Contains(outputFormats, f.Value.String()) {
				return fmt.Errorf("-o/--output %q is not an output format (%s)", f.Value.String(), strings.Join(outputFormats[1:], ", "))
			}
			return nil
		}
	})
	root.SetArgs(args)
	return root.ExecuteContext(context.Background())
}

// commandLines returns the coraopt invocations in one line of documentation, each as
// its arguments: a shell prompt "$ " is dropped, the line is split at |, ;, && and ||,
// and a segment counts when it starts with coraopt, ./bin/coraopt or
// go run ./cmd/coraopt. Redirections (> FILE, 2> FILE, < FILE) are removed.
func commandLines(line string) [][]string {
	line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
	var out [][]string
	for _, seg := range splitOperators(line) {
		words, _ := external.SplitCommand(seg) // nil for an empty or unclosed segment
		switch {
		case len(words) >= 1 && (words[0] == "coraopt" || words[0] == "./bin/coraopt"):
			words = words[1:]
		case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/coraopt":
			words = words[3:]
		default:
			continue
		}
		var args []string
		for i := 0; i < len(words); i++ {
			switch words[i] {
			case ">", "2>", "<", ">>":
				i++ // and its file
				continue
			}
			args = append(args, words[i])
		}
		out = append(out, args)
	}
	return out
}

// splitOperators splits a shell line at |, ||, ; and && outside quotes.
func splitOperators(line string) []string {
	var segs []string
	var cur strings.Builder
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '|' || r == ';' || r == '&':
			segs = append(segs, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(r)
	}
	return append(segs, cur.String())
}

// foreignCommand is a code span holding another program's command line.
var foreignCommand = regexp.MustCompile("`(?:sbatch|srun|squeue|scancel|sinfo|kubectl|go|make|bash|jq|git|apt-get) [^`]*`")

// longFlag is a --flag written in help or README prose.
var longFlag = regexp.MustCompile(`(?:^|[\s\x60(\[,|])--([a-z][a-z0-9-]*)`)

// takesFlag reports whether c takes --name, its own or inherited.
func takesFlag(c *cobra.Command, name string) bool {
	for p := c; p != nil; p = p.Parent() {
		if p.Flags().Lookup(name) != nil || p.PersistentFlags().Lookup(name) != nil {
			return true
		}
	}
	return name == "help" || (name == "version" && c.Parent() == nil)
}

// proseFlags returns the --flags text names, each with the command it belongs to: the
// command of the latest "coraopt NAME" before it in the same paragraph, else one of
// dflt (any of them taking it will do).
func proseFlags(text string, byName map[string]*cobra.Command, dflt []*cobra.Command) (flags []string, owners [][]*cobra.Command) {
	// "coraopt sweep run" names the subcommand run of sweep: the longest path wins.
	mention := regexp.MustCompile(`coraopt ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?`)
	// A code span that starts with another program is that program's command line
	// (`sbatch --dependency=afterok:<id>`, `kubectl wait --for=…`): its flags are not ours.
	text = foreignCommand.ReplaceAllString(text, "``")
	for _, para := range strings.Split(text, "\n\n") {
		marks := mention.FindAllStringSubmatchIndex(para, -1)
		for _, m := range longFlag.FindAllStringSubmatchIndex(para, -1) {
			own := dflt
			for _, k := range marks {
				if k[0] >= m[2] {
					continue
				}
				// The mentioned command, or the text's own: help prose often names
				// another command's line in passing ("task K runs coraopt sweep run …
				// on --cpus workers").
				if k[4] >= 0 {
					if c := byName[para[k[2]:k[3]]+" "+para[k[4]:k[5]]]; c != nil {
						own = append([]*cobra.Command{c}, dflt...)
						continue
					}
				}
				if c := byName[para[k[2]:k[3]]]; c != nil {
					own = append([]*cobra.Command{c}, dflt...)
				}
			}
			flags = append(flags, para[m[2]:m[3]])
			owners = append(owners, own)
		}
	}
	return flags, owners
}

func anyTakes(cs []*cobra.Command, name string) bool {
	return slices.ContainsFunc(cs, func(c *cobra.Command) bool { return takesFlag(c, name) })
}

func names(cs []*cobra.Command) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.CommandPath())
	}
	return strings.Join(s, " or ")
}

// TestProseNamesRealFlags: every --flag a command's help text names, and every --flag in
// the README section of a command ("### `coraopt NAME …`" up to the next heading), is a
// flag of the command the text is about: the section's or help's command, or the one of
// a "coraopt NAME" written before it in the same paragraph. (`coraopt export … --out
// x.mps` once failed with "unknown flag: --out" while export's help and the README both
// named it.)
func TestProseNamesRealFlags(t *testing.T) {
	root := NewRootCmd(Streams{})
	byName := map[string]*cobra.Command{}
	walk(root, func(c *cobra.Command) { byName[strings.TrimPrefix(c.CommandPath(), root.Name()+" ")] = c })
	walk(root, func(c *cobra.Command) {
		flags, owners := proseFlags(c.Long, byName, []*cobra.Command{c})
		for i, f := range flags {
			if !anyTakes(owners[i], f) {
				t.Errorf("%s --help names --%s, which %s does not take", c.CommandPath(), f, names(owners[i]))
			}
		}
	})
	var every []*cobra.Command
	walk(root, func(c *cobra.Command) { every = append(every, c) })
	heading := regexp.MustCompile("`coraopt ([a-z][a-z-]*)")
	sections := 0
	for _, doc := range docFiles(t) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(doc, "../../")
		var section []*cobra.Command
		var body strings.Builder
		check := func() {
			owner := section
			if owner == nil {
				owner = every // prose about no one command: some command must take the flag
			}
			flags, owners := proseFlags(body.String(), byName, owner)
			for i, f := range flags {
				if !anyTakes(owners[i], f) {
					t.Errorf("%s names --%s, which %s does not take", name, f, names(owners[i]))
				}
			}
			body.Reset()
		}
		inBlock := false
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "```") {
				inBlock = !inBlock
				continue
			}
			if inBlock {
				continue // command lines: TestExamplesParse
			}
			if strings.HasPrefix(line, "#") {
				check()
				section = nil
				for _, m := range heading.FindAllStringSubmatch(line, -1) {
					c := byName[m[1]]
					if c == nil {
						t.Errorf("%s heading %q names no command", name, line)
						continue
					}
					section = append(section, c)
				}
				if section != nil {
					sections++
				}
				continue
			}
			body.WriteString(line + "\n")
		}
		check()
	}
	if sections < 5 {
		t.Fatalf("found %d command sections in the documentation; the extraction is broken", sections)
	}
}

// TestProseFlagsForeign: flags in a code span of another program's command line are not
// checked; flags in prose and in coraopt's own command lines are, against the command the
// paragraph names.
func TestProseFlagsForeign(t *testing.T) {
	root := NewRootCmd(Streams{})
	byName := map[string]*cobra.Command{}
	walk(root, func(c *cobra.Command) { byName[strings.TrimPrefix(c.CommandPath(), root.Name()+" ")] = c })
	for _, c := range []struct {
		text string
		want []string
	}{
		{"submits with `sbatch --dependency=afterok:<id>`, then `kubectl wait --for=x --timeout=1h`", nil},
		{"`coraopt sweep slurm --partition local` and --shards", []string{"partition", "shards"}},
		{"`go test -run X` then --no-such", []string{"no-such"}},
	} {
		flags, _ := proseFlags(c.text, byName, []*cobra.Command{root})
		if !slices.Equal(flags, c.want) {
			t.Errorf("%q: flags %q, want %q", c.text, flags, c.want)
		}
	}
}
