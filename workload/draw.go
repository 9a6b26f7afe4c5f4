package workload

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
)

// MinFraction is the floor of a gaussian draw as a fraction of its mean: a normal
// distribution has a tail below 0, a task cannot run for a negative time, and clamping
// at 1% of the mean keeps the few such draws (about 1 in 3·10⁶ at the papers'
// std = mean/3) positive without moving the mean measurably.
const MinFraction = 0.01

// JobStream is the seed of job id's runtime streams under the run seed: FNV-1a of the
// id mixed with the seed. Every task of the job then has its own stream (TaskRuntime),
// so the draws of one job do not depend on any other job, on the order tasks start in,
// or on the policy (common random numbers).
func JobStream(seed uint64, id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return splitmix(seed ^ splitmix(h.Sum64()))
}

// TaskRuntime is the true base runtime (seconds, before a worker's speed) of task
// `task` of stage `stage` of job j: the explicit value when the stage lists them,
// otherwise a draw from the stage's distribution by a PCG stream seeded with
// (JobStream(seed, id), stage, task). The same arguments always give the same value.
func TaskRuntime(jobStream uint64, st *Stage, stage, task int) float64 {
	if st.TaskRuntimes != nil {
		return st.TaskRuntimes[task]
	}
	src := rand.NewPCG(jobStream, uint64(stage)<<32|uint64(uint32(task)))
	return drawRuntime(st.Runtime, src)
}

// drawRuntime draws from r by inverse transforms of src's uniforms, so the value is
// fixed by the PCG stream alone (not by math/rand's choice of sampling algorithm).
func drawRuntime(r *Runtime, src *rand.PCG) float64 {
	u := func() float64 { return (float64(src.Uint64()>>11) + 0.5) / (1 << 53) } // in (0, 1)
	switch r.Type {
	case "fixed":
		return r.Value
	case "gaussian":
		z := math.Sqrt(-2*math.Log(u())) * math.Cos(2*math.Pi*u()) // Box–Muller
		return math.Max(r.Mean+r.Std*z, MinFraction*r.Mean)
	case "exponential":
		return -r.Mean * math.Log(u())
	case "uniform":
		return r.Min + (r.Max-r.Min)*u()
	case "empirical":
		return r.Samples[min(len(r.Samples)-1, int(u()*float64(len(r.Samples))))]
	}
	return math.NaN()
}

// splitmix is SplitMix64's finalizer: a bijective mix of 64 bits.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
