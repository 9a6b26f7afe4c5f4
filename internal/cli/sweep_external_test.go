package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A sweep with an external policy (the reference Python EDF, given a parameter) runs
// whole and in shards to the same merged bytes, and each of its cells holds the
// metrics of the built-in edf's cell of the same seed.
func TestSweepExternalPolicy(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CORAOPT_CACHE") != "" {
			t.Fatalf("python3 not found (make test needs it for the reference client): %v", err)
		}
		t.Skipf("python3 not found: %v", err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "clients", "python", "examples", "edf.py"))
	doc := fmt.Sprintf(`{"workloads": ["w.json"], "policies": ["edf", {"name": "pyedf", "exec": %q, "alpha": 0.5, "timeout": 60}], "replications": 2, "seed": 5}`,
		py+" "+script)
	sweepPath := writeSweep(t, doc)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	cli(t, 0, "sweep", "run", sweepPath, "--workers", "2", "--out", whole)
	var parts []string
	for k := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("p%d.jsonl", k))
		cli(t, 0, "sweep", "run", sweepPath, "--shard", fmt.Sprintf("%d/2", k), "--workers", "1", "--out", p)
		parts = append(parts, p)
	}
	one, _ := cli(t, 0, "sweep", "merge", "--sweep", sweepPath, whole, "-o", "json", "--no-timing", "--joined", filepath.Join(dir, "j.jsonl"))
	two, _ := cli(t, 0, append(append([]string{"sweep", "merge", "--sweep", sweepPath}, parts...), "-o", "json", "--no-timing")...)
	if one != two {
		t.Fatalf("2 shards merge differently:\n%s", cmp.Diff(one, two))
	}
	bySeed := map[string]map[uint64]string{}
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, "j.jsonl"))), "\n") {
		var rec struct {
			Policy  string
			Params  map[string]any
			Seed    uint64
			Metrics json.RawMessage
			Error   string
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.Error != "" {
			t.Fatalf("record %s: %v", line, err)
		}
		if rec.Policy == "pyedf" && rec.Params["alpha"] != 0.5 {
			t.Errorf("pyedf's record lost its parameter: %s", line)
		}
		if bySeed[rec.Policy] == nil {
			bySeed[rec.Policy] = map[uint64]string{}
		}
		bySeed[rec.Policy][rec.Seed] = string(rec.Metrics)
	}
	for _, seed := range []uint64{5, 6} {
		if a, b := bySeed["edf"][seed], bySeed["pyedf"][seed]; a == "" || a != b {
			t.Errorf("seed %d: pyedf's metrics differ from edf's:\n%s", seed, cmp.Diff(a, b))
		}
	}
}
