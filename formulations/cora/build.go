package cora

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
)

// DefaultMaxLinearizedColumns bounds the size of Linearized-CORA: N·Σ_{r,t}(C^r_t + 2)
// columns. Its λ-representation has one column per integer point 0..C^r_t of every cell,
// which is why the paper reduces it to FINAL; at the default limit the model takes some
// hundreds of megabytes and many seconds to solve.
const DefaultMaxLinearizedColumns = 1_000_000

// ErrStrict is wrapped by a builder's error when Options.Strict turned a warning into an
// error.
var ErrStrict = errors.New("cora: strict")

// Options control BuildFinal and BuildLinearized. The zero value is the paper's model:
// k = |N||T||R| and the default utility scale (see Quantize).
type Options struct {
	// Scale multiplies the utilities before rounding them to integers; 0 chooses the
	// default (Quantize).
	Scale float64
	// K is the base of the weights k^{−u}; 0 means |N||T||R| (cora.txt before eq. (6)),
	// or 2 when that product is 1 (base 1 would give every weight 1). It must exceed 1.
	K float64
	// Tolerance is the solver's relative optimality tolerance the numerics guard compares
	// the weights with; 0 means DefaultTolerance (10⁻⁷).
	Tolerance float64
	// Strict makes the numerics guard's warning, and a warning that rounding merged
	// distinct utility values, an error wrapping ErrStrict.
	Strict bool
	// MaxColumns bounds BuildLinearized's column count; 0 means
	// DefaultMaxLinearizedColumns. BuildFinal ignores it.
	MaxColumns int
}

// Formulation names a model of this package.
type Formulation string

const (
	// Final is FINAL (cora.txt §II-C): λ at the points 0, 1 and C^r of every cell.
	Final Formulation = "final"
	// Linearized is Linearized-CORA (cora.txt §II-B3): λ at every point 0..C^r.
	Linearized Formulation = "linearized"
)

// LP is a built FINAL or Linearized-CORA model of an instance, with the data its
// solutions are decoded and judged by.
type LP struct {
	Formulation Formulation
	Model       *model.Model
	// X[i][r][t-1] is x^r_it, the units of resource r job i holds in slot t.
	X [][][]model.Var
	// Lambda[i][r][t-1][p] is λ at the point Points[r][t-1][p] of cell (i, t, r).
	Lambda [][][][]model.Var
	// Points[r][t-1] is the λ-representation's point set D of resource r in slot t:
	// {0, 1, C^r_t} for FINAL, {0, …, C^r_t} for Linearized-CORA.
	Points [][][]int
	// K is the base of the weights; Weight(i, t) = K^{−u_it}.
	K         float64
	Utilities *Utilities
	Numerics  Numerics
	// Warnings are the numerics guard's and the quantization's warnings, in words.
	Warnings []string
	inst     *sched.Instance
	fixed    [][][]bool // fixed[i][r][t-1]: x is fixed at 0
}

// Instance returns the instance the model was built from.
func (lp *LP) Instance() *sched.Instance { return lp.inst }

// Weight is k^{−u_it}, the objective coefficient of a used cell of job i in slot t
// (1-based), as float64 computes it (0 when it underflows).
func (lp *LP) Weight(i, t int) float64 {
	return math.Pow(lp.K, -float64(lp.Utilities.U[i][t-1]))
}

// BuildFinal builds FINAL (cora.txt §II-C) exactly as written: per cell (i, t, r) the
// columns x^r_it, λ^{r,0}_it, λ^{r,1}_it, λ^{r,c}_it (4|N||T||R| in all), the rows
//
//	λ^{r,1} + C^r·λ^{r,c} = x^r_it          link[i,t,r]
//	λ^{r,0} + λ^{r,1} + λ^{r,c} = 1         convex[i,t,r]
//	Σ_i x^r_it ≤ C^r_t                      capacity[r,t]   (3)
//	Σ_t x^r_it = R^r_i                      demand[i,r]     (4)
//
// and the objective min Σ (λ^{r,0} + k^{−u_it}(λ^{r,1} + λ^{r,c})). Columns are named
// x[j3,t7,containers], lam0[…], lam1[…], lamC[…]. See the package documentation for what
// is added to the paper (capacities per slot, release, max_parallel, zero demands).
func BuildFinal(inst *sched.Instance, opts Options) (*LP, error) {
	return build(inst, opts, Final, func(c int) []int {
		if c == 0 {
			return []int{0, 1, 0} // λ^1 and λ^c exist but are fixed at 0 (see fixPoint)
		}
		return []int{0, 1, c}
	}, func(p, _ int) string { return [...]string{"lam0", "lam1", "lamC"}[p] })
}

// BuildLinearized builds Linearized-CORA (cora.txt §II-B3) exactly as written: per cell
// the column x^r_it and one λ^{r,j}_it for every j ∈ D = {0, …, C^r_t}, the rows
// Σ_j j·λ^{r,j} = x (eq. 8) and Σ_j λ^{r,j} = 1 (eq. 9), capacities (3), demands (4),
// and the objective min Σ (Σ_{j>0} k^{−u_it} λ^{r,j}_it + λ^{r,0}_it). Columns are named
// x[…] and lam<j>[…]. It refuses models above Options.MaxColumns columns.
func BuildLinearized(inst *sched.Instance, opts Options) (*LP, error) {
	if inst != nil {
		limit := opts.MaxColumns
		if limit <= 0 {
			limit = DefaultMaxLinearizedColumns
		}
		// Per job: Σ_{r,t} (C^r_t + 2) columns (x and C^r_t + 1 λs per cell).
		perJob, maxC := 0, 0
		for _, res := range inst.Resources {
			for _, c := range res.Capacity {
				maxC = max(maxC, c)
				if perJob <= limit {
					perJob += max(c, 0) + 2
				}
			}
		}
		if n := max(len(inst.Jobs), 1); perJob > limit/n {
			return nil, fmt.Errorf("cora: Linearized-CORA would have more than %s columns (%d jobs, capacities up to %s: one λ per unit of capacity per cell; the limit is %s) — FINAL is the same LP with 4 columns per cell (Lemma 3)",
				thousands(limit), len(inst.Jobs), thousands(maxC), thousands(limit))
		}
	}
	return build(inst, opts, Linearized, func(c int) []int {
		pts := make([]int, c+1)
		for j := range pts {
			pts[j] = j
		}
		return pts
	}, func(_, j int) string { return "lam" + strconv.Itoa(j) })
}

// pointSet returns the λ points D for capacity c; colName names λ at position p, point j.
type (
	pointSet func(c int) []int
	colNamer func(p, j int) string
)

// build is the λ-representation of eq. (6) over the constraints (3), (4), with the
// points of pts.
func build(inst *sched.Instance, opts Options, f Formulation, pts pointSet, name colNamer) (*LP, error) {
	if err := checkInstance(inst); err != nil {
		return nil, err
	}
	util, err := Quantize(inst, opts.Scale)
	if err != nil {
		return nil, err
	}
	N, T, R := len(inst.Jobs), inst.Horizon, len(inst.Resources)
	k := opts.K
	switch {
	case k == 0:
		k = float64(N) * float64(T) * float64(R)
		if k < 2 {
			k = 2
		}
	case math.IsNaN(k) || math.IsInf(k, 0) || k <= 1:
		return nil, fmt.Errorf("cora: base k = %v: must be a finite number above 1", k)
	}
	tol := opts.Tolerance
	switch {
	case tol == 0:
		tol = DefaultTolerance
	case math.IsNaN(tol) || tol <= 0 || tol >= 1:
		return nil, fmt.Errorf("cora: tolerance %v: must be in (0, 1)", tol)
	}
	for i := range util.U {
		for t, u := range util.U[i] {
			if u < 0 {
				return nil, fmt.Errorf("cora: job %q: utility %g in slot %d is negative (u = %d at scale %g); the paper models utilities as nonnegative, and for u < 0 the cell cost k^{-u·I(x)} is not convex, so the λ-representation (7)–(10) does not apply",
					inst.Jobs[i].ID, inst.Jobs[i].Utility.At(t+1), t+1, u, util.Scale)
			}
		}
	}

	lp := &LP{Formulation: f, K: k, Utilities: util, inst: inst,
		Model:  model.New("cora-" + string(f)),
		X:      make([][][]model.Var, N),
		Lambda: make([][][][]model.Var, N),
		Points: make([][][]int, R),
		fixed:  make([][][]bool, N),
	}
	if inst.Name != "" {
		lp.Model.Name += "-" + nameSafe(inst.Name)
	}
	for r := range R {
		lp.Points[r] = make([][]int, T)
		for t := range T {
			lp.Points[r][t] = pts(inst.Resources[r].Capacity[t])
		}
	}
	jobNames := make([]string, N)
	for i := range inst.Jobs {
		jobNames[i] = nameSafe(inst.Jobs[i].ID)
	}
	resNames := make([]string, R)
	for r := range inst.Resources {
		resNames[r] = nameSafe(inst.Resources[r].Name)
	}
	slotNames := make([]string, T)
	for t := range slotNames {
		slotNames[t] = "t" + strconv.Itoa(t+1)
	}

	m := lp.Model
	capRows := make([]model.Expr, R*T)
	for r := range R {
		for t := range T {
			capRows[r*T+t].Terms = make([]model.Term, 0, N)
		}
	}
	// One slab each for the λ handles and the terms of the per-cell rows, sliced with
	// capped capacity: a 100×40 FINAL has 8,000 such rows.
	nPoints := 0
	for r := range R {
		for t := range T {
			nPoints += len(lp.Points[r][t])
		}
	}
	lamSlab := make([]model.Var, 0, N*nPoints)
	termSlab := make([]model.Term, 0, N*(2*nPoints+R*T))
	take := func(n int) []model.Term {
		k := len(termSlab)
		termSlab = termSlab[:k+n]
		return termSlab[k : k : k+n]
	}
	obj := model.Expr{Terms: make([]model.Term, 0, N*nPoints)}
	usable := make([]int64, 0, N*R*T) // u of every cell whose x is not fixed at 0, for the guard
	var sb strings.Builder
	cell := func(prefix string, i, t, r int) string {
		sb.Reset()
		sb.WriteString(prefix)
		sb.WriteByte('[')
		sb.WriteString(jobNames[i])
		sb.WriteByte(',')
		sb.WriteString(slotNames[t])
		sb.WriteByte(',')
		sb.WriteString(resNames[r])
		sb.WriteByte(']')
		return sb.String()
	}
	for i := range N {
		job := &inst.Jobs[i]
		lp.X[i] = make([][]model.Var, R)
		lp.Lambda[i] = make([][][]model.Var, R)
		lp.fixed[i] = make([][]bool, R)
		for r := range R {
			xs := make([]model.Var, T)
			lams := make([][]model.Var, T)
			fix := make([]bool, T)
			var demand model.Expr
			demand.Terms = make([]model.Term, 0, T)
			for t := range T {
				c := inst.Resources[r].Capacity[t]
				// Not in the paper: a zero demand, a slot before the release and an empty
				// slot fix x at 0; max_parallel bounds it. Column bounds keep the
				// constraint matrix totally unimodular (Lemma 2).
				ub := math.Inf(1)
				switch {
				case job.Demand[r] == 0 || t+1 < job.Release || c == 0:
					ub = 0
					fix[t] = true
				case job.MaxParallel > 0:
					ub = float64(job.MaxParallel)
				}
				x := m.Continuous(0, ub, cell("x", i, t, r))
				xs[t] = x
				if !fix[t] {
					usable = append(usable, util.U[i][t])
				}
				w := math.Pow(k, -float64(util.U[i][t]))
				points := lp.Points[r][t]
				k0 := len(lamSlab)
				lamSlab = lamSlab[:k0+len(points)]
				ls := lamSlab[k0 : k0+len(points) : k0+len(points)]
				link := model.Expr{Terms: take(len(points) + 1)}
				convex := model.Expr{Terms: take(len(points))}
				for p, j := range points {
					lub := math.Inf(1)
					if c == 0 && p > 0 {
						// FINAL's points {0, 1, C} with C = 0: λ^1 and λ^c would be free
						// to take cost k^{-u} < 1 at x = 0; D is {0} here.
						lub = 0
					}
					l := m.Continuous(0, lub, cell(name(p, j), i, t, r))
					ls[p] = l
					if j != 0 {
						link.AddTerm(l, float64(j))
					}
					convex.AddTerm(l, 1)
					if j == 0 && p == 0 {
						obj.AddTerm(l, 1)
					} else {
						obj.AddTerm(l, w)
					}
				}
				lams[t] = ls
				link.AddTerm(x, -1)
				m.AddEq(link, 0, cell("link", i, t, r))
				m.AddEq(convex, 1, cell("convex", i, t, r))
				capRows[r*T+t].AddTerm(x, 1)
				demand.AddTerm(x, 1)
			}
			m.AddEq(demand, float64(job.Demand[r]), "demand["+jobNames[i]+","+resNames[r]+"]")
			lp.X[i][r], lp.Lambda[i][r], lp.fixed[i][r] = xs, lams, fix
		}
	}
	for r := range R {
		for t := range T {
			m.AddLe(capRows[r*T+t], float64(inst.Resources[r].Capacity[t]), "capacity["+resNames[r]+","+slotNames[t]+"]")
		}
	}
	m.Minimize(obj)
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("cora: building %s: %w", f, err)
	}

	lp.Numerics = checkNumerics(k, usable, tol)
	if w := lp.Numerics.Warning; w != "" {
		lp.Warnings = append(lp.Warnings, w)
	}
	if w := util.mergeWarning(); w != "" {
		lp.Warnings = append(lp.Warnings, w)
	}
	if opts.Strict && len(lp.Warnings) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrStrict, strings.Join(lp.Warnings, "; "))
	}
	return lp, nil
}

// checkInstance checks the shape the builders index by (sched.Validate checks more).
func checkInstance(inst *sched.Instance) error {
	if inst == nil {
		return errors.New("cora: nil instance")
	}
	if inst.Horizon < 1 {
		return fmt.Errorf("cora: horizon %d: must be at least 1", inst.Horizon)
	}
	if len(inst.Resources) == 0 || len(inst.Jobs) == 0 {
		return fmt.Errorf("cora: instance has %d resources and %d jobs; needs at least one of each", len(inst.Resources), len(inst.Jobs))
	}
	for _, res := range inst.Resources {
		if len(res.Capacity) != inst.Horizon {
			return fmt.Errorf("cora: resource %q: %d capacities for horizon %d", res.Name, len(res.Capacity), inst.Horizon)
		}
		for t, c := range res.Capacity {
			if c < 0 {
				return fmt.Errorf("cora: resource %q: capacity %d in slot %d is negative", res.Name, c, t+1)
			}
		}
	}
	for _, job := range inst.Jobs {
		if len(job.Demand) != len(inst.Resources) {
			return fmt.Errorf("cora: job %q: %d demands for %d resources", job.ID, len(job.Demand), len(inst.Resources))
		}
		for r, d := range job.Demand {
			if d < 0 {
				return fmt.Errorf("cora: job %q: demand %d of %q is negative", job.ID, d, inst.Resources[r].Name)
			}
		}
		if job.MaxParallel < 0 {
			return fmt.Errorf("cora: job %q: max_parallel %d is negative", job.ID, job.MaxParallel)
		}
	}
	return nil
}

// nameSafe replaces whitespace and control characters, which MPS and LP files cannot
// carry in a name, by '_'.
func nameSafe(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return '_'
		}
		return r
	}, s)
}
