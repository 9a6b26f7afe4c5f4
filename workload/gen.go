package workload

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/coraopt/coraopt/sched"
)

// Template is a MapReduce job shape: tasks per stage and mean task runtimes (seconds).
// The papers name their jobs (PUMA's eight, rds.txt Table 3) but not their per-task
// runtimes; the means here are choices, documented so that a reader can change them.
type Template struct {
	Name                string
	Maps, Reduces       int
	MapMean, ReduceMean float64
}

// PUMATemplates are the eight PUMA jobs of cora.txt §III-C and rush.txt §V-B with "up
// to 100 map and 20 reduce tasks" (cora.txt). Task counts and mean runtimes are our
// choices within that range: scans (histograms, grep-like) have many short maps and few
// reduces, joins and sorts longer reduces. Runtimes are Gaussian with std = mean/3,
// the ratio of rush.txt §V-A's 60 ± 20 s.
var PUMATemplates = []Template{
	{"movie-classification", 100, 20, 45, 60},
	{"histogram-movies", 80, 5, 25, 20},
	{"histogram-ratings", 80, 5, 25, 20},
	{"inverted-index", 100, 20, 60, 90},
	{"self-join", 40, 10, 35, 50},
	{"sequence-count", 90, 15, 50, 70},
	{"word-count", 70, 20, 45, 60},
	{"terasort", 100, 20, 30, 80},
}

// CORAMeanInterarrival is cora.txt §III-C's mean Poisson inter-arrival time (seconds);
// rush.txt §V-B uses the same.
const CORAMeanInterarrival = 130

// GenTimeUnit is the time unit (seconds) of the generated sigmoid utilities: the
// papers' decay rates (μ up to 6 per unit) describe drops over minutes, not seconds.
const GenTimeUnit = 60

// StandaloneMode is how the cora and rush families find a job's standalone runtime —
// the "benchmarked running time" their deadlines and budgets are multiples of.
type StandaloneMode int

const (
	// StandaloneMeasured runs the job alone on the empty cluster (StandaloneRuntime)
	// with the true runtimes of the generator's seed, as the papers benchmarked theirs.
	StandaloneMeasured StandaloneMode = iota
	// StandaloneWaves is waves × mean task time, ⌈maps/slots⌉·map mean +
	// ⌈reduces/slots⌉·reduce mean, with the mean work for the active-job count: what
	// the families used before issue 28. It ignores stragglers, so the true standalone
	// runtime is longer (a budget ratio of 1 is then missed by every job even alone).
	StandaloneWaves
)

// GenOptions are the cora and rush families' choices beyond size and seed. The zero
// value is the papers' setup as we read it: exact PaperCORAMix counts, measured
// standalone runtimes. DrawClasses with StandaloneWaves writes the files of before
// issue 28 again, byte for byte.
type GenOptions struct {
	// Mix gives exactly Mix.Counts(n) jobs per class in a seeded order; zero:
	// PaperCORAMix.
	Mix CORAMix
	// DrawClasses draws each job's class with PaperCORAMix's probabilities instead
	// (Mix must then be zero): about, not exactly, 20/60/20.
	DrawClasses bool
	Standalone  StandaloneMode
}

func (o GenOptions) check() (CORAMix, error) {
	if o.Mix == (CORAMix{}) {
		return PaperCORAMix, nil
	}
	if o.DrawClasses {
		return o.Mix, fmt.Errorf("a class mix gives exact counts; drawing each job's class takes none")
	}
	return o.Mix, o.Mix.Validate()
}

// classPlan is each job's class (0 critical, 1 sensitive, 2 insensitive) with exactly
// mix.Counts(n) per class, in an order shuffled by a PCG stream of its own (word
// `stream`), or nil when each job draws its class.
func classPlan(n int, seed, stream uint64, mix CORAMix, draw bool) ([]int, *rand.Rand) {
	if draw {
		return nil, nil
	}
	var classes []int
	for k, m := range mix.Counts(n) {
		for range m {
			classes = append(classes, k)
		}
	}
	rng := rand.New(rand.NewPCG(seed, stream))
	rng.Shuffle(n, func(i, j int) { classes[i], classes[j] = classes[j], classes[i] })
	return classes, rng
}

func mixSuffix(mix CORAMix) string {
	if mix == PaperCORAMix {
		return ""
	}
	return fmt.Sprintf("-mix%g,%g,%g", mix[0], mix[1], mix[2])
}

// standaloneOf is job j's standalone runtime on c: measured (StandaloneRuntime under
// seed) or by waves of the template's means.
func standaloneOf(mode StandaloneMode, c *Cluster, j *Job, t Template, slots int, seed uint64) float64 {
	if mode == StandaloneWaves {
		waves := func(n int) float64 { return math.Ceil(float64(n) / float64(slots)) }
		return waves(t.Maps)*t.MapMean + waves(t.Reduces)*t.ReduceMean
	}
	return StandaloneRuntime(c, j, seed)
}

// workOf is job j's work in container-seconds: its true task runtimes under seed, or
// the template's means.
func workOf(mode StandaloneMode, j *Job, t Template, seed uint64) float64 {
	if mode == StandaloneWaves {
		return float64(t.Maps)*t.MapMean + float64(t.Reduces)*t.ReduceMean
	}
	stream, sum := JobStream(seed, j.ID), 0.0
	for s := range j.Stages {
		for k := range j.Stages[s].Tasks {
			sum += TaskRuntime(stream, &j.Stages[s], s, k)
		}
	}
	return sum
}

func templateStages(t Template, maps, reduces int, pool string) []Stage {
	g := func(m float64) *Runtime { return &Runtime{Type: "gaussian", Mean: m, Std: m / 3} }
	return []Stage{{Pool: pool, Tasks: maps, Runtime: g(t.MapMean)}, {Pool: pool, Tasks: reduces, Runtime: g(t.ReduceMean)}}
}

// activeAtSubmission estimates, for each job, how many jobs are in the system when it
// arrives (itself included) with a fluid FIFO queue that serves `slots`
// container-seconds per second: the papers' "active jobs at submission" depends on
// the scheduler, so the generator fixes one policy-free reading of it.
func activeAtSubmission(arrivals, work []float64, slots int) []int {
	finish := make([]float64, len(arrivals))
	out := make([]int, len(arrivals))
	for i := range arrivals {
		prev := 0.0
		if i > 0 {
			prev = finish[i-1]
		}
		finish[i] = max(arrivals[i], prev) + work[i]/float64(slots)
		out[i] = 1
		for k := i - 1; k >= 0 && finish[k] > arrivals[i]; k-- {
			out[i]++ // FIFO finishes in order, so the later ones still running are contiguous
		}
	}
	return out
}

// CORAWorkload is CORAWorkloadWith the zero GenOptions: the paper's 20/60/20 mix in
// exact counts and measured standalone runtimes.
func CORAWorkload(n int, seed uint64) (*Workload, error) {
	return CORAWorkloadWith(n, seed, GenOptions{})
}

// CORAWorkloadWith draws n jobs shaped like cora.txt §III-C's Hadoop experiment:
// Poisson arrivals (mean 130 s), one of the eight PUMATemplates uniformly, priority p ~
// U[1, 5], sigmoid utilities (eq. 11) in minutes with the paper's classes (critical μ ~
// U[4, 6], sensitive μ ~ U[0.01, 1], insensitive μ = 0; opt.Mix, by default 20/60/20,
// in exact counts), and deadline d = standalone runtime × N(1.25, 0.1) × active jobs at
// submission (activeAtSubmission over the jobs' work), the job's deadline field too;
// 40 containers, one pool. The standalone runtime is measured (opt.Standalone): the job
// alone on the 40 containers with the true runtimes of `seed`.
func CORAWorkloadWith(n int, seed uint64, opt GenOptions) (*Workload, error) {
	const slots = 40
	if n < 1 {
		return nil, fmt.Errorf("workload: cora family needs at least 1 job, got %d", n)
	}
	mix, err := opt.check()
	if err != nil {
		return nil, fmt.Errorf("workload: cora family: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f7261776c))
	// The classes have a stream of their own, so that every other draw (arrival,
	// template, priority, deadline factor) is the same whatever the mix.
	classes, mixRng := classPlan(n, seed, 0x6d6978, mix, opt.DrawClasses)
	w := &Workload{Name: fmt.Sprintf("cora-%d-seed%d", n, seed) + mixSuffix(mix), TimeUnit: GenTimeUnit,
		Cluster: Cluster{Pools: []Pool{{Name: "containers", Slots: slots}}}}
	arrivals, work := make([]float64, n), make([]float64, n)
	type draw struct {
		t             Template
		prio, mu, fac float64
		alone         float64
	}
	draws := make([]draw, n)
	at := 0.0
	for i := range n {
		if i > 0 {
			at += rng.ExpFloat64() * CORAMeanInterarrival
		}
		arrivals[i] = math.Round(at*1000) / 1000
		d := draw{t: PUMATemplates[rng.IntN(len(PUMATemplates))]}
		d.prio = 1 + 4*rng.Float64()
		d.mu = coraDecay(rng) // drawn with exact classes too, to keep the main stream's order
		if classes != nil {
			d.mu = classDecay(classes[i], mixRng)
		}
		d.fac = 1.25 + 0.1*rng.NormFloat64()
		j := Job{ID: fmt.Sprintf("j%d", i+1), Arrival: arrivals[i], Priority: d.prio,
			Stages: templateStages(d.t, d.t.Maps, d.t.Reduces, "containers")}
		d.alone = standaloneOf(opt.Standalone, &w.Cluster, &j, d.t, slots, seed)
		work[i] = workOf(opt.Standalone, &j, d.t, seed)
		draws[i] = d
		w.Jobs = append(w.Jobs, j)
	}
	active := activeAtSubmission(arrivals, work, slots)
	for i, d := range draws {
		dl := math.Max(d.alone*d.fac*float64(active[i]), 1)
		w.Jobs[i].Deadline = dl
		w.Jobs[i].Utility = sched.Sigmoid{Priority: d.prio, Deadline: dl / GenTimeUnit, Decay: d.mu}
	}
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("workload: generated cora workload: %w", err)
	}
	return w, nil
}

// CORAMix is the share of CT-critical, CT-sensitive and CT-insensitive jobs (cora.txt
// §III-C's classes), three non-negative numbers summing to 1.
type CORAMix [3]float64

// PaperCORAMix is cora.txt §III-D1's and rush.txt §V-B's 20% critical, 60% sensitive,
// 20% insensitive.
var PaperCORAMix = CORAMix{0.2, 0.6, 0.2}

// Validate checks the mix: three finite non-negative shares summing to 1 (within 1e-9).
func (m CORAMix) Validate() error {
	sum := 0.0
	for _, x := range m {
		if !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("class shares must be finite and >= 0, got %g,%g,%g", m[0], m[1], m[2])
		}
		sum += x
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("class shares must sum to 1, got %g,%g,%g (sum %g)", m[0], m[1], m[2], sum)
	}
	return nil
}

// Counts are the jobs per class out of n: the shares × n rounded by largest remainder
// (ties to the earlier class), so they sum to n.
func (m CORAMix) Counts(n int) [3]int {
	var c [3]int
	var rem [3]float64
	left := n
	for k, x := range m {
		q := x * float64(n)
		c[k] = int(math.Floor(q + 1e-9))
		rem[k] = q - float64(c[k])
		left -= c[k]
	}
	for ; left > 0; left-- {
		best := 0
		for k := range rem {
			if rem[k] > rem[best]+1e-12 {
				best = k
			}
		}
		c[best]++
		rem[best] = -1
	}
	return c
}

// RUSHWorkload is RUSHWorkloadWith the zero GenOptions.
func RUSHWorkload(n int, seed uint64, ratio float64) (*Workload, error) {
	return RUSHWorkloadWith(n, seed, ratio, GenOptions{})
}

// RUSHWorkloadWith draws n jobs shaped like rush.txt §V-B: Poisson arrivals (mean 130
// s), a PUMA template whose map count scales with a data set of U[1, 10] GB (10 GB is
// the template's full count), Gaussian task runtimes, priority W ~ U{1..5}, sigmoid
// utilities with cora's classes (opt.Mix, by default the paper's 20/60/20, in exact
// counts), and a time budget = ratio × the job's runtime alone on the whole cluster
// (the paper benchmarks each job with "all the resources available in the cluster"
// and uses ratios 2, 1.5 and 1); 48 containers. With the default measured standalone
// runtime, ratio 1 is exactly what the job takes alone under runtime seed `seed`.
func RUSHWorkloadWith(n int, seed uint64, ratio float64, opt GenOptions) (*Workload, error) {
	const slots = 48
	if n < 1 || !(ratio > 0) || math.IsInf(ratio, 0) {
		return nil, fmt.Errorf("workload: rush family needs at least 1 job and a finite budget ratio > 0, got %d and %g", n, ratio)
	}
	mix, err := opt.check()
	if err != nil {
		return nil, fmt.Errorf("workload: rush family: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x72757368))
	classes, mixRng := classPlan(n, seed, 0x727573686d6978, mix, opt.DrawClasses)
	w := &Workload{Name: fmt.Sprintf("rush-%d-seed%d-ratio%g", n, seed, ratio) + mixSuffix(mix), TimeUnit: GenTimeUnit,
		Cluster: Cluster{Pools: []Pool{{Name: "containers", Slots: slots}}}}
	at := 0.0
	for i := range n {
		if i > 0 {
			at += rng.ExpFloat64() * CORAMeanInterarrival
		}
		t := PUMATemplates[rng.IntN(len(PUMATemplates))]
		gb := 1 + 9*rng.Float64()
		t.Maps = max(1, int(math.Ceil(float64(t.Maps)*gb/10)))
		prio := float64(1 + rng.IntN(5))
		mu := coraDecay(rng) // drawn with exact classes too, to keep the main stream's order
		if classes != nil {
			mu = classDecay(classes[i], mixRng)
		}
		j := Job{ID: fmt.Sprintf("j%d", i+1), Arrival: math.Round(at*1000) / 1000, Priority: prio,
			Stages: templateStages(t, t.Maps, t.Reduces, "containers")}
		budget := ratio * standaloneOf(opt.Standalone, &w.Cluster, &j, t, slots, seed)
		j.Deadline = budget
		j.Utility = sched.Sigmoid{Priority: prio, Deadline: budget / GenTimeUnit, Decay: mu}
		w.Jobs = append(w.Jobs, j)
	}
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("workload: generated rush workload: %w", err)
	}
	return w, nil
}

// RDSTemplates are rds.txt Table 3's jobs J1–J9 (maps, reduces from the table). The
// table gives input sizes, not task runtimes; a 64 MB block's map takes 20–30 s and a
// reduce 60–90 s here (our choice), Wordcount the slowest map, Grep the fastest.
var RDSTemplates = []Template{
	{"J1-wordcount-60G", 960, 200, 30, 90}, {"J2-wordcount-35G", 560, 100, 30, 90}, {"J3-wordcount-15G", 250, 50, 30, 90},
	{"J4-grep-80G", 1280, 200, 20, 60}, {"J5-grep-40G", 640, 100, 20, 60}, {"J6-grep-20G", 320, 50, 20, 60},
	{"J7-terasort-50G", 800, 200, 25, 80}, {"J8-terasort-25G", 450, 100, 25, 80}, {"J9-terasort-12G", 192, 50, 25, 80},
}

// RDSStartHour is the hour of the solar day at time 0 of an rds workload: the
// morning, so the jobs meet the green half of the cluster rising.
const RDSStartHour = 8

// RDSWorkload is rds.txt §5.3's setup: a Hadoop-1 cluster of 20 workers with 2 map and
// 1 reduce slot each; the jobs of Table 3 in order (J1…J9, repeated when n > 9), one
// every 10 minutes, equal priority; deadline = 2.5 × the job's runtime on the
// dedicated cluster, and an RDS utility (eq. 4) with soft = the deadline and hard = 2 ×
// soft, in minutes. Capacity follows a renewable-like trace: half the slots always,
// the other half scaled by a solar day (sin over 12 of 24 hours, 10-minute steps)
// times a seeded cloud cover U[0.5, 1] per hour, starting at RDSStartHour — our reading of §5.4's "half
// traditional, half green energy".
func RDSWorkload(n int, seed uint64) (*Workload, error) {
	const workers, maps, reduces = 20, 2, 1
	if n < 1 {
		return nil, fmt.Errorf("workload: rds family needs at least 1 job, got %d", n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x726473))
	w := &Workload{Name: fmt.Sprintf("rds-%d-seed%d", n, seed), TimeUnit: GenTimeUnit,
		Cluster: Cluster{Workers: []Worker{{Count: workers, Slots: map[string]int{"map": maps, "reduce": reduces}, Speed: 1}}}}
	mapSlots, redSlots := workers*maps, workers*reduces
	last := 0.0
	for i := range n {
		t := RDSTemplates[i%len(RDSTemplates)]
		waves := func(k, s int) float64 { return math.Ceil(float64(k) / float64(s)) }
		alone := waves(t.Maps, mapSlots)*t.MapMean + waves(t.Reduces, redSlots)*t.ReduceMean
		dl := 2.5 * alone
		arr := float64(i) * 600
		w.Jobs = append(w.Jobs, Job{
			ID: fmt.Sprintf("%s-%d", t.Name[:2], i+1), Arrival: arr, Priority: 1, Deadline: dl,
			Utility: sched.RDS{Priority: 1, Soft: dl / GenTimeUnit, Hard: 2 * dl / GenTimeUnit},
			Stages: []Stage{
				{Pool: "map", Tasks: t.Maps, Runtime: &Runtime{Type: "gaussian", Mean: t.MapMean, Std: t.MapMean / 3}},
				{Pool: "reduce", Tasks: t.Reduces, Runtime: &Runtime{Type: "gaussian", Mean: t.ReduceMean, Std: t.ReduceMean / 3}},
			},
		})
		last = arr + 4*dl
	}
	cover := 1.0
	for step := 0; float64(step)*600 <= last; step++ {
		tm := float64(step) * 600
		if step%6 == 0 {
			cover = 0.5 + 0.5*rng.Float64()
		}
		hour := math.Mod(tm/3600+RDSStartHour, 24)
		sun := 0.0
		if hour >= 6 && hour < 18 {
			sun = math.Sin(math.Pi * (hour - 6) / 12)
		}
		green := sun * cover
		w.Cluster.Capacity = append(w.Cluster.Capacity, CapacityStep{Time: tm, Slots: map[string]int{
			"map":    mapSlots/2 + int(math.Round(float64(mapSlots)/2*green)),
			"reduce": redSlots/2 + int(math.Round(float64(redSlots)/2*green)),
		}})
	}
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("workload: generated rds workload: %w", err)
	}
	return w, nil
}
