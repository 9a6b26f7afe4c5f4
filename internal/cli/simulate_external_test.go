package cli

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An exec: policy runs beside the built-ins; one that breaks the protocol ends the
// run with exit 1 and the round, time and field, after the runs that finished are
// printed (as for Ctrl-C), and its stderr comes out prefixed.
func TestSimulateExternalFailure(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "external", "garbage.sh"))
	path := genWorkload(t, "--family", "cora", "--jobs", "8", "--seed", "3")
	code, out, errOut := runCLI(context.Background(), "", "simulate", path, "--workers", "1", "-o", "json",
		"--policies", "fifo,exec:bad="+sh+" "+script)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, errOut)
	}
	for _, want := range []string{"--policies bad, seed 1", "round 1 (t=", "assign[0].count: must be an integer", "printed the runs that finished", "[bad] not json\n"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	var res struct {
		Policies    []struct{ Name string }
		Interrupted bool
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not the JSON of the finished runs: %v\n%s", err, out)
	}
	if !res.Interrupted || len(res.Policies) != 1 || res.Policies[0].Name != "fifo" {
		t.Errorf("printed %+v, want fifo's run marked interrupted", res)
	}
}

// --policies refuses an exec: entry without a command, one named like a registered
// policy, and an unclosed quote, with exit 2.
func TestSimulateExternalSpecErrors(t *testing.T) {
	path := genWorkload(t, "--family", "cora", "--jobs", "4", "--seed", "3")
	for _, c := range []struct{ spec, want string }{
		{"exec:mine", "no = after the name"},
		{"exec:edf=python3 x.py", "registered policy's name"},
		{"exec:a b=x", "letters, digits"},
		{"exec:mine=python3 'x.py", "unclosed ' quote"},
		{"exec:mine=", "empty command"},
		{"exec:mine=/no/such/program", "starting /no/such/program"},
	} {
		code, _, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", c.spec)
		want := 2
		if strings.HasPrefix(c.want, "starting") {
			want = 1
		}
		if code != want || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d (want %d), stderr %q lacks %q", c.spec, code, want, errOut, c.want)
		}
	}
}
