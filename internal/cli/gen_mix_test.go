package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// gen --mix writes exactly the mix's class counts, for cora and rush, and without
// --mix the paper's 20/60/20; a bad mix, or a mix for another family, is exit 2 naming
// --mix.
func TestGenMix(t *testing.T) {
	for _, c := range []struct {
		family, mix string
		want        map[string]int
	}{
		{"cora", "0.1,0.65,0.25", map[string]int{"critical": 2, "sensitive": 13, "insensitive": 5}},
		{"cora", "0.6, 0.15, 0.25", map[string]int{"critical": 12, "sensitive": 3, "insensitive": 5}},
		{"cora", "0,0,1", map[string]int{"insensitive": 20}},
		{"cora", "", map[string]int{"critical": 4, "sensitive": 12, "insensitive": 4}},
		{"rush", "", map[string]int{"critical": 4, "sensitive": 12, "insensitive": 4}},
		{"rush", "0.6, 0.15, 0.25", map[string]int{"critical": 12, "sensitive": 3, "insensitive": 5}},
	} {
		args := []string{"gen", "--family", c.family, "--jobs", "20", "--seed", "2"}
		if c.mix != "" {
			args = append(args, "--mix", c.mix)
		}
		code, out, errOut := runCLI(context.Background(), "", args...)
		if code != 0 {
			t.Fatalf("%s --mix %q: exit %d: %s", c.family, c.mix, code, errOut)
		}
		w, err := workload.Parse([]byte(out))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, j := range w.Jobs {
			got[workload.CTClass(j.Utility.(sched.Sigmoid))]++
		}
		for k, n := range c.want {
			if got[k] != n {
				t.Errorf("%s --mix %q: %v jobs per class, want %v", c.family, c.mix, got, c.want)
				break
			}
		}
	}
	genRefused(t, "--mix", [][]string{
		{"--mix", "0.5,0.5,0.5"},
		{"--mix", "0.5,0.5"},
		{"--mix", "-0.2,0.6,0.6"},
		{"--mix", "a,b,c"},
		{"--mix", "NaN,0.5,0.5"},
		{"--family", "rds", "--mix", "0.2,0.6,0.2"},
		{"--family", "woha", "--mix", "drawn"},
	})
}

// genRefused checks that gen with each argument list exits 2 naming flag.
func genRefused(t *testing.T, flag string, argLists [][]string) {
	t.Helper()
	for _, args := range argLists {
		code, _, errOut := runCLI(context.Background(), "", append([]string{"gen", "--jobs", "5"}, args...)...)
		if code != ExitBadUsage || !strings.Contains(errOut, flag) {
			t.Errorf("gen %v: exit %d, stderr %q; want exit 2 naming %s", args, code, errOut, flag)
		}
	}
}

// gen --standalone waves --mix drawn writes the cora and rush files of before issue 28
// byte for byte (testdata/gen: written by that version), and --standalone waves with a
// mix its --mix files; a bad --standalone, or one for another family, is exit 2.
func TestGenBeforeIssue28(t *testing.T) {
	for _, c := range []struct {
		file string
		args []string
	}{
		{"cora-12-seed3-before-issue28.json", []string{"--family", "cora", "--mix", "drawn"}},
		{"rush-12-seed3-ratio1.5-before-issue28.json", []string{"--family", "rush", "--budget-ratio", "1.5", "--mix", "drawn"}},
		{"cora-12-seed3-mix-before-issue28.json", []string{"--family", "cora", "--mix", "0.3,0.45,0.25"}},
	} {
		want, err := os.ReadFile(filepath.Join("testdata", "gen", c.file))
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"gen", "--jobs", "12", "--seed", "3", "--standalone", "waves"}, c.args...)
		code, out, errOut := runCLI(context.Background(), "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if out != string(want) {
			t.Errorf("%v: output differs from testdata/gen/%s", args, c.file)
		}
		// Without the options the file changes (measured runtimes, exact classes) and
		// still loads.
		bare := append([]string{"gen", "--jobs", "12", "--seed", "3"}, c.args[:len(c.args)-2]...) // c.args end with --mix
		code, out, errOut = runCLI(context.Background(), "", bare...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", bare, code, errOut)
		}
		if out == string(want) {
			t.Errorf("%v: gave the file of before issue 28", bare)
		}
		if _, err := workload.Parse(want); err != nil {
			t.Errorf("testdata/gen/%s no longer loads: %v", c.file, err)
		}
	}
	genRefused(t, "--standalone", [][]string{
		{"--standalone", "mean"},
		{"--family", "rds", "--standalone", "waves"},
		{"--family", "rush", "--standalone", ""},
	})
}
