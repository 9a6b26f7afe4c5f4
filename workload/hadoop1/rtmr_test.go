package hadoop1

import (
	"bytes"
	"math"
	"testing"

	"github.com/coraopt/coraopt/workload"
)

// The generators follow Tables II–IV: per-bin job counts, ranges, the 20 + 10 worker
// cluster with 100 map and 30 reduce slots, exponential gaps of mean 14 s.
func TestWorkloadShape(t *testing.T) {
	for _, c := range []struct {
		family string
		bins   []RTMRBin
		jobs   int
	}{{"rtmr-1", workload1, 88}, {"rtmr-2", workload2, 89}} {
		gaps, ngaps := 0.0, 0
		overwide := 0
		for seed := uint64(1); seed <= 30; seed++ {
			w, err := RTMRFamily(c.family, seed, "within")
			if err != nil {
				t.Fatal(err)
			}
			mapSlots, reduceSlots := 0, 0
			for _, wk := range w.Cluster.Workers {
				mapSlots += wk.Count * wk.Slots["map"]
				reduceSlots += wk.Count * wk.Slots["reduce"]
			}
			if len(w.Jobs) != c.jobs || mapSlots != 100 || reduceSlots != 30 || len(w.Cluster.Workers) != 30 {
				t.Fatalf("%s: %d jobs, %d+%d slots on %d workers", c.family, len(w.Jobs), mapSlots, reduceSlots, len(w.Cluster.Workers))
			}
			count := make([]int, len(c.bins))
			for i, j := range w.Jobs {
				maps, reduces := j.Stages[0].Tasks, 0
				if len(j.Stages) > 1 {
					reduces = j.Stages[1].Tasks
				}
				row := -1
				for b, r := range c.bins {
					if maps >= r.Maps[0] && maps <= r.Maps[1] && reduces >= r.Reduces[0] && reduces <= r.Reduces[1] &&
						j.Deadline >= r.Deadline[0] && j.Deadline <= r.Deadline[1] {
						row = b
						break
					}
				}
				if row < 0 {
					t.Fatalf("%s seed %d: job %s (%d maps, %d reduces, deadline %g) fits no row", c.family, seed, j.ID, maps, reduces, j.Deadline)
				}
				count[row]++
				if reduces > 30 {
					overwide++
				}
				if i > 0 {
					gaps += j.Arrival - w.Jobs[i-1].Arrival
					ngaps++
				}
			}
			for b, r := range c.bins {
				if count[b] != r.Jobs {
					t.Fatalf("%s seed %d: %d jobs in bin %d, want %d", c.family, seed, count[b], b+1, r.Jobs)
				}
			}
		}
		if mean := gaps / float64(ngaps); math.Abs(mean-14) > 1.5 {
			t.Errorf("%s: mean inter-arrival %.2f s, want about 14", c.family, mean)
		}
		if (c.family == "rtmr-1") != (overwide == 0) {
			t.Errorf("%s: %d jobs with more than 30 reduces", c.family, overwide)
		}
	}
}

// Same seed, same bytes; another seed, another workload. Dropping the jobs with more
// reduce tasks than the cluster has slots keeps the others as they were.
func TestRTMRDeterministic(t *testing.T) {
	enc := func(w *workload.Workload) string {
		var b bytes.Buffer
		if err := workload.Encode(&b, w); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	a, _ := RTMRFamily("rtmr-2", 7, "beyond")
	b, _ := RTMRFamily("rtmr-2", 7, "beyond")
	c, _ := RTMRFamily("rtmr-2", 8, "beyond")
	if enc(a) != enc(b) || enc(a) == enc(c) {
		t.Fatal("generator is not a function of its seed")
	}
	capped := WithReducesAtMost(a, 30)
	if len(capped.Jobs) == len(a.Jobs) || len(capped.Jobs) == 0 {
		t.Fatalf("%d of %d jobs kept", len(capped.Jobs), len(a.Jobs))
	}
	k := 0
	for _, j := range a.Jobs {
		if len(j.Stages) > 1 && j.Stages[1].Tasks > 30 {
			continue
		}
		if capped.Jobs[k].ID != j.ID {
			t.Fatalf("kept job %d is %s, want %s", k, capped.Jobs[k].ID, j.ID)
		}
		k++
	}
}

func TestRTMRRejectsUnknown(t *testing.T) {
	if _, err := RTMRFamily("rtmr-3", 1, "within"); err == nil {
		t.Error("unknown family accepted")
	}
	if _, err := RTMRFamily("rtmr-1", 1, "sometimes"); err == nil {
		t.Error("unknown runtime model accepted")
	}
	if _, err := RTMRFamilyBeyond("rtmr-1", 1, "beyond", 0.5); err == nil {
		t.Error("a beyond factor below 1 accepted")
	}
}
