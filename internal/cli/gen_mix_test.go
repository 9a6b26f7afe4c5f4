package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// gen --mix writes exactly the mix's class counts; a bad mix, or a mix for another
// family, is exit 2 naming --mix.
func TestGenMix(t *testing.T) {
	for _, c := range []struct {
		mix  string
		want map[string]int
	}{
		{"0.1,0.65,0.25", map[string]int{"critical": 2, "sensitive": 13, "insensitive": 5}},
		{"0.6, 0.15, 0.25", map[string]int{"critical": 12, "sensitive": 3, "insensitive": 5}},
		{"0,0,1", map[string]int{"insensitive": 20}},
	} {
		code, out, errOut := runCLI(context.Background(), "", "gen", "--family", "cora", "--jobs", "20", "--seed", "2", "--mix", c.mix)
		if code != 0 {
			t.Fatalf("--mix %s: exit %d: %s", c.mix, code, errOut)
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
				t.Errorf("--mix %s: %v jobs per class, want %v", c.mix, got, c.want)
				break
			}
		}
	}
	for _, args := range [][]string{
		{"--mix", "0.5,0.5,0.5"},
		{"--mix", "0.5,0.5"},
		{"--mix", "-0.2,0.6,0.6"},
		{"--mix", "a,b,c"},
		{"--mix", "NaN,0.5,0.5"},
		{"--family", "rush", "--mix", "0.2,0.6,0.2"},
	} {
		code, _, errOut := runCLI(context.Background(), "", append([]string{"gen", "--jobs", "5"}, args...)...)
		if code != ExitBadUsage || !strings.Contains(errOut, "--mix") {
			t.Errorf("gen %v: exit %d, stderr %q; want exit 2 naming --mix", args, code, errOut)
		}
	}
}
