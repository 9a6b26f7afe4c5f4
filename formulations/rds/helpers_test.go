package rds

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all" // every backend this build has
)

// qpSolver returns the built-in QP backend, registered by solvers/all.
func qpSolver(t testing.TB) solvers.Solver {
	t.Helper()
	s, err := solvers.Get("qp")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// genState draws a random RHC state and parameters with rapid: 1–6 jobs in every phase,
// deadlines before, inside and beyond the prediction window, zero and positive gains,
// caps or none, a forecast that sometimes binds. Sizes are realistic in the sense the
// package documentation's "Conditioning" asks for: a job needs between 2 and 200
// resource-intervals (W_j/ĝ_j), priorities are in [0.1, 10], P and Q in [0.005, 1], and
// a cap is 0, none, or at least half a resource unit, and so is a forecast capacity
// (0 is an outage).
func genState(t *rapid.T) (*State, []float64, Params) {
	hp := rapid.IntRange(1, 5).Draw(t, "hp")
	hc := rapid.IntRange(1, hp).Draw(t, "hc")
	L := rapid.Float64Range(0.5, 20).Draw(t, "interval")
	now := L * float64(rapid.IntRange(0, 10).Draw(t, "k"))
	s := &State{Time: now, Interval: L}
	nj := rapid.IntRange(1, 6).Draw(t, "jobs")
	for j := range nj {
		gain := func(name string) float64 {
			if rapid.IntRange(0, 4).Draw(t, name+"zero") == 0 {
				return 0
			}
			return rapid.Float64Range(0.05, 20).Draw(t, name)
		}
		g := Gain{Map: gain("gm"), Reduce: gain("gr")}
		work := rapid.Float64Range(2, 200).Draw(t, "resource-intervals") * math.Max(0.05, math.Max(g.Map, g.Reduce))
		arrival := rapid.Float64Range(0, 1).Draw(t, "arrival") * now
		soft := math.Max(arrival+0.1*L, now+L*rapid.Float64Range(-2, float64(hp)+2).Draw(t, "soft"))
		hard := soft + rapid.Float64Range(0, 1).Draw(t, "hard")*(soft-arrival)
		capv := func(name string) float64 {
			switch rapid.IntRange(0, 3).Draw(t, name+"kind") {
			case 0:
				return 0 // the phase or the job has no pending tasks of this kind
			case 1:
				return rapid.Float64Range(0.5, 30).Draw(t, name)
			}
			return math.Inf(1)
		}
		s.Jobs = append(s.Jobs, Job{
			ID:       fmt.Sprintf("j%d", j),
			Work:     work,
			Progress: rapid.Float64Range(0, 1).Draw(t, "progress") * work,
			Phase:    Phase(rapid.IntRange(0, 2).Draw(t, "phase")),
			Gain:     g,
			Arrival:  arrival, Soft: soft, Hard: hard,
			Priority: rapid.Float64Range(0.1, 10).Draw(t, "priority"),
			Prev:     Alloc{Map: rapid.Float64Range(0, 10).Draw(t, "pm"), Reduce: rapid.Float64Range(0, 10).Draw(t, "pr")},
			MaxMap:   capv("maxmap"), MaxReduce: capv("maxreduce"),
		})
	}
	forecast := make([]float64, hp)
	for i := range forecast {
		if rapid.IntRange(0, 5).Draw(t, "outage") > 0 {
			forecast[i] = rapid.Float64Range(0.5, 40).Draw(t, "forecast")
		}
	}
	p := Params{PredictionHorizon: hp, ControlHorizon: hc, AROrder: 3,
		MapPenalty: []float64{rapid.Float64Range(0.005, 1).Draw(t, "P")}, ReducePenalty: make([]float64, hc)}
	for k := range hc {
		p.ReducePenalty[k] = rapid.Float64Range(0.005, 1).Draw(t, "Q")
	}
	return s, forecast, p
}

// benchState is a seeded RDS control problem in the shape of the paper's: n running
// jobs mid-way, deadlines spread over the next few intervals, the paper's P and Q, and a
// capacity forecast at about 60% of what the references ask for, so the capacity rows
// bind, many jobs get nothing and some deadlines inside the window cannot be met.
func benchState(n, h int, seed uint64) (*State, []float64, Params) {
	return benchStateAt(n, h, seed, 0.6)
}

// benchStateAt is benchState with the capacity at load times the references' demand.
func benchStateAt(n, h int, seed uint64, load float64) (*State, []float64, Params) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
	L := 10.0
	s := &State{Time: 100, Interval: L}
	demand := 0.0
	for j := range n {
		work := u(50, 500)
		job := Job{
			ID: fmt.Sprintf("job%03d", j), Work: work, Progress: u(0, 0.8) * work,
			Phase: Phase(rng.IntN(3)), Gain: Gain{Map: u(0.5, 3), Reduce: u(0.3, 2)},
			Arrival: u(0, 100), Priority: u(1, 10),
			Prev:   Alloc{Map: u(0, 10), Reduce: u(0, 10)},
			MaxMap: math.Inf(1), MaxReduce: math.Inf(1),
		}
		job.Soft = s.Time + L*u(0.5, float64(h)+3)
		job.Hard = job.Soft + u(0, 1)*(job.Soft-job.Arrival)
		left := (job.Soft - s.Time) / L
		demand += job.Remaining() / math.Max(1, left) / ((job.Gain.Map + job.Gain.Reduce) / 2)
		s.Jobs = append(s.Jobs, job)
	}
	forecast := make([]float64, h)
	for i := range forecast {
		forecast[i] = load * demand * u(0.8, 1.2)
	}
	p := DefaultParams()
	p.PredictionHorizon, p.ControlHorizon = h, h
	if h != 3 {
		p.MapPenalty, p.ReducePenalty = []float64{mean(paperMapPenalty)}, []float64{mean(paperReducePenalty)}
	}
	return s, forecast, p
}

func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
