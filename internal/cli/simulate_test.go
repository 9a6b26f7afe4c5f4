package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sim"
)

// stripTiming removes every "timing" key, the only place wall-clock figures may be.
func stripTiming(t *testing.T, out string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "timing")
			for _, y := range x {
				strip(y)
			}
		case []any:
			for _, y := range x {
				strip(y)
			}
		}
	}
	strip(v)
	return v
}

func genWorkload(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(context.Background(), "", append([]string{"gen"}, args...)...)
	if code != 0 {
		t.Fatalf("gen %v: exit %d: %s", args, code, errOut)
	}
	path := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The output does not depend on how many workers ran the replications, and the
// same seed gives the same bytes (once timing is removed).
func TestSimulateDeterministic(t *testing.T) {
	path := genWorkload(t, "--family", "cora", "--jobs", "12", "--seed", "3")
	args := []string{"simulate", path, "--policies", "fifo,fair,edf,edf-n,rrh", "--seed", "7", "--replications", "3", "--bound", "--slot", "120", "-o", "json", "--check"}
	var first any
	for _, workers := range []string{"1", "2", "1"} {
		code, out, errOut := runCLI(context.Background(), "", append(args, "--workers", workers)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		got := stripTiming(t, out)
		if first == nil {
			first = got
			continue
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Fatalf("--workers %s changed the output:\n%s", workers, diff)
		}
	}
	// The shape the issue asks for, and the bound holds.
	var out struct {
		Workload string
		Seed     uint64
		Policies []struct {
			Name            string
			Jobs            []map[string]any
			SortedUtilities []float64 `json:"sorted_utilities"`
			VsBound         *struct {
				FirstShortPosition int `json:"first_short_position"`
			} `json:"vs_bound"`
			Timing map[string]any
		}
		Bound *struct {
			SortedUtilities []float64 `json:"sorted_utilities"`
			Exact           bool
		}
		Replications []struct {
			Seed     uint64
			Policies []struct {
				Name       string
				SumUtility float64 `json:"sum_utility"`
			}
		}
		Summary []struct {
			Name       string
			Seeds      int
			SumUtility struct{ Mean, Std float64 } `json:"sum_utility"`
		}
	}
	_, raw, _ := runCLI(context.Background(), "", args...)
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatal(err)
	}
	if out.Seed != 7 || len(out.Policies) != 5 || out.Bound == nil || len(out.Replications) != 2 || out.Replications[1].Seed != 9 {
		t.Fatalf("unexpected output shape: %s", raw)
	}
	if len(out.Summary) != 5 {
		t.Fatalf("summary of %d policies", len(out.Summary))
	}
	for k, sum := range out.Summary {
		var xs []float64
		xs = append(xs, sumOf(out.Policies[k].SortedUtilities))
		for _, r := range out.Replications {
			xs = append(xs, r.Policies[k].SumUtility)
		}
		mean := (xs[0] + xs[1] + xs[2]) / 3
		if sum.Name != out.Policies[k].Name || sum.Seeds != 3 || math.Abs(sum.SumUtility.Mean-mean) > 1e-9*max(1, mean) {
			t.Fatalf("summary %+v, sums %v", sum, xs)
		}
	}
	for _, p := range out.Policies {
		if len(p.Jobs) != 12 || p.VsBound == nil || p.Timing == nil {
			t.Fatalf("%s: %d jobs, vs_bound %v, timing %v", p.Name, len(p.Jobs), p.VsBound, p.Timing)
		}
		for _, k := range []string{"id", "arrival", "completion", "response", "utility", "deadline", "met"} {
			if _, ok := p.Jobs[0][k]; !ok {
				t.Fatalf("%s: job without %q: %v", p.Name, k, p.Jobs[0])
			}
		}
		for k := range p.SortedUtilities {
			if p.SortedUtilities[k] != out.Bound.SortedUtilities[k] {
				if p.SortedUtilities[k] > out.Bound.SortedUtilities[k] {
					t.Fatalf("%s beats the bound at position %d", p.Name, k+1)
				}
				if p.VsBound.FirstShortPosition != k+1 {
					t.Fatalf("%s: first short position %d, the vectors first differ at %d", p.Name, p.VsBound.FirstShortPosition, k+1)
				}
				break
			}
		}
	}
}

func sumOf(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestSimulateBadInput(t *testing.T) {
	good := genWorkload(t, "--family", "cora", "--jobs", "3")
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"cluster": {"pools": [{"name": "c", "slots": 1}]}, "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "gpu", "tasks": 1, "task_runtimes": [1]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(t.TempDir(), "slow.json")
	if err := os.WriteFile(slow, []byte(`{"cluster": {"workers": [{"slots": {"c": 1}, "speed": 1e-300}]}, "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	both := filepath.Join(t.TempDir(), "both.json")
	if err := os.WriteFile(both, []byte(`{"cluster": {"pools": [{"name": "c", "slots": 1}]}, "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1], "data": 1, "task_data": [2]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// slots: 0 used to be accepted and then reported as a stuck run, exit 1 (issue 32).
	noSlots := filepath.Join(t.TempDir(), "noslots.json")
	if err := os.WriteFile(noSlots, []byte(`{"cluster": {"pools": [{"name": "c", "slots": 0}]}, "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", bad}, `jobs[0].stages[0].pool: unknown pool "gpu"`},
		{[]string{"simulate", noSlots, "--bound"}, `cluster.pools[0].slots: must be >= 1: jobs[0].stages[0] runs on pool "c"`},
		// Lax inputs that used to run (issue 27, item 7).
		{[]string{"simulate", good, "--policies", "fifo,edf,fifo"}, "--policies: fifo is given twice (positions 1 and 3)"},
		{[]string{"simulate", good, "--workers", "-1"}, "--workers -1: need at least 1"},
		{[]string{"simulate", good, "--seed", "18446744073709551615", "--replications", "2"}, "the seeds would pass 18446744073709551615"},
		{[]string{"simulate", good, "--replications", "20000000"}, "more runs than the limit of 16777216"},
		{[]string{"simulate", good, "--policies", "fifo,edf", "--replications", "10000000"}, "more runs than the limit"},
		{[]string{"simulate", slow}, "cluster.workers[0].speed: must be >= 0.001"},
		{[]string{"simulate", both}, `jobs[0].stages[0]: must give at most one of "data" and "task_data"`},
		{[]string{"simulate", good, "--policies", "fifo,lottery"}, `unknown policy "lottery"`},
		{[]string{"simulate", good, "--slot", "0"}, "--slot"},
		{[]string{"simulate", good, "--replications", "0"}, "--replications"},
		{[]string{"simulate", filepath.Join(t.TempDir(), "missing.json")}, "no such file"},
		{[]string{"gen", "--family", "nope"}, "--family"},
		{[]string{"gen", "--jobs", "0"}, "at least 1 job"},
	} {
		code, _, errOut := runCLI(context.Background(), "", tc.args...)
		if code != ExitBadUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 saying %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestSimulateStdinTableAndPlots(t *testing.T) {
	doc, err := os.ReadFile(genWorkload(t, "--family", "rds", "--jobs", "2"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	code, out, errOut := runCLI(context.Background(), string(doc), "simulate", "-", "--policies", "fifo,edf", "-o", "table", "--plots", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "policy") || !strings.Contains(out, "edf") || strings.Contains(errOut, "simulate") {
		t.Fatalf("table:\n%s\nstderr (no progress bar when not a terminal):\n%s", out, errOut)
	}
	for _, f := range []string{"utility-cdf", "delta-box", "gantt-fifo", "gantt-edf", "utilization-map", "utilization-reduce"} {
		for _, ext := range []string{".svg", ".png"} {
			if st, err := os.Stat(filepath.Join(dir, f+ext)); err != nil || st.Size() == 0 {
				t.Errorf("figure %s%s: %v", f, ext, err)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bounds.png")); err == nil {
		t.Error("a bounds figure without --bound")
	}
}

func TestSimulateInterrupted(t *testing.T) {
	path := genWorkload(t, "--family", "cora", "--jobs", "5")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, out, _ := runCLI(ctx, "", "simulate", path, "-o", "json")
	if code != ExitFailed || !strings.Contains(out, `"interrupted": true`) {
		t.Fatalf("exit %d, output %s", code, out)
	}
}

func TestGenSWF(t *testing.T) {
	// Without --jobs the whole trace is kept (issue 29: it used to keep 100).
	code, out, errOut := runCLI(context.Background(), "", "gen", "--family", "swf", "--swf", "../../workload/testdata/sample.swf", "--decay", "0.5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "kept 4 of 9 jobs on 8 processors") || !strings.Contains(errOut, "dropped 5:\n") || !strings.Contains(errOut, "\n  1 wider than the machine\n") || strings.Contains(errOut, "; cut ") {
		t.Fatalf("stderr does not report what was dropped: %s", errOut)
	}
	// --load 0.5 stretches the offered load of 4/3: arrivals 8/3 as far apart (job 7's
	// 60 s becomes 160 s).
	code, scaled, errOut := runCLI(context.Background(), "", "gen", "--family", "swf", "--swf", "../../workload/testdata/sample.swf", "--load", "0.5")
	if code != 0 || !strings.Contains(errOut, "offered load 1.33 as traced; inter-arrival times × 2.667 for --load 0.5") || !strings.Contains(scaled, `"arrival": 160`) {
		t.Fatalf("--load: exit %d: %s\n%.600s", code, errOut, scaled)
	}
	if code, _, errOut := runCLI(context.Background(), "", "gen", "--family", "swf", "--swf", "../../workload/testdata/sample.swf", "--load", "-1"); code != ExitBadUsage || !strings.Contains(errOut, "--load -1") {
		t.Fatalf("--load -1: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"sigmoid"`) || !strings.Contains(out, `"after"`) {
		t.Fatalf("workload: %s", out)
	}
	if code, _, errOut := runCLI(context.Background(), "", "gen", "--family", "swf"); code != ExitBadUsage || !strings.Contains(errOut, "--swf") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// TestSimulateGolden pins the whole JSON (timing removed) of a small heterogeneous
// Hadoop-1 workflow workload with a capacity trace under every baseline and the bound.
// Rewrite with -update after a deliberate change, and read the diff.
func TestSimulateGolden(t *testing.T) {
	code, out, errOut := runCLI(context.Background(), "", "simulate", "testdata/simulate/hadoop1.json",
		"--policies", "fifo,fair,edf,edf-n,rrh", "--seed", "4", "--bound", "--slot", "30", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	got, err := json.MarshalIndent(stripTiming(t, out), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := "testdata/simulate/hadoop1.golden.json"
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)+"\n"); diff != "" {
		t.Fatalf("output changed (-want +got):\n%s", diff)
	}
}

// On a terminal the progress bar goes to stderr; the JSON on stdout stays clean.
func TestSimulateProgressOnTerminal(t *testing.T) {
	path := genWorkload(t, "--family", "cora", "--jobs", "4")
	var out, errOut strings.Builder
	code := Main(context.Background(), []string{"simulate", path, "-o", "json", "--replications", "2"},
		Streams{In: strings.NewReader(""), Out: &out, Err: &errOut, IsTerminal: true})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "simulate") {
		t.Fatalf("no progress bar on stderr: %q", errOut.String())
	}
	stripTiming(t, out.String()) // fails unless stdout is pure JSON
}

// A run that cannot finish (the capacity ends at 0 with work left) exits 1 and says
// which job is stuck; a bound too large for --slot exits 2 with the policies' results
// printed and a --slot that fits named, and that slot runs.
func TestSimulateFailures(t *testing.T) {
	stuck := filepath.Join(t.TempDir(), "stuck.json")
	if err := os.WriteFile(stuck, []byte(`{"cluster": {"pools": [{"name": "c", "slots": 1}], "capacity": [[0, {"c": 0}]]},
	 "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(context.Background(), "", "simulate", stuck, "--policies", "fifo"); code != ExitFailed || !strings.Contains(errOut, "job a never completed") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := genWorkload(t, "--family", "cora", "--jobs", "3")
	code, out, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", "fifo", "--bound", "--slot", "1e-6", "-o", "json")
	if code != ExitBadUsage || !strings.Contains(errOut, "no bound for 1 of 1 seeds") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res simulateJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	var fits float64
	if len(res.Policies) != 1 || res.Policies[0].SortedUtilities == nil || res.Bound != nil || res.Policies[0].VsBound != nil {
		t.Fatalf("want FIFO's results without a bound or gaps: %.400s", out)
	}
	if _, err := fmt.Sscanf(res.BoundError[strings.LastIndex(res.BoundError, "--slot "):], "--slot %g fits", &fits); err != nil {
		t.Fatalf("bound_error %q names no slot that fits: %v", res.BoundError, err)
	}
	if code, out, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", "fifo", "--bound", "--slot", fmt.Sprint(fits), "-o", "json"); code != 0 || !strings.Contains(out, `"sum_bound"`) {
		t.Fatalf("--slot %g: exit %d: %s", fits, code, errOut)
	}
}

// A bound stopped by --bound-time-limit keeps the policies' results, says where it
// stopped and exits 1; a slot longer than most deadlines is warned about.
func TestSimulateBoundTimeLimitAndVacuity(t *testing.T) {
	path := genWorkload(t, "--family", "cora", "--jobs", "20")
	code, out, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", "fifo,edf", "--bound", "--bound-time-limit", "1ns", "-o", "table")
	if code != ExitFailed || !strings.Contains(errOut, "stopped at --bound-time-limit 1ns") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "\nfifo ") || !strings.Contains(out, "\nedf ") || !strings.Contains(out, "bound: none (stopped at --bound-time-limit 1ns") {
		t.Fatalf("the policies' table and the missing bound's line:\n%s", out)
	}
	if strings.Contains(errOut, "warning") {
		t.Fatalf("a 60 s slot on the cora family is not near-vacuous: %s", errOut)
	}
	code, _, errOut = runCLI(context.Background(), "", "simulate", path, "--policies", "fifo", "--bound", "--slot", "100000", "-o", "json")
	if code != 0 || !strings.Contains(errOut, "warning: the bound's slot of 100000 s is longer than the deadlines of 20 of the 20 jobs") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// Gaps to a lexmax vector that is not proven read "unproven" in the table (the
// summary leaves them out of its min gap: sweep.TestReplicateSummaryUnprovenGaps).
func TestSimulateUnprovenGaps(t *testing.T) {
	m := func(name string, sum float64) *sim.Metrics {
		return &sim.Metrics{Name: name, SortedUtilities: []float64{0, sum}, SumUtility: sum, Utilization: map[string]float64{}}
	}
	proven := &sim.BoundResult{SortedUtilities: []float64{0.5, 2}, MinUtility: 0.5, SumUtility: 2.5, SumBound: 3, Exact: true, SlotSeconds: 60}
	unproven := &sim.BoundResult{SortedUtilities: []float64{0.5, 2}, MinUtility: 0.5, SumUtility: 2.5, SumBound: 3, Exact: false, SlotSeconds: 60}
	a, b := m("fifo", 1), m("fifo", 2)
	a.CompareToBound(unproven, 0)
	b.CompareToBound(proven, 0)
	out := &simulateJSON{Seed: 1, Policies: []*sim.Metrics{a}, Bound: unproven,
		Replications: []replication{{Seed: 2, Policies: []*sim.Metrics{b}, Bound: proven}}}
	var w strings.Builder
	writeSimTable(&w, out)
	lines := strings.Split(w.String(), "\n")
	if !strings.Contains(lines[4], "unproven") || strings.Contains(lines[10], "unproven") {
		t.Fatalf("want the first seed's gaps unproven, the second's not:\n%s", w.String())
	}
}

// The seeds of --replications end at 2^64−1 exactly: no wrap, and the last seed runs.
func TestSimulateLastSeeds(t *testing.T) {
	good := genWorkload(t, "--family", "cora", "--jobs", "2")
	code, out, errOut := runCLI(context.Background(), "", "simulate", good, "--policies", "fifo", "--seed", "18446744073709551614", "--replications", "2", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"seed": 18446744073709551615`) {
		t.Fatalf("the last seed did not run:\n%.400s", out)
	}
}

// On a terminal a bound that leaves the sweep says how many jobs it has settled.
func TestSimulateBoundProgressOnTerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tied.json")
	if err := os.WriteFile(path, []byte(`{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [
	  {"id": "a", "utility": {"type": "step", "value": 1, "deadline": 2}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [2]}]},
	  {"id": "b", "utility": {"type": "step", "value": 1, "deadline": 2}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [2]}]},
	  {"id": "c", "utility": {"type": "step", "value": 1, "deadline": 2}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [2]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	code := Main(context.Background(), []string{"simulate", path, "--policies", "fifo", "--bound", "--slot", "1", "-o", "json"},
		Streams{In: strings.NewReader(""), Out: &out, Err: &errOut, IsTerminal: true})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "bound, seed 1: 3 of 3 jobs settled") {
		t.Fatalf("no bound progress on stderr: %q", errOut.String())
	}
}

// simulate --bound --plots draws the bounds figure of the first seed, and the numbers
// it writes are the run's JSON: each policy's sum and min utility in --policies order,
// the sum bound and the lexmax bound's minimum named in the legend (the sum bound, not
// the lexmax vector's sum, which bounds no run's sum).
func TestSimulatePlotsTheBoundsFigureOfTheJSON(t *testing.T) {
	path := genWorkload(t, "--family", "cora", "--jobs", "20", "--seed", "2")
	dir := t.TempDir()
	policies := "fifo,fair,edf,edf-n,rrh,cora,rush,oracle"
	code, out, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", policies, "--bound", "--slot", "60", "-o", "json", "--plots", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res simulateJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	b := res.Bound
	if b == nil || len(res.Policies) != 8 {
		t.Fatalf("bound %v, %d policies", b, len(res.Policies))
	}
	g := func(x float64) string { return fmt.Sprintf("%.4g", x) }
	if g(b.SumBound) == g(b.SumUtility) {
		t.Fatalf("the sum bound %v and the lexmax vector's sum %v print alike: pick a workload that tells them apart", b.SumBound, b.SumUtility)
	}
	if st, err := os.Stat(filepath.Join(dir, "bounds.png")); err != nil || st.Size() == 0 {
		t.Fatalf("bounds.png: %v", err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "bounds.svg"))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range regexp.MustCompile(`>([^<]*)</text>`).FindAllStringSubmatch(string(svg), -1) {
		texts = append(texts, html.UnescapeString(m[1]))
	}
	var sums, mins []string
	for _, m := range res.Policies {
		sums, mins = append(sums, g(m.SumUtility)), append(mins, g(m.MinUtility))
	}
	contains := func(run []string) bool {
		for i := range texts {
			if i+len(run) <= len(texts) && slices.Equal(texts[i:i+len(run)], run) {
				return true
			}
		}
		return false
	}
	if !contains(sums) || !contains(mins) {
		t.Errorf("the figure's texts %q do not list the sums %q and the minima %q in --policies order", texts, sums, mins)
	}
	if !slices.Contains(texts, "sum bound (transportation, proven): "+g(b.SumBound)) || !slices.Contains(texts, "lexmax bound's minimum: "+g(b.MinUtility)) {
		t.Errorf("the legend %q does not name the sum bound %s and the lexmax minimum %s", texts, g(b.SumBound), g(b.MinUtility))
	}
}
