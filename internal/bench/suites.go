package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/mip"
	"github.com/coraopt/coraopt/solvers/netlib/models"
	"github.com/coraopt/coraopt/workload"
)

// Dims is one requested size: a job count and, optionally, a slot count (0: the
// family's default).
type Dims struct {
	Jobs, Slots int
}

func (d Dims) String() string {
	if d.Slots > 0 {
		return fmt.Sprintf("%dx%d", d.Jobs, d.Slots)
	}
	return strconv.Itoa(d.Jobs)
}

// ParseSizes parses a list of sizes such as "10,20,100x40": job counts, each optionally
// with "x" and a slot count.
func ParseSizes(s string) ([]Dims, error) {
	var out []Dims
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		jobs, slots, hasSlots := strings.Cut(f, "x")
		d := Dims{}
		var err error
		if d.Jobs, err = strconv.Atoi(jobs); err != nil || d.Jobs < 1 {
			return nil, fmt.Errorf("size %q: the job count must be a positive integer", f)
		}
		if hasSlots {
			if d.Slots, err = strconv.Atoi(slots); err != nil || d.Slots < 1 {
				return nil, fmt.Errorf("size %q: the slot count must be a positive integer", f)
			}
		}
		if d.Jobs > MaxJobs || d.Slots > MaxSlots {
			return nil, fmt.Errorf("size %q: at most %d jobs and %d slots", f, MaxJobs, MaxSlots)
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, errors.New("no sizes")
	}
	return out, nil
}

// Bounds on generated sizes, so that a typo cannot ask for terabytes.
const (
	MaxJobs  = 10_000_000
	MaxSlots = 100_000
)

// NetlibSuite is the LPs of package netlib/models (feasible, infeasible and unbounded),
// read from dir with coraopt's own readers, each with its reference answer.
func NetlibSuite(dir string) []Case {
	var out []Case
	for _, c := range models.Cases() {
		if c.Kind != models.LP {
			continue
		}
		out = append(out, modelCase(c.Name, "netlib", LP, filepath.Join(dir, c.File), &Reference{Status: c.Status, Objective: c.Objective}, nil))
	}
	return out
}

// NetlibFullSuite is the whole Netlib LP collection of models.FullCollection (91 LPs)
// read from dir, each file checked against its SHA-256 before it is read (the
// reference optima hold for those exact files), each with its reference optimum.
func NetlibFullSuite(dir string) []Case {
	var out []Case
	for _, c := range models.FullCollection() {
		path := filepath.Join(dir, c.File)
		out = append(out, modelCase(c.Name, "netlib-full", LP, path, &Reference{Status: c.Status, Objective: c.Objective},
			func() error { return models.VerifyFile(c, path) }))
	}
	return out
}

// MIPLIBSuite is the MIPs of HiGHS's check set in dir (mip.CheckSet: bell5, dcmulti,
// egout, flugpl, gesa2, gt2, lseu, p0548, rgn, small_mip, sp150x300d, 2171), each with
// its reference optimum, for the MIP backends side by side.
func MIPLIBSuite(dir string) []Case {
	var out []Case
	for _, c := range mip.CheckSet() {
		out = append(out, modelCase(c.Name, "miplib", MIP, filepath.Join(dir, c.File), &Reference{Status: solvers.Optimal, Objective: c.Objective}, nil))
	}
	return out
}

// modelCase is the case of one model file read when the case is prepared, after check
// (when not nil) accepts it.
func modelCase(name, family string, class Class, path string, ref *Reference, check func() error) Case {
	return Case{Name: name, Family: family, Class: class, Prepare: func(context.Context) (*Instance, error) {
		if check != nil {
			if err := check(); err != nil {
				return nil, err
			}
		}
		p, err := models.ReadModel(path)
		if err != nil {
			return nil, err
		}
		return &Instance{Size: SizeOf(p), Problem: p, Reference: ref}, nil
	}}
}

// Formulation families of FormulationsSuite, in suite order.
var FormulationFamilies = []string{"tas-mip", "final", "rs"}

// defaultFormulationSizes are the sizes of each family when none are given: the TAS
// MIPs stay small (the time-indexed MIP grows as jobs × slots), FINAL reaches the
// paper's 100 jobs × 40 slots.
var defaultFormulationSizes = map[string][]Dims{
	"tas-mip": {{8, 0}, {12, 0}, {16, 0}},
	"final":   {{25, 0}, {50, 0}, {100, 0}},
	"rs":      {{8, 0}, {12, 0}, {16, 0}},
}

// FormulationsSuite generates the scheduling models of the formulations at each size
// (nil: the family's defaults), seeded with seed, from the registry's Bench entries
// (a family whose formulation reg lacks is left out):
//
//	tas-mip/N=n,T=t  tas's model, the max-min step of the TAS time-indexed MIP
//	                 (solve.MaxMinMIP), on workload.Sigmoid (t defaults to n); tas's
//	                 method onion, through solve, beside the MIP solvers
//	final/N=n,T=t    cora-final's model, FINAL (cora.BuildFinal), on
//	                 workload.CORAPaperScaled (t defaults to 40)
//	rs/N=n,T=t       tas's model on RS's worst-case demands η of workload.RSGaussian;
//	                 method rs (rs through solve: WCDE, onion peeling, mapping)
func FormulationsSuite(sizes []Dims, seed uint64, reg *solve.Registry) []Case {
	var out []Case
	for _, fam := range FormulationFamilies {
		if reg.Lookup(familyFormulation[fam]) == nil {
			continue
		}
		ds := sizes
		if ds == nil {
			ds = defaultFormulationSizes[fam]
		}
		for _, d := range ds {
			switch fam {
			case "tas-mip":
				out = append(out, tasMIPCase(reg, d.Jobs, cmpOr(d.Slots, d.Jobs), seed))
			case "final":
				out = append(out, finalCase(reg, d.Jobs, cmpOr(d.Slots, 40), seed))
			case "rs":
				out = append(out, rsCase(reg, d.Jobs, cmpOr(d.Slots, d.Jobs), seed))
			}
		}
	}
	return out
}

// familyFormulation is the registry formulation whose Bench entry each family uses.
var familyFormulation = map[string]string{"tas-mip": "tas", "final": "cora-final", "rs": "rs"}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func tasMIPCase(reg *solve.Registry, n, T int, seed uint64) Case {
	return Case{Name: fmt.Sprintf("tas-mip/N=%d,T=%d", n, T), Family: "tas-mip", Class: MIP,
		Prepare: func(context.Context) (*Instance, error) {
			in, err := workload.Sigmoid(n, T, seed)
			if err != nil {
				return nil, err
			}
			return formulationInstance(reg, reg.Lookup("tas"), in, in)
		}}
}

func finalCase(reg *solve.Registry, n, T int, seed uint64) Case {
	return Case{Name: fmt.Sprintf("final/N=%d,T=%d", n, T), Family: "final", Class: LP,
		Prepare: func(context.Context) (*Instance, error) {
			in, err := workload.CORAPaperScaled(n, T, seed)
			if err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
			return formulationInstance(reg, reg.Lookup("cora-final"), in, in)
		}}
}

func rsCase(reg *solve.Registry, n, T int, seed uint64) Case {
	return Case{Name: fmt.Sprintf("rs/N=%d,T=%d", n, T), Family: "rs", Class: MIP,
		Prepare: func(context.Context) (*Instance, error) {
			in, err := workload.RSGaussian(n, T, seed)
			if err != nil {
				return nil, err
			}
			ds, err := rs.Demands(in, workload.RSParams)
			if err != nil {
				return nil, err
			}
			robust, err := rs.RobustInstance(in, ds)
			if err != nil {
				return nil, err
			}
			// tas's model on the robust instance, rs's solve on the instance itself.
			inst, err := formulationInstance(reg, reg.Lookup("tas"), robust, nil)
			if err != nil {
				return nil, err
			}
			inst.Methods = []Method{solveMethod(reg, "rs", solve.Request{Formulation: "rs", Method: "onion", Instance: in, SkipSelfChecks: true}, solve.LowestLevel)}
			return inst, nil
		}}
}

// formulationInstance is the model of f's Bench entry built from in, with f's fast path
// run through solve on fastIn beside the backends (none when fastIn is nil or f has no
// fast path).
func formulationInstance(reg *solve.Registry, f *solve.Formulation, in, fastIn *sched.Instance) (*Instance, error) {
	spec := f.Bench
	p, err := spec.Model(in)
	if err != nil {
		return nil, err
	}
	size := SizeOf(p)
	size.Jobs, size.Slots = len(in.Jobs), in.Horizon
	inst := &Instance{Size: size, Problem: p}
	if spec.FastPath != "" && fastIn != nil {
		inst.Methods = []Method{solveMethod(reg, spec.FastPath, solve.Request{Formulation: f.Name, Method: spec.FastPath, Instance: fastIn, SkipSelfChecks: true}, spec.Objective)}
	}
	return inst, nil
}

// solveMethod runs req through the registry; the objective is objective(result)
// (e.g. the lowest level, comparable with the max-min MIP's optimum).
func solveMethod(reg *solve.Registry, name string, req solve.Request, objective func(*solve.Result) float64) Method {
	return Method{Name: name, Run: func(ctx context.Context) (Outcome, error) {
		res, err := reg.Solve(ctx, req)
		if err != nil {
			return Outcome{}, err
		}
		o := Outcome{Status: solvers.Optimal.String(), Objective: objective(res),
			Metrics: map[string]float64{"layers": float64(len(res.Layers))}}
		if !res.Exact {
			o.Status, o.Note = solvers.Other.String(), "not proven lexmax (stall budget spent)"
		}
		return o, nil
	}}
}

func peelOutcome(res *tas.Result) Outcome {
	o := Outcome{Status: solvers.Optimal.String(), Objective: lowestLevel(res.Levels),
		Metrics: map[string]float64{"layers": float64(len(res.Layers))}}
	if !res.Exact {
		o.Status, o.Note = solvers.Other.String(), "not proven lexmax (stall budget spent)"
	}
	return o
}

func lowestLevel(levels []float64) float64 {
	if len(levels) == 0 {
		return math.NaN()
	}
	return slices.Min(levels)
}

// Fast-path families of FastpathsSuite.
var FastpathFamilies = []string{"onion", "wcde", "mapping", "onion-release", "onion-release-maxpar"}

// MaxparLimit is the largest job count of the onion-release-maxpar family: with caps,
// exact peeling costs a max-flow search per fixed job and grows as n² (10,000 jobs take
// about 7 s of CPU; 100,000 would take about ten minutes), so larger sizes are left out.
const MaxparLimit = 10000

// Slots and bins of the fast-path families (docs/design.md's targets: onion peeling over
// 1,000 slots, WCDE over 1,000 bins).
const (
	onionSlots   = 1000
	wcdeBins     = 1000
	mappingSlots = 100
	// wcdeDistinct is the number of distinct references a WCDE case cycles through: the
	// time per job does not depend on which reference it gets, and 10⁵ jobs × 10³ bins
	// of distinct references would take 800 MB.
	wcdeDistinct = 1000
)

// DefaultFastpathSizes are the job counts of FastpathsSuite when none are given.
var DefaultFastpathSizes = []Dims{{1000, 0}, {10000, 0}, {100000, 0}}

// FastpathsSuite generates the fast paths' cases at each size (nil: 1,000, 10,000 and
// 100,000 jobs):
//
//	onion/N=n,T=t    tas.OnionPeel without the schedule (deadlines, levels, layers) on a
//	                 sigmoid instance over t = 1000 slots; objective: the lowest level
//	wcde/N=n,bins=b  WCDE for n jobs over b = 1000 bins, from bin probabilities to η
//	                 (rs.NewPMF + rs.WorstCaseDemand, Alg. 2's bisection) and, as the
//	                 cross-check, rs.WorstCaseDemandScan; objective: Σ η
//	mapping/N=n,T=t  tas.MapToQueues (Alg. 4, exact volume) of onion peeling's schedule
//	                 of a sigmoid instance over t = 100 slots with task lengths 1–4;
//	                 objective: the latest task end
//	onion-release/N=n         tas.OnionPeel without the schedule on workload.Arrivals
//	                          (sigmoid, releases U{1..T/2}, T = max(200, n/10), C = n/20);
//	                          objective: the lowest level
//	onion-release-maxpar/N=n  the same with max_parallel caps (only n ≤ MaxparLimit)
//
// families selects some of them (nil: all).
func FastpathsSuite(sizes []Dims, seed uint64, families []string) []Case {
	if sizes == nil {
		sizes = DefaultFastpathSizes
	}
	if families == nil {
		families = FastpathFamilies
	}
	var out []Case
	for _, fam := range families {
		for _, d := range sizes {
			switch fam {
			case "onion":
				out = append(out, onionCase(d.Jobs, cmpOr(d.Slots, onionSlots), seed))
			case "wcde":
				out = append(out, wcdeCase(d.Jobs, cmpOr(d.Slots, wcdeBins), seed))
			case "mapping":
				out = append(out, mappingCase(d.Jobs, cmpOr(d.Slots, mappingSlots), seed))
			case "onion-release":
				out = append(out, onionReleaseCase(d.Jobs, false, seed))
			case "onion-release-maxpar":
				if d.Jobs <= MaxparLimit {
					out = append(out, onionReleaseCase(d.Jobs, true, seed))
				}
			}
		}
	}
	return out
}

// ScalingSizes is the doubling series of job counts of the scaling report.
func ScalingSizes(from, to int) []Dims {
	var out []Dims
	for n := from; n <= to; n *= 2 {
		out = append(out, Dims{Jobs: n})
	}
	return out
}

func onionCase(n, T int, seed uint64) Case {
	return onionFamilyCase("onion", fmt.Sprintf("N=%d,T=%d", n, T), n, tas.Options{}, func() (*sched.Instance, error) {
		return workload.Sigmoid(n, T, seed)
	})
}

// onionLayeredCase is the sigmoid instance with jobs released in slots 1–3 (j mod 3)
// peeled by the layered engine (rush.txt Alg. 3's layers, one exact bisection per
// layer with the EDF feasibility test), which OnionPeel keeps as its reference path.
func onionLayeredCase(n, T int, seed uint64) Case {
	return onionFamilyCase("onion-layered", fmt.Sprintf("N=%d,T=%d", n, T), n, tas.Options{Layered: true}, func() (*sched.Instance, error) {
		in, err := workload.Sigmoid(n, T, seed)
		if err != nil {
			return nil, err
		}
		for j := range in.Jobs {
			in.Jobs[j].Release = 1 + j%3
		}
		return in, nil
	})
}

// onionReleaseCase is onion peeling on workload.Arrivals: releases over the first half
// of the horizon (the backward sweep with Horn's window test), and with capped the
// max_parallel caps too (the events engine with incremental flows).
func onionReleaseCase(n int, capped bool, seed uint64) Case {
	family := "onion-release"
	if capped {
		family = "onion-release-maxpar"
	}
	return onionFamilyCase(family, fmt.Sprintf("N=%d", n), n, tas.Options{}, func() (*sched.Instance, error) {
		return workload.Arrivals(n, capped, seed)
	})
}

// onionFamilyCase is onion peeling without the schedule (deadlines, levels, layers) on
// the instance build makes, with opts; the note names the engine OnionPeel used.
func onionFamilyCase(family, size string, n int, opts tas.Options, build func() (*sched.Instance, error)) Case {
	return Case{Name: family + "/" + size, Family: family, Class: FastPath, N: n,
		Prepare: func(context.Context) (*Instance, error) {
			in, err := build()
			if err != nil {
				return nil, err
			}
			opts.NoSchedule = true
			return &Instance{Size: Size{Jobs: n, Slots: in.Horizon}, Methods: []Method{{Name: family, Run: func(ctx context.Context) (Outcome, error) {
				res, err := tas.OnionPeel(ctx, in, opts)
				if err != nil {
					return Outcome{}, err
				}
				o := peelOutcome(res)
				o.Note = joinNote(o.Note, "engine "+res.Stats.Engine)
				return o, nil
			}}}}, nil
		}}
}

// ScalingSuite is the scaling report's series: onion peeling (the sweep), onion
// peeling with release times (onion-release) and WCDE's bisection and scan at each of
// sizes; onion peeling's layered reference engine (onion-layered: sigmoid instances
// with release times) at each of layeredSizes — it costs a bisection per layer, and
// there are about as many layers as jobs, so it gets a smaller range; and release
// times with max_parallel caps (onion-release-maxpar, quadratic) at each of maxparSizes.
func ScalingSuite(sizes, layeredSizes, maxparSizes []Dims, seed uint64) []Case {
	out := FastpathsSuite(sizes, seed, []string{"onion", "onion-release"})
	for _, d := range layeredSizes {
		out = append(out, onionLayeredCase(d.Jobs, cmpOr(d.Slots, onionSlots), seed))
	}
	for _, d := range maxparSizes {
		out = append(out, onionReleaseCase(d.Jobs, true, seed))
	}
	return append(out, FastpathsSuite(sizes, seed, []string{"wcde"})...)
}

func wcdeCase(n, bins int, seed uint64) Case {
	const theta, delta = 0.9, 0.7
	return Case{Name: fmt.Sprintf("wcde/N=%d,bins=%d", n, bins), Family: "wcde", Class: FastPath, N: n,
		Prepare: func(context.Context) (*Instance, error) {
			refs, err := workload.WCDEReferences(min(n, wcdeDistinct), bins, seed)
			if err != nil {
				return nil, err
			}
			method := func(name string, f func(*rs.PMF, float64, float64) (rs.Estimate, error)) Method {
				return Method{Name: name, Run: func(ctx context.Context) (Outcome, error) {
					var sum int64
					for i := range n {
						if i%1024 == 0 && ctx.Err() != nil {
							return Outcome{Status: contextStatus(ctx.Err()), Objective: math.NaN()}, nil
						}
						pmf, err := rs.NewPMF(1, refs[i%len(refs)])
						if err != nil {
							return Outcome{}, err
						}
						e, err := f(pmf, theta, delta)
						if err != nil {
							return Outcome{}, err
						}
						sum += e.Eta
					}
					return Outcome{Status: solvers.Optimal.String(), Objective: float64(sum)}, nil
				}}
			}
			return &Instance{Size: Size{Jobs: n, Bins: bins}, Methods: []Method{
				method("wcde-bisection", rs.WorstCaseDemand),
				method("wcde-scan", rs.WorstCaseDemandScan),
			}}, nil
		}}
}

func mappingCase(n, T int, seed uint64) Case {
	return Case{Name: fmt.Sprintf("mapping/N=%d,T=%d", n, T), Family: "mapping", Class: FastPath, N: n,
		Prepare: func(ctx context.Context) (*Instance, error) {
			in, err := workload.Sigmoid(n, T, seed)
			if err != nil {
				return nil, err
			}
			res, err := tas.OnionPeel(ctx, in, tas.Options{})
			if err != nil {
				return nil, err
			}
			return &Instance{Size: Size{Jobs: n, Slots: T}, Methods: []Method{{Name: "mapping", Run: func(context.Context) (Outcome, error) {
				m, err := tas.MapToQueues(in, res.Schedule, tas.MappingOptions{Rounding: tas.ExactVolume})
				if err != nil {
					return Outcome{}, err
				}
				end := 0
				for _, c := range m.Completion {
					end = max(end, c)
				}
				o := Outcome{Status: StatusDone, Objective: float64(end), Metrics: map[string]float64{"late": float64(len(m.Late))}}
				if !m.BoundHolds {
					o.Note = fmt.Sprintf("%d jobs past Theorem 3's bound", len(m.Late))
				}
				return o, nil
			}}}}, nil
		}}
}

func contextStatus(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return solvers.TimeLimit.String()
	}
	return solvers.Other.String()
}

// DirSuite reads every model and instance file in dir (not its subdirectories), sorted
// by name: MPS (.mps, .mps.gz) and CPLEX-LP (.lp) models are solved as they are; an
// instance (.json) gives one case per formulation of reg with a Bench entry, NAME/<case>
// in case order (the default registry: NAME/cora-final, FINAL, an LP, and NAME/tas-mip,
// the max-min TAS MIP with onion peeling beside it). Other files are ignored. The files
// are read and checked now, so a bad one is reported before anything runs.
func DirSuite(dir string, reg *solve.Registry) ([]Case, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var benched []*solve.Formulation
	for _, f := range reg.Formulations() {
		if f.Bench != nil && f.Input == solve.InstanceInput {
			benched = append(benched, f)
		}
	}
	slices.SortStableFunc(benched, func(a, b *solve.Formulation) int { return strings.Compare(a.Bench.Case, b.Bench.Case) })
	var out []Case
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		path := filepath.Join(dir, name)
		switch {
		case strings.HasSuffix(name, ".mps"), strings.HasSuffix(name, ".mps.gz"), strings.HasSuffix(name, ".lp"):
			p, err := models.ReadModel(path)
			if err != nil {
				return nil, err
			}
			inst := &Instance{Size: SizeOf(p), Problem: p}
			out = append(out, Case{Name: name, Family: "file", Class: ClassOf(p),
				Prepare: func(context.Context) (*Instance, error) { return inst, nil }})
		case strings.HasSuffix(name, ".json"):
			in, err := sched.DecodeFile(path)
			if err != nil {
				return nil, err
			}
			for _, f := range benched {
				out = append(out, Case{Name: name + "/" + f.Bench.Case, Family: "file", Class: Class(f.Bench.Class),
					Prepare: func(context.Context) (*Instance, error) { return formulationInstance(reg, f, in, in) }})
			}
		}
	}
	return out, nil
}
