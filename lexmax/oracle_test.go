package lexmax_test

// Brute-force oracles. They never stand behind a passing test as the solver: lexmax runs
// on a real backend and its answer is compared with these enumerations.

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
	"pgregory.net/rapid"
)

// denseLP is a tiny model in dense form: lo ≤ x ≤ hi, A·x ≤ b, outcomes u = U·x + c.
type denseLP struct {
	Lo, Hi  []float64
	A       [][]float64
	B       []float64
	U       [][]float64
	C       []float64
	Integer bool
}

func (d denseLP) String() string {
	return fmt.Sprintf("box [%v, %v] A=%v b=%v U=%v c=%v integer=%v", d.Lo, d.Hi, d.A, d.B, d.U, d.C, d.Integer)
}

func (d denseLP) build() (*model.Model, []model.Expr) {
	m := model.New("dense")
	typ := model.Continuous
	if d.Integer {
		typ = model.Integer
	}
	x := make([]model.Var, len(d.Lo))
	for j := range x {
		x[j] = m.AddVar(d.Lo[j], d.Hi[j], typ, fmt.Sprintf("x%d", j))
	}
	for r, row := range d.A {
		m.AddLe(model.Dot(row, x), d.B[r], fmt.Sprintf("r%d", r))
	}
	outs := make([]model.Expr, len(d.U))
	for i, row := range d.U {
		e := model.Dot(row, x)
		e.AddConst(d.C[i])
		outs[i] = e
	}
	return m, outs
}

func (d denseLP) outcomes(x []float64) []float64 {
	u := make([]float64, len(d.U))
	for i, row := range d.U {
		u[i] = d.C[i]
		for j, a := range row {
			u[i] += a * x[j]
		}
	}
	return u
}

func (d denseLP) feasible(x []float64) bool {
	const eps = 1e-9
	for j, v := range x {
		if v < d.Lo[j]-eps || v > d.Hi[j]+eps {
			return false
		}
	}
	for r, row := range d.A {
		s := 0.0
		for j, a := range row {
			s += a * x[j]
		}
		if s > d.B[r]+eps {
			return false
		}
	}
	return true
}

// lexLess reports whether sorted vector a is lexicographically smaller than b by more
// than tol at the first position where they differ by more than tol.
func lexLess(a, b []float64, tol float64) bool {
	for k := range a {
		if a[k] < b[k]-tol {
			return true
		}
		if a[k] > b[k]+tol {
			return false
		}
	}
	return false
}

func sortedCopy(u []float64) []float64 {
	s := slices.Clone(u)
	slices.Sort(s)
	return s
}

// lpOracle returns the lexmax sorted vector of a bounded LP by enumerating the vertices
// of the arrangement formed by the model's constraints and the hyperplanes u_i = u_j.
//
// Why that suffices: let x* be a lexmax point and σ the order of u(x*). On the polytope
// R = P ∩ {u_σ(1) ≤ … ≤ u_σ(n)} the sorted vector is the linear map (u_σ(1), …, u_σ(n)),
// so lexicographic maximization over R is a sequence of LPs whose optimal face contains a
// vertex of R; that vertex has the same sorted vector as x*, and every vertex of R is a
// point where nv independent hyperplanes of the arrangement meet.
func lpOracle(d denseLP) []float64 {
	nv := len(d.Lo)
	type plane struct {
		a []float64
		b float64
	}
	var planes []plane
	for j := range nv {
		e := make([]float64, nv)
		e[j] = 1
		planes = append(planes, plane{e, d.Lo[j]}, plane{e, d.Hi[j]})
	}
	for r, row := range d.A {
		planes = append(planes, plane{row, d.B[r]})
	}
	for i := range d.U {
		for j := i + 1; j < len(d.U); j++ {
			a := make([]float64, nv)
			for k := range a {
				a[k] = d.U[i][k] - d.U[j][k]
			}
			planes = append(planes, plane{a, d.C[j] - d.C[i]})
		}
	}
	var best []float64
	pick := make([]int, nv)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == nv {
			a := make([][]float64, nv)
			b := make([]float64, nv)
			for k, p := range pick {
				a[k] = slices.Clone(planes[p].a)
				b[k] = planes[p].b
			}
			x, ok := solveSquare(a, b)
			if !ok || !d.feasible(x) {
				return
			}
			s := sortedCopy(d.outcomes(x))
			if best == nil || lexLess(best, s, 1e-9) {
				best = s
			}
			return
		}
		for p := start; p < len(planes); p++ {
			pick[depth] = p
			rec(p+1, depth+1)
		}
	}
	rec(0, 0)
	return best
}

// solveSquare solves a·x = b by Gaussian elimination with partial pivoting; ok is false
// when a is (numerically) singular.
func solveSquare(a [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-9 {
			return nil, false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}

// intOracle returns the lexmax sorted vector over the integer points of d (nil when
// there is none).
func intOracle(d denseLP) []float64 {
	nv := len(d.Lo)
	x := make([]float64, nv)
	var best []float64
	var rec func(j int)
	rec = func(j int) {
		if j == nv {
			if !d.feasible(x) {
				return
			}
			s := sortedCopy(d.outcomes(x))
			if best == nil || lexLess(best, s, 1e-9) {
				best = s
			}
			return
		}
		for v := math.Ceil(d.Lo[j]); v <= d.Hi[j]; v++ {
			x[j] = v
			rec(j + 1)
		}
	}
	rec(0)
	return best
}

// genDense draws a tiny bounded model that contains x = 0 (so it is feasible).
func genDense(t *rapid.T, integer bool) denseLP {
	nv := rapid.IntRange(1, 3).Draw(t, "nv")
	nrow := rapid.IntRange(0, 3).Draw(t, "rows")
	nout := rapid.IntRange(2, 4).Draw(t, "outcomes")
	coef := rapid.IntRange(-2, 3)
	d := denseLP{Integer: integer}
	for j := range nv {
		d.Lo = append(d.Lo, 0)
		d.Hi = append(d.Hi, float64(rapid.IntRange(1, 4).Draw(t, fmt.Sprintf("hi%d", j))))
	}
	for r := range nrow {
		row := make([]float64, nv)
		for j := range row {
			row[j] = float64(coef.Draw(t, fmt.Sprintf("a%d_%d", r, j)))
		}
		d.A = append(d.A, row)
		d.B = append(d.B, float64(rapid.IntRange(0, 6).Draw(t, fmt.Sprintf("b%d", r))))
	}
	for i := range nout {
		row := make([]float64, nv)
		for j := range row {
			row[j] = float64(coef.Draw(t, fmt.Sprintf("u%d_%d", i, j)))
		}
		d.U = append(d.U, row)
		d.C = append(d.C, float64(rapid.IntRange(-2, 2).Draw(t, fmt.Sprintf("c%d", i))))
	}
	return d
}

// tasInstance is a small single-resource scheduling instance: capacity C per slot,
// slots 1..T, job i needs Eta[i] units and earns U[i][s-1] when it completes in slot s
// (non-increasing in s).
type tasInstance struct {
	C   int
	T   int
	Eta []int
	U   [][]int
}

func (in tasInstance) String() string {
	return fmt.Sprintf("C=%d T=%d eta=%v U=%v", in.C, in.T, in.Eta, in.U)
}

// buildTAS is a time-indexed MIP: x_it ∈ Z⁺ units of job i in slot t, w_is binary "job i
// completes in slot s" (exactly one), work only up to the completion slot, capacity per
// slot, demand met; outcome u_i = Σ_s U_i(s)·w_is.
func buildTAS(in tasInstance) (*model.Model, []model.Expr) {
	n := len(in.Eta)
	m := model.New("tas")
	x := m.Vars2(n, in.T, 0, float64(in.C), model.Integer, "x[%d,%d]")
	w := m.Vars2(n, in.T, 0, 1, model.Binary, "w[%d,%d]")
	outs := make([]model.Expr, n)
	for i := range n {
		m.AddEq(model.Sum(w[i]...), 1, fmt.Sprintf("one[%d]", i))
		m.AddGe(model.Sum(x[i]...), float64(in.Eta[i]), fmt.Sprintf("demand[%d]", i))
		for t := range in.T {
			// x_it ≤ C · Σ_{s ≥ t} w_is
			e := x[i][t].E()
			for s := t; s < in.T; s++ {
				e.AddTerm(w[i][s], -float64(in.C))
			}
			m.AddLe(e, 0, fmt.Sprintf("until[%d,%d]", i, t))
		}
		var u model.Expr
		for s := range in.T {
			u.AddTerm(w[i][s], float64(in.U[i][s]))
		}
		outs[i] = u
	}
	for t := range in.T {
		col := make([]model.Var, n)
		for i := range n {
			col[i] = x[i][t]
		}
		m.AddLe(model.Sum(col...), float64(in.C), fmt.Sprintf("cap[%d]", t))
	}
	return m, outs
}

// tasOracle enumerates completion slots d ∈ [1..T]^n; d is feasible exactly when the EDF
// prefix condition Σ_{k: d_k ≤ t} η_k ≤ C·t holds for every t (rush.txt Theorem 2).
func tasOracle(in tasInstance) []float64 {
	n := len(in.Eta)
	d := make([]int, n)
	var best []float64
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			for t := 1; t <= in.T; t++ {
				need := 0
				for k := range n {
					if d[k] <= t {
						need += in.Eta[k]
					}
				}
				if need > in.C*t {
					return
				}
			}
			u := make([]float64, n)
			for k := range n {
				u[k] = float64(in.U[k][d[k]-1])
			}
			s := sortedCopy(u)
			if best == nil || lexLess(best, s, 1e-9) {
				best = s
			}
			return
		}
		for s := 1; s <= in.T; s++ {
			d[i] = s
			rec(i + 1)
		}
	}
	rec(0)
	return best
}

// genTAS draws a feasible instance with small integer utility tables (ties on purpose:
// they make water-filling stall).
func genTAS(t *rapid.T, maxJobs, maxT int) tasInstance {
	in := tasInstance{
		C: rapid.IntRange(1, 3).Draw(t, "C"),
		T: rapid.IntRange(2, maxT).Draw(t, "T"),
	}
	n := rapid.IntRange(2, min(maxJobs, in.C*in.T)).Draw(t, "jobs")
	room := in.C * in.T
	for i := range n {
		left := room - (n - 1 - i) // keep one unit for each later job
		eta := rapid.IntRange(1, max(1, min(left, 2*in.C))).Draw(t, fmt.Sprintf("eta%d", i))
		in.Eta = append(in.Eta, eta)
		room -= eta
	}
	for i := range n {
		row := make([]int, in.T)
		v := rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("top%d", i))
		for s := range row {
			v -= rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("drop%d_%d", i, s))
			v = max(v, 0)
			row[s] = v
		}
		in.U = append(in.U, row)
	}
	return in
}

// backends returns the registered backends that can solve the given class, in name
// order, each as a fresh instance.
func backends(t testing.TB, mip bool) []solvers.Solver {
	t.Helper()
	var out []solvers.Solver
	for _, name := range solvers.Names() {
		s, err := solvers.Get(name)
		if err != nil {
			t.Fatalf("solvers.Get(%q): %v", name, err)
		}
		d, ok := s.(solvers.Describer)
		if !ok {
			continue
		}
		c := d.Capabilities()
		if !c.LP || (mip && !c.MIP) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// allConfigs lists every method × saturation test.
func allConfigs() []lexmax.Options {
	return []lexmax.Options{
		{Method: lexmax.Ordered},
		{Method: lexmax.Ordered, OutcomesForm: true},
		{Method: lexmax.WaterFill, Saturation: lexmax.Probe},
		{Method: lexmax.WaterFill, Saturation: lexmax.Duals},
		{Method: lexmax.WaterFill, Saturation: lexmax.MILP},
		{Method: lexmax.ExpWeights},
	}
}

func configName(o lexmax.Options) string {
	name := o.Method.String()
	switch {
	case o.Method == lexmax.WaterFill:
		name += "-" + o.Saturation.String()
	case o.Method == lexmax.Ordered && o.OutcomesForm:
		name = "ordered-outcomes"
	}
	if o.NoWarmStart {
		name += "-cold"
	}
	return name
}

func maxDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d := 0.0
	for k := range a {
		d = math.Max(d, math.Abs(a[k]-b[k]))
	}
	return d
}

// choiceModel: agent i picks at most one option s (binary w_is, Σ_s w_is ≤ 1) worth
// V[i][s] to it (0 when it picks none); options use a shared resource, Σ A[i][s]·w_is ≤ B.
// Outcomes are one-hot with a "none" value.
type choiceModel struct {
	V [][]int
	A [][]int
	B int
}

func (c choiceModel) String() string { return fmt.Sprintf("V=%v A=%v B=%d", c.V, c.A, c.B) }

func (c choiceModel) build() (*model.Model, []model.Expr) {
	m := model.New("choice")
	var use model.Expr
	outs := make([]model.Expr, len(c.V))
	for i, vals := range c.V {
		w := m.Vars1(len(vals), 0, 1, model.Binary, fmt.Sprintf("w[%d,%%d]", i))
		m.AddLe(model.Sum(w...), 1, fmt.Sprintf("pick[%d]", i))
		for s, v := range vals {
			outs[i].AddTerm(w[s], float64(v))
			use.AddTerm(w[s], float64(c.A[i][s]))
		}
	}
	m.AddLe(use, float64(c.B), "resource")
	return m, outs
}

func (c choiceModel) oracle() []float64 {
	n := len(c.V)
	pick := make([]int, n) // -1: none
	var best []float64
	var rec func(i, used int)
	rec = func(i, used int) {
		if used > c.B {
			return
		}
		if i == n {
			u := make([]float64, n)
			for k, s := range pick {
				if s >= 0 {
					u[k] = float64(c.V[k][s])
				}
			}
			s := sortedCopy(u)
			if best == nil || lexLess(best, s, 1e-9) {
				best = s
			}
			return
		}
		for s := -1; s < len(c.V[i]); s++ {
			pick[i] = s
			cost := 0
			if s >= 0 {
				cost = c.A[i][s]
			}
			rec(i+1, used+cost)
		}
	}
	rec(0, 0)
	return best
}

func genChoice(t *rapid.T) choiceModel {
	n := rapid.IntRange(2, 4).Draw(t, "agents")
	var c choiceModel
	for i := range n {
		k := rapid.IntRange(1, 3).Draw(t, fmt.Sprintf("options%d", i))
		var v, a []int
		for s := range k {
			v = append(v, rapid.IntRange(-1, 4).Draw(t, fmt.Sprintf("v%d_%d", i, s)))
			a = append(a, rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("a%d_%d", i, s)))
		}
		c.V, c.A = append(c.V, v), append(c.A, a)
	}
	c.B = rapid.IntRange(0, 6).Draw(t, "B")
	return c
}
