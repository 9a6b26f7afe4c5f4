package rtmr

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/coraopt/coraopt/internal/cputime"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// benchQueue fills a controller for 100 map and 30 reduce slots with n accepted, waiting
// jobs drawn from the bins of Table III (family 1) or Table IV (family 2), with deadlines
// far enough out that every one is admitted, and returns it with a job that goes to the
// head of the queue — the decision that recomputes every job's vectors.
func benchQueue(b *testing.B, family, n int) (*Admission, *Job, float64, float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	bins := hadoop1.RTMRBins(fmt.Sprintf("rtmr-%d", family))
	a := NewAdmission(100, 30)
	for i := range n {
		row := bins[rng.IntN(len(bins))]
		m := row.Maps[0] + rng.IntN(row.Maps[1]-row.Maps[0]+1)
		j := &Job{ID: fmt.Sprint(i), Deadline: 1e9 + float64(i), MapSizes: make([]float64, m),
			Reduces: row.Reduces[0] + rng.IntN(row.Reduces[1]-row.Reduces[0]+1)}
		for k := range j.MapSizes {
			j.MapSizes[k] = 128
		}
		em := 30 + 20*rng.Float64()
		er := 40 + 60*rng.Float64()
		if !a.Admit(0, j, em, er) {
			b.Fatal("a queue job was rejected")
		}
	}
	head := &Job{ID: "new", Deadline: 1e6, MapSizes: []float64{128, 128, 128}, Reduces: 5}
	return a, head, 40, 80
}

// BenchmarkAdmissionDecision: one admission decision (Algorithm I lines 1–21) for a new
// job at the head of a queue of 1,000 jobs on 100 + 30 slots.
func BenchmarkAdmissionDecision(b *testing.B) {
	for _, fam := range []int{1, 2} {
		a, j, em, er := benchQueue(b, fam, 1000)
		b.Run(fmt.Sprintf("workload%d/place", fam), func(b *testing.B) {
			c0 := cputime.Process()
			for b.Loop() {
				if !a.Decide(1, j, em, er) {
					b.Fatal("rejected")
				}
			}
			reportCPU(b, c0)
		})
		// The reference: the same chain with the loops of Algorithms II–III as printed
		// (take the smallest, add, re-sort) in place of place.
		b.Run(fmt.Sprintf("workload%d/printed", fam), func(b *testing.B) {
			tm, tr := make([]float64, a.l), make([]float64, a.q)
			c0 := cputime.Process()
			for b.Loop() {
				clear(tm)
				clear(tr)
				em0 := printedLoop(tm, j.M(), em, 1)
				printedLoop(tr, j.Reduces, er, em0)
				for _, s := range a.order {
					sem := printedLoop(tm, s.job.M(), s.epsM, 1)
					printedLoop(tr, s.job.Reduces, s.epsR, sem)
				}
			}
			reportCPU(b, c0)
		})
	}
}

// reportCPU adds CPU ns/op: on this shared machine the wall clock also counts time other
// processes held the cores.
func reportCPU(b *testing.B, c0 time.Duration) {
	if c := cputime.Process() - c0; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
