package woha

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/workload/hadoop1"
)

// Plan sizes for large workflows (woha.txt §VI-B, Fig. 13 b: "even when the workflow
// contains more than 1400 tasks, the scheduling plan only grows to 7 KB. Under most
// cases, it stays within 2 KB"). Our encoding spends 8 bytes per TTD and a uvarint per
// requirement; msDelta is what a TTD delta-coded in whole milliseconds would cost
// instead. The test pins the encoding's arithmetic and logs the sizes; how they compare
// with 7 KB is a finding, reported, not asserted.
func TestPlanSizeLargeWorkflows(t *testing.T) {
	cfg := hadoop1.DefaultWOHAConfig()
	cfg.Workflows = 300
	ws, err := hadoop1.GenerateWOHA(3, cfg)
	if err != nil {
		t.Fatal(err)
	}
	uvlen := func(x uint64) int { return len(binary.AppendUvarint(nil, x)) }
	for _, rule := range []Rule{HLF, LPF, MPF} {
		var sizes, compact []int
		largest, within7K := 0, 0
		for i := range ws {
			w := &ws[i]
			if w.Tasks() <= 1400 {
				continue
			}
			p, _, err := SearchCap(w, Ranks(w, rule), cfg.Slots)
			if err != nil {
				t.Fatal(err)
			}
			want := uvlen(uint64(p.Cap)) + 8 + uvlen(uint64(len(p.Steps)))
			ms := want
			prev := int64(math.Round(p.Makespan * 1000))
			for _, st := range p.Steps {
				want += 8 + uvlen(uint64(st.Req))
				cur := int64(math.Round(st.TTD * 1000))
				ms += uvlen(uint64(prev-cur)) + uvlen(uint64(st.Req))
				prev = cur
			}
			if p.Size() != want {
				t.Fatalf("%s %s: Size() = %d, encoding arithmetic says %d", rule, w.ID, p.Size(), want)
			}
			if p.Size() <= 7*1024 {
				within7K++
			}
			sizes = append(sizes, p.Size())
			compact = append(compact, ms)
			largest = max(largest, w.Tasks())
		}
		if len(sizes) < 10 {
			t.Fatalf("only %d workflows above 1400 tasks", len(sizes))
		}
		sort.Ints(sizes)
		sort.Ints(compact)
		t.Logf("%s: %d workflows with > 1400 tasks (up to %d): plan size median %d B, max %d B, %d within 7 KB; ms-delta coding: median %d B, max %d B",
			rule, len(sizes), largest, sizes[len(sizes)/2], sizes[len(sizes)-1], within7K, compact[len(compact)/2], compact[len(compact)-1])
	}
}

// The three-workflow experiment (§VI-A) on the toy cluster, 64 map + 32 reduce slots,
// true runtimes equal to the estimates, for ten seeds of the reconstructed topology:
// how many of the 30 deadlines each scheduler meets and its total tardiness, beside the
// paper's Fig. 11 claims (Fair worst, EDF misses W1 and W2, FIFO misses W3, all three
// WOHA variants meet every deadline). Logged, not asserted: the numbers are a finding
// about this reconstruction; the toy cluster's own checks (work conservation, valid
// picks, every workflow finishes) are what the test asserts.
func TestThreeWorkflowExperiment(t *testing.T) {
	slots := [2]int{64, 32}
	// "-full" plans every workflow on the whole cluster (no cap search, Fig. 2 a).
	names := []string{"fifo", "fair", "edf", "woha-hlf", "woha-lpf", "woha-mpf", "woha-hlf-full", "woha-lpf-full", "woha-mpf-full"}
	met := map[string]int{}
	tardiness := map[string]float64{}
	for seed := uint64(1); seed <= 10; seed++ {
		ws := hadoop1.ThreeWorkflows(seed)
		for _, name := range names {
			opt := SchedulerConfig{Slots: slots[0] + slots[1]}
			if strings.HasSuffix(name, "-full") {
				opt.FixedCap = opt.Slots
			}
			opt.Rule = map[string]Rule{"hlf": HLF, "lpf": LPF, "mpf": MPF}[strings.TrimPrefix(strings.TrimSuffix(name, "-full"), "woha-")]
			c := toyCluster{t: t, slots: slots, runtime: estimates(ws)}
			run := c.run(newPicker(t, name, opt), ws)
			line := ""
			for i, w := range ws {
				tardy := math.Max(0, run.completion[i]-w.AbsDeadline())
				tardiness[name] += tardy
				if tardy == 0 {
					met[name]++
				}
				line += fmt.Sprintf(" %s workspan %.0f s (deadline %.0f) tardiness %.0f s;", w.ID, run.completion[i]-w.Arrival, w.Deadline, tardy)
			}
			if seed == 1 {
				t.Logf("seed 1 %-13s%s", name, line)
			}
		}
	}
	for _, name := range names {
		t.Logf("seeds 1-10 %-13s deadlines met %2d/30, total tardiness %6.0f s", name, met[name], tardiness[name])
	}
}

// The workflows WOHA's workloads are generated from are ones the planner accepts.
func TestGeneratedWorkflowsValidate(t *testing.T) {
	ws, err := hadoop1.GenerateWOHA(7, hadoop1.DefaultWOHAConfig())
	if err != nil {
		t.Fatal(err)
	}
	for name, ws := range map[string][]Workflow{"random": ws, "fig2": hadoop1.Fig2(), "3wf": hadoop1.ThreeWorkflows(1)} {
		if err := Validate(ws); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
