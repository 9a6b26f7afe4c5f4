package tas

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

var updateAlg3 = flag.Bool("update-alg3", false, "rewrite testdata/alg3-measurement.txt from TestAlg3Measurement")

// alg3Case is one row of the measurement: instances of one size class and one utility
// family, drawn from their own seeded stream.
type alg3Case struct {
	size, family string
	instances    int
	delta        float64 // Alg. 3's Δ; 0 = DefaultAlg3Delta
}

// alg3Row is what one case measured. For each bottleneck rule: schedules with the exact
// sorted utility vector, feasible ones with a lower vector, and target completion times
// that no schedule meets. Over every sequence of line-13 choices (tiny instances only):
// instances where some sequence is optimal, where none is, and where every one is
// infeasible.
type alg3Row struct {
	alg3Case
	optimal, worse, infeasible          [3]int
	someOptimal, noneOptimal, allInfeas int
	noBottleneck                        int // instances with a layer whose bisection found no failing level (first-failing run)
}

var alg3Rules = [3]Alg3Bottleneck{FirstFailing, LowestIndex, HighestIndex}

// genAlg3 draws an instance in Alg. 3's model: one resource of constant capacity C, no
// release times or caps, total demand within C·T (so the exact answer exists).
//
//	tiny:  2–5 jobs, 2–6 slots, C 1–4, demands 1..C·T/2+1
//	small: 5–10 jobs, 5–16 slots, C 1–6, demands 1..max(1, 2·C·T/n)
//	large: 20–50 jobs, 10–40 slots, C 1–20, demands 1..max(1, 2·C·T/n)
//
// Utility families: int (tables of integers 0–9, non-increasing: values tie often), real
// (tables of reals in [0, 10)), sigmoid (rush.txt §IV, W/(1+e^{β(t−B)}) — the paper
// prints e^{β(B−T)}, which would increase with T — with W uniform in [1, 5] (§V-B: "randomly
// selected from 1 to 5"; real, so that jobs do not tie), budget B in 1..T, β in {0.5, 1,
// 2, 5}), linear (rush.txt §IV, max(β(B−t)+W, 0), W in 1..5, B in 1..T, β in
// {0.5, 1, 2}).
func genAlg3(rng *rand.Rand, size, family string) *sched.Instance {
	for {
		var n, T, C, maxDemand int
		switch size {
		case "tiny":
			n, T, C = 2+rng.IntN(4), 2+rng.IntN(5), 1+rng.IntN(4)
			maxDemand = C*T/2 + 1
		case "small":
			n, T, C = 5+rng.IntN(6), 5+rng.IntN(12), 1+rng.IntN(6)
			maxDemand = max(1, 2*C*T/n)
		case "large":
			n, T, C = 20+rng.IntN(31), 10+rng.IntN(31), 1+rng.IntN(20)
			maxDemand = max(1, 2*C*T/n)
		default:
			panic("unknown size " + size)
		}
		s := spec{caps: constCaps(T, C)}
		total := 0
		for range n {
			d := 1 + rng.IntN(maxDemand)
			total += d
			s.demand = append(s.demand, []int{d})
			s.util = append(s.util, genAlg3Utility(rng, family, T))
		}
		if total <= C*T {
			return s.instance()
		}
	}
}

func genAlg3Utility(rng *rand.Rand, family string, T int) sched.Utility {
	switch family {
	case "int", "real":
		v := make([]float64, T)
		for k := range v {
			if family == "int" {
				v[k] = float64(rng.IntN(10))
			} else {
				v[k] = 10 * rng.Float64()
			}
		}
		slices.Sort(v)
		slices.Reverse(v)
		return sched.Table{Values: v}
	case "sigmoid":
		return sched.Sigmoid{Priority: 1 + 4*rng.Float64(), Deadline: float64(1 + rng.IntN(T)),
			Decay: []float64{0.5, 1, 2, 5}[rng.IntN(4)]}
	case "linear":
		return sched.Linear{Priority: float64(1 + rng.IntN(5)), Budget: float64(1 + rng.IntN(T)),
			Slope: []float64{0.5, 1, 2}[rng.IntN(3)]}
	}
	panic("unknown family " + family)
}

// alg3Cases is the measurement the README reports. The last row repeats tiny real
// tables with a coarse Δ (5% of the utility range).
var alg3Cases = []alg3Case{
	{"tiny", "int", 1000, 0},
	{"tiny", "real", 1000, 0},
	{"tiny", "sigmoid", 1000, 0},
	{"tiny", "linear", 1000, 0},
	{"small", "int", 500, 0},
	{"small", "real", 500, 0},
	{"small", "sigmoid", 500, 0},
	{"small", "linear", 500, 0},
	// Large instances only where OnionPeel proves its answer within its branch budget:
	// with many tied values (int, linear) at this size it often cannot.
	{"large", "real", 200, 0},
	{"large", "sigmoid", 200, 0},
	{"tiny", "real", 1000, 0.5},
}

// TestAlg3Measurement runs RUSH's Alg. 3 as printed (Alg3) on seeded random instances
// and compares it with the exact lexmax: OnionPeel, which must return a proven answer,
// and on tiny instances brute force over every vector of completion slots as well. Every
// schedule Alg. 3 returns is checked independently (checkSchedule), every infeasible
// answer is confirmed by the brute-force prefix test, and no answer may beat the exact
// one. The table must equal testdata/alg3-measurement.txt, which the README quotes;
// -update-alg3 rewrites it. With -short only the tiny rows run (each row has its own
// seeded stream) and are compared with their lines of the file.
func TestAlg3Measurement(t *testing.T) {
	path := filepath.Join("testdata", "alg3-measurement.txt")
	var b strings.Builder
	b.WriteString(alg3Header)
	var rows []string
	for ci, c := range alg3Cases {
		if testing.Short() && c.size != "tiny" {
			continue
		}
		row := measureAlg3(t, c, rand.New(rand.NewPCG(2026, uint64(ci)))).String()
		rows = append(rows, row)
		b.WriteString(row)
		b.WriteByte('\n')
	}
	got := b.String()
	t.Logf("\n%s", got)
	if *updateAlg3 {
		if testing.Short() {
			t.Fatal("-update-alg3 needs the full measurement: run without -short")
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-alg3 to create it)", err)
	}
	if !testing.Short() {
		if string(want) != got {
			t.Fatalf("the measurement differs from %s (the README quotes it); rerun with -update-alg3 and update the README if the change is intended.\nwant:\n%s\ngot:\n%s", path, want, got)
		}
		return
	}
	lines := strings.Split(string(want), "\n")
	for _, row := range rows {
		if !slices.Contains(lines, row) {
			t.Errorf("row %q is not in %s", row, path)
		}
	}
}

const alg3Header = `# RUSH Alg. 3 as printed (formulations/tas.Alg3) against the exact lexmax (OnionPeel;
# brute force too on tiny instances). Generated by TestAlg3Measurement (go test
# ./formulations/tas -run TestAlg3Measurement -v; -update-alg3 rewrites this file).
# Per reading of line 13 (first-failing, lowest-index, highest-index; see Alg3Bottleneck):
# instances where Alg. 3's schedule has the exact sorted utility vector (opt), a feasible
# but lower one (worse), or target completion times no schedule meets (infeas).
# "every choice" (tiny only): over all sequences of line-13 choices among the jobs line 7
# fails for, instances where some sequence is optimal / none is / every one is infeasible.
# "no-bn": instances with a layer whose bisection tested no failing level (first-failing).
# size  family  delta   n  | first-failing  opt worse infeas | lowest-index | highest-index | every choice some none all-infeas | no-bn
`

func (r alg3Row) String() string {
	delta := "1e-9"
	if r.delta != 0 {
		delta = fmt.Sprint(r.delta)
	}
	every := "   -    -    -"
	if r.size == "tiny" {
		every = fmt.Sprintf("%4d %4d %4d", r.someOptimal, r.noneOptimal, r.allInfeas)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %-7s %-4s %4d", r.size, r.family, delta, r.instances)
	for ri := range alg3Rules {
		fmt.Fprintf(&b, " | %4d %4d %4d", r.optimal[ri], r.worse[ri], r.infeasible[ri])
	}
	fmt.Fprintf(&b, " | %s | %d", every, r.noBottleneck)
	return b.String()
}

func measureAlg3(t *testing.T, c alg3Case, rng *rand.Rand) alg3Row {
	t.Helper()
	row := alg3Row{alg3Case: c}
	ctx := context.Background()
	for k := range c.instances {
		in := genAlg3(rng, c.size, c.family)
		ex, err := OnionPeel(ctx, in, Options{MaxBranches: 1 << 18})
		if err != nil {
			t.Fatalf("%v instance %d: OnionPeel: %v", c, k, err)
		}
		if !ex.Exact {
			t.Fatalf("%v instance %d: OnionPeel ran out of branches; the reference must be proven", c, k)
		}
		want := ex.Schedule.Sorted
		if c.size == "tiny" {
			if bf := bruteForce(in); !slices.Equal(bf, want) {
				t.Fatalf("%v instance %d: OnionPeel %v, brute force %v\n%s", c, k, want, bf, describe(in))
			}
		}
		for ri, rule := range alg3Rules {
			res, err := Alg3(ctx, in, Alg3Options{Delta: c.delta, Bottleneck: rule})
			switch verdict := judgeAlg3(t, in, res, err, want); verdict {
			case 1:
				row.optimal[ri]++
			case 0:
				row.worse[ri]++
			case -1:
				row.infeasible[ri]++
			}
			if rule == FirstFailing && res.Stats.NoBottleneck > 0 {
				row.noBottleneck++
			}
		}
		if c.size == "tiny" {
			some, none, all := alg3EveryChoice(t, in, c.delta, want)
			if some {
				row.someOptimal++
			}
			if none {
				row.noneOptimal++
			}
			if all {
				row.allInfeas++
			}
		}
	}
	for ri := range alg3Rules {
		if row.optimal[ri]+row.worse[ri]+row.infeasible[ri] != c.instances {
			t.Fatalf("%v: counts do not add up: %+v", c, row)
		}
	}
	return row
}

// judgeAlg3 classifies one Alg3 answer: 1 optimal, 0 feasible with a lower sorted
// vector, −1 infeasible targets. It fails the test on anything else: another error, a
// schedule that does not check, an "infeasible" verdict the independent prefix test
// contradicts, or an answer better than the exact one.
func judgeAlg3(t *testing.T, in *sched.Instance, res *Alg3Result, err error, want []float64) int {
	t.Helper()
	if errors.Is(err, ErrAlg3Infeasible) {
		if res == nil || res.Schedule != nil || res.Violation == nil {
			t.Fatalf("infeasible answer without its result or violation: %+v", res)
		}
		if prefixFeasible(in, res.Deadlines) {
			t.Fatalf("Alg3 calls deadlines %v infeasible; the prefix test accepts them\n%s", res.Deadlines, describe(in))
		}
		return -1
	}
	if err != nil {
		t.Fatalf("Alg3: %v\n%s", err, describe(in))
	}
	checkSchedule(t, in, res.Schedule, res.Deadlines)
	for j, d := range res.Deadlines {
		if res.Levels[j] != in.Jobs[j].Utility.At(d) {
			t.Fatalf("job %d: level %g, U(%d) = %g", j, res.Levels[j], d, in.Jobs[j].Utility.At(d))
		}
	}
	switch c := sched.CompareSorted(res.Schedule.Sorted, want, 0); {
	case c > 0:
		t.Fatalf("Alg. 3's %v beats the exact lexmax %v\n%s", res.Schedule.Sorted, want, describe(in))
	case c == 0:
		return 1
	}
	return 0
}

// alg3EveryChoice runs Alg. 3 with every sequence of line-13 choices (an odometer over
// the candidates offered at each layer) and reports whether some sequence gives the
// exact vector, whether none does, and whether every one gives infeasible targets.
func alg3EveryChoice(t *testing.T, in *sched.Instance, delta float64, want []float64) (someOptimal, noneOptimal, allInfeasible bool) {
	t.Helper()
	script := []int{}
	allInfeasible = true
	for runs := 0; ; runs++ {
		if runs > 1000 {
			t.Fatalf("more than 1000 choice sequences on a tiny instance")
		}
		var widths []int
		res, err := alg3Run(context.Background(), in, delta, func(c []int, _ int) int {
			k := 0
			if d := len(widths); d < len(script) {
				k = script[d]
			}
			widths = append(widths, len(c))
			return c[k]
		})
		if v := judgeAlg3(t, in, res, err, want); v >= 0 {
			allInfeasible = false
			if v == 1 {
				someOptimal = true
			}
		}
		for len(script) < len(widths) {
			script = append(script, 0)
		}
		i := len(widths) - 1
		for ; i >= 0; i-- {
			if script[i]++; script[i] < widths[i] {
				break
			}
			script[i] = 0
		}
		if i < 0 {
			return someOptimal, !someOptimal, allInfeasible
		}
		script = script[:i+1]
	}
}
