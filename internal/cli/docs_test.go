package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/policies/all"
)

// consoleCommand is one "$ coraopt …" line of a fenced block and the lines the
// document shows after it ("…" where it leaves lines out).
type consoleCommand struct {
	doc, line string
	shown     []string
}

// consoleBlocks returns the "$ " commands of every fenced block of a document, block by
// block.
func consoleBlocks(t *testing.T, doc string) [][]consoleCommand {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]consoleCommand
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "```") && !in:
			in = true
			blocks = append(blocks, nil)
		case strings.HasPrefix(line, "```"):
			in = false
		case !in:
		case strings.HasPrefix(line, "$ "):
			b := &blocks[len(blocks)-1]
			*b = append(*b, consoleCommand{doc: filepath.Base(doc), line: strings.TrimPrefix(line, "$ ")})
		default:
			b := blocks[len(blocks)-1]
			if len(b) > 0 {
				b[len(b)-1].shown = append(b[len(b)-1].shown, strings.TrimRight(line, " "))
			}
		}
	}
	return blocks
}

// showsOutput says whether shown is what a command printed: its lines in order, a "…"
// line standing for any number of lines.
func showsOutput(shown, got []string) bool {
	var segs [][]string
	cur := []string{}
	for _, l := range shown {
		if l == "…" {
			segs = append(segs, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, l)
	}
	segs = append(segs, cur)
	pos := 0
	for k, seg := range segs {
		switch {
		case k == 0: // before the first "…" (or everything): a prefix
			if len(got) < len(seg) || !slices.Equal(got[:len(seg)], seg) {
				return false
			}
			pos = len(seg)
		case k == len(segs)-1: // after the last "…": a suffix
			if len(got)-pos < len(seg) || !slices.Equal(got[len(got)-len(seg):], seg) {
				return false
			}
		default:
			i := pos
			for ; i+len(seg) <= len(got) && !slices.Equal(got[i:i+len(seg)], seg); i++ {
			}
			if i+len(seg) > len(got) {
				return false
			}
			pos = i + len(seg)
		}
	}
	return len(segs) > 1 || len(got) == len(segs[0])
}

func TestShowsOutput(t *testing.T) {
	got := []string{"a", "b", "c", "d"}
	for _, tc := range []struct {
		shown []string
		want  bool
	}{
		{[]string{"a", "b", "c", "d"}, true},
		{[]string{"a", "b", "c"}, false},
		{[]string{"…", "c", "d"}, true},
		{[]string{"…", "c"}, false},
		{[]string{"a", "…", "d"}, true},
		{[]string{"a", "…", "b", "…"}, true},
		{[]string{"a", "…", "a", "…"}, false},
		{[]string{"a", "b", "x", "d"}, false},
	} {
		if showsOutput(tc.shown, got) != tc.want {
			t.Errorf("%q: want %v", tc.shown, tc.want)
		}
	}
}

// The simulate examples of docs/simulate.md print what the document shows: every
// "$ coraopt gen … > FILE" and "$ coraopt simulate … -o table" of its code blocks runs
// (without --plots, whose figures plot tests) in a directory that has the repository's
// files where the examples name them, and its stdout and stderr lines must be the ones
// shown (the docs' simulate example once showed "471 slots" where a run printed 384,
// issue 32).
func TestDocSimulateExamplesPrintWhatTheyShow(t *testing.T) {
	root, err := filepath.Abs("../../")
	if err != nil {
		t.Fatal(err)
	}
	blocks := consoleBlocks(t, filepath.Join(root, "docs", "simulate.md"))
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries { // the examples name files from the repository's root
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	ran := 0
	for _, block := range blocks {
		for _, c := range block {
			args, redirect, ok := strings.Cut(c.line, " > ")
			words := strings.Fields(args)
			if len(words) < 2 || words[0] != "coraopt" || (words[1] != "gen" && words[1] != "simulate") ||
				(words[1] == "simulate" && !slices.Contains(words, "table")) || (words[1] == "gen" && !ok) {
				break // a command this test does not run: the rest of the block may need it
			}
			shown := c.shown
			if k := slices.Index(words, "--plots"); k > 0 && k+1 < len(words) {
				// The figures are tested with plot; here they would only cost time.
				words = slices.Delete(words, k, k+2)
				shown = slices.DeleteFunc(slices.Clone(shown), func(l string) bool { return strings.HasPrefix(l, "coraopt: figures written to ") })
			}
			code, out, errOut := runCLI(context.Background(), "", words[1:]...)
			if code != 0 {
				t.Fatalf("%s: %s: exit %d: %s", c.doc, c.line, code, errOut)
			}
			var got []string
			if ok {
				if err := os.WriteFile(strings.TrimSpace(redirect), []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				got = append(got, strings.Split(strings.TrimSuffix(out, "\n"), "\n")...)
			}
			if errOut != "" {
				got = append(got, strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")...)
			}
			for i := range got {
				got[i] = strings.TrimRight(got[i], " ")
			}
			if !showsOutput(shown, got) {
				t.Errorf("%s: $ %s\nshows:\n%s\nprints:\n%s", c.doc, c.line, strings.Join(c.shown, "\n"), strings.Join(got, "\n"))
			}
			ran++
		}
	}
	if ran < 12 {
		t.Fatalf("ran %d example commands; the extraction is broken", ran)
	}
}

// docFile reads a documentation file of the repository.
func docFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The docs' Slurm examples work on the one-node Slurm of scripts/slurm-local.sh: every
// --partition they name is a partition it defines, and the example that starts it
// exports SLURM_CONF before the first sbatch (without it sbatch fails with a DNS SRV
// error; issue 32 item 9).
func TestDocSlurmExamplesRunLocally(t *testing.T) {
	script := docFile(t, "scripts/slurm-local.sh")
	var partitions []string
	for _, m := range regexp.MustCompile(`PartitionName=(\S+)`).FindAllStringSubmatch(script, -1) {
		partitions = append(partitions, m[1])
	}
	if len(partitions) == 0 {
		t.Fatal("scripts/slurm-local.sh defines no partition")
	}
	flag := regexp.MustCompile("--partition[ =]([a-z][a-z0-9_-]*)") // not a placeholder (P)
	named := 0
	for _, doc := range docFiles(t) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range flag.FindAllStringSubmatch(string(data), -1) {
			named++
			if !slices.Contains(partitions, m[1]) {
				t.Errorf("%s: --partition %s: the local Slurm has %v", filepath.Base(doc), m[1], partitions)
			}
		}
	}
	if named == 0 {
		t.Error("no doc names a --partition: the extraction is broken")
	}
	started := false
	for _, block := range consoleBlocks(t, "../../docs/sweeps.md") {
		exported := false
		for _, c := range block {
			if strings.Contains(c.line, "slurm-local.sh start") {
				started = true
				exported = strings.HasPrefix(c.line, `eval "$(`) || slices.ContainsFunc(c.shown, func(l string) bool { return strings.Contains(l, "export SLURM_CONF") })
			}
			if strings.HasPrefix(c.line, "export SLURM_CONF=") {
				exported = true
			}
			if strings.Contains(c.line, "--submit") || strings.HasPrefix(c.line, "sbatch") {
				if !exported {
					t.Errorf("docs/sweeps.md: $ %s runs sbatch before SLURM_CONF is exported", c.line)
				}
			}
		}
	}
	if !started || !strings.Contains(docFile(t, "docs/sweeps.md"), "export SLURM_CONF") {
		t.Error("docs/sweeps.md does not start the local Slurm and say to export SLURM_CONF")
	}
}

// docs/cli.md's `coraopt solvers` table lists every backend the command lists (mip was
// missing, issue 32 item 9).
func TestDocSolversTableListsEveryBackend(t *testing.T) {
	code, out, errOut := runCLI(context.Background(), "", "solvers", "-o", "table")
	if code != 0 {
		t.Fatalf("solvers: exit %d: %s", code, errOut)
	}
	var listed []string
	for _, l := range strings.Split(out, "\n")[1:] {
		if f := strings.Fields(l); len(f) > 0 {
			listed = append(listed, f[0])
		}
	}
	doc := docFile(t, "docs/cli.md")
	_, table, ok := strings.Cut(doc, "coraopt solvers -o table\n")
	table, _, _ = strings.Cut(table, "```")
	if !ok || table == "" {
		t.Fatal("docs/cli.md has no `coraopt solvers -o table` example")
	}
	var documented []string
	for _, l := range strings.Split(table, "\n")[1:] {
		if f := strings.Fields(l); len(f) > 0 {
			documented = append(documented, f[0])
		}
	}
	if !slices.Contains(listed, "mip") {
		t.Fatalf("solvers lists %v, no mip", listed)
	}
	for _, name := range listed {
		if !slices.Contains(documented, name) {
			t.Errorf("docs/cli.md's solvers table lacks %s (it lists %v)", name, documented)
		}
	}
}

// docs/sweeps.md names every parameter of every policy that takes parameters (interval
// was missing, issue 32 item 9). The parameters are the registry's: a policy refusing an
// unknown key lists the keys it has.
func TestDocSweepParametersListEveryKey(t *testing.T) {
	doc := docFile(t, "docs/sweeps.md")
	_, para, ok := strings.Cut(doc, "Policies that take parameters")
	para, _, _ = strings.Cut(para, "\n\n")
	if !ok {
		t.Fatal(`docs/sweeps.md has no "Policies that take parameters" paragraph`)
	}
	takers := 0
	for _, name := range all.Names() {
		if !all.TakesParams(name) {
			continue
		}
		takers++
		_, err := all.NewWithParams(name, all.Params{"no-such-key": 1.0})
		var pe *all.ParamError
		have := regexp.MustCompile(`\(have ([^)]*)\)`).FindStringSubmatch(err.Error())
		if !errors.As(err, &pe) || have == nil {
			t.Fatalf("%s: an unknown key gives %v, not the keys it has", name, err)
		}
		if !strings.Contains(para, "`"+name+"`") {
			t.Errorf("docs/sweeps.md: the parameter list does not name policy %s", name)
		}
		for _, key := range strings.Split(have[1], ", ") {
			if !strings.Contains(para, "`"+key+"`") {
				t.Errorf("docs/sweeps.md: the parameter list lacks %s's %s", name, key)
			}
		}
	}
	if takers == 0 {
		t.Fatal("no policy takes parameters: the registry lookup is broken")
	}
}

// The README's paragraph on the simulator's policies counts them right and names every
// registered one (it said 24 of 26 once two serial baselines were added).
func TestReadmeNamesEveryPolicy(t *testing.T) {
	readme := docFile(t, "README.md")
	m := regexp.MustCompile("The simulator's (\\d+) policies:").FindStringSubmatchIndex(readme)
	if m == nil {
		t.Fatal("README.md has no \"The simulator's N policies:\" paragraph")
	}
	para, _, _ := strings.Cut(readme[m[0]:], "\n\n")
	names := all.Names()
	if got := readme[m[2]:m[3]]; got != strconv.Itoa(len(names)) {
		t.Errorf("README.md says %s policies; %d are registered", got, len(names))
	}
	for _, n := range names {
		if !strings.Contains(para, "`"+n+"`") {
			t.Errorf("README.md's policy paragraph does not name %s", n)
		}
	}
}
