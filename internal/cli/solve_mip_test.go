//go:build highs

package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// TestSolveMIPMatchesOnion: the time-indexed MIP solved by lexmax (HiGHS) and onion
// peeling are independent methods; on every hand-solved TAS instance and the quickstart
// they must give the same sorted utility vector, for every lexmax method that applies.
func TestSolveMIPMatchesOnion(t *testing.T) {
	files, err := filepath.Glob("../../testdata/tas/*.json")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../testdata/quickstart.json")
	type out struct {
		Status          string    `json:"status"`
		Method          string    `json:"method"`
		SortedUtilities []float64 `json:"sorted_utilities"`
		Exact           bool      `json:"exact"`
		Verification    struct {
			OK bool `json:"ok"`
		} `json:"verification"`
	}
	parse := func(t *testing.T, s string) out {
		t.Helper()
		var o out
		if err := json.Unmarshal([]byte(s), &o); err != nil {
			t.Fatalf("bad JSON: %v\n%s", err, s)
		}
		return o
	}
	variants := [][]string{
		{"--lexmax", "ordered"},
		{"--lexmax", "waterfill", "--saturation", "probe"},
		{"--lexmax", "waterfill", "--saturation", "milp"},
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, onionOut, stderr := runCLI(context.Background(), "", "solve", f, "-o", "json")
			if filepath.Base(f) == "infeasible.json" {
				if code != ExitFailed {
					t.Fatalf("onion exit %d, want 1: %s", code, stderr)
				}
				code, _, stderr = runCLI(context.Background(), "", "solve", f, "--method", "mip", "--solver", "highs", "-o", "json")
				if code != ExitFailed {
					t.Fatalf("mip exit %d, want 1: %s", code, stderr)
				}
				return
			}
			if code != ExitOK {
				t.Fatalf("onion exit %d: %s", code, stderr)
			}
			onion := parse(t, onionOut)
			for _, v := range variants {
				args := append([]string{"solve", f, "--method", "mip", "--solver", "highs", "-o", "json"}, v...)
				code, mipOut, stderr := runCLI(context.Background(), "", args...)
				if code != ExitOK {
					t.Fatalf("%v: exit %d: %s", v, code, stderr)
				}
				mip := parse(t, mipOut)
				if mip.Method != "mip" || !mip.Verification.OK {
					t.Fatalf("%v: method %q, verification %v", v, mip.Method, mip.Verification.OK)
				}
				// Onion's vector is exact only when it says so; an inexact onion may be
				// lexicographically smaller, never larger.
				c := sched.CompareSorted(mip.SortedUtilities, onion.SortedUtilities, 1e-6)
				if onion.Exact && c != 0 || !onion.Exact && c < 0 {
					t.Errorf("%v: mip %v, onion %v (exact %v)", v, mip.SortedUtilities, onion.SortedUtilities, onion.Exact)
				}
			}
		})
	}
}
