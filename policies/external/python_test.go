package external

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// python3 is the interpreter the reference client's tests use. `make test` (which
// sets CORAOPT_CACHE) requires it — Debian ships it; a plain `go test` without it
// skips.
func python3(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CORAOPT_CACHE") != "" {
			t.Fatalf("python3 not found (make test needs it for the reference client): %v", err)
		}
		t.Skipf("python3 not found: %v", err)
	}
	return p
}

// pythonExample is the Command running clients/python/examples/NAME.py.
func pythonExample(t testing.TB, label, name string) Command {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "clients", "python", "examples", name+".py"))
	if err != nil {
		t.Fatal(err)
	}
	return Command{Name: label, Argv: []string{python3(t), script}}
}

// The reference Python client's FIFO and EDF give the bytes of the built-in fifo and
// edf, outside timing, on every generated family (issue 30's acceptance).
func TestPythonFIFOReproducesBuiltin(t *testing.T) { pythonReproduces(t, "fifo") }

func TestPythonEDFReproducesBuiltin(t *testing.T) { pythonReproduces(t, "edf") }

// Each runs as it is (a standing order, one round) and with per_round (a round at every
// instant, the protocol-1 way).
func pythonReproduces(t *testing.T, name string) {
	for fam, w := range families(t) {
		for _, perRound := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/per_round=%v", fam, perRound), func(t *testing.T) {
				t.Parallel() // each run mostly waits for the other process
				pythonRun(t, name, w, perRound)
			})
		}
	}
}

func pythonRun(t *testing.T, name string, w *workload.Workload, perRound bool) {
	builtin, _ := all.New(name)
	want, err := sim.Measure(context.Background(), w, builtin, 11, false)
	if err != nil {
		t.Fatal(err)
	}
	cmd := pythonExample(t, "py-"+name, name)
	cmd.Params = map[string]any{"per_round": perRound}
	var stderr bytes.Buffer
	var got *sim.Metrics
	rounds := 0
	err = With(context.Background(), cmd, w, Options{Stderr: &SyncWriter{W: &stderr}}, func(p policies.Policy) error {
		var err error
		got, err = sim.Measure(context.Background(), w, p, 11, false)
		rounds = p.(interface{ session() *Session }).session().Rounds()
		return err
	})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	if g, w := canonical(t, got, name), canonical(t, want, name); !bytes.Equal(g, w) {
		t.Errorf("python %s differs from the built-in:\n got %s\nwant %s", name, g, w)
	}
	if !perRound && rounds != 1 {
		t.Errorf("the standing order took %d rounds, want 1", rounds)
	}
	if perRound && rounds <= len(w.Jobs) {
		t.Errorf("per round: %d rounds, want more than %d (the jobs)", rounds, len(w.Jobs))
	}
}
