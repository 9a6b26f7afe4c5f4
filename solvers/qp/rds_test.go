package qp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// rdsJob is one running job of an RDS control problem (rds.txt §3.1, eq. 3), with
// progress measured in percent of the job.
type rdsJob struct {
	gm, gr  float64 // progress per map / reduce slot per interval (the learned model gain)
	deficit float64 // y_ref(t) − y(t): behind schedule when positive
	rate    float64 // reference progress per interval (uniform per-interval deadline)
	w       float64 // priority W times SLO decay δ
	um, ur  float64 // allocations of the previous interval, u(t−1)
	umax    float64 // slots the job can use (tasks left)
}

// rdsInstance is a receding-horizon QP in the shape of rds.txt eq. 3: for every job j
// and step i < H the map and reduce slots u^m_j(t+i), u^r_j(t+i) ∈ [0, umax_j];
// progress y_j(t+i+1) = y_j(t) + Σ_{k≤i} (g^m_j u^m_j(t+k) + g^r_j u^r_j(t+k));
//
//	minimize Σ_i Σ_j w_j (y_j(t+i+1) − y_ref,j(t+i+1))² + P_i (Δu^m_j(t+i))² + Q_i (Δu^r_j(t+i))²
//	s.t.     Σ_j (u^m_j(t+i) + u^r_j(t+i)) ≤ r̂_a(t+i)   for every i
//
// with P and Q the penalty weights RDS reports (§5). Capacity is set to about 60% of what
// the jobs would take unconstrained, so the capacity rows bind and many jobs get nothing.
type rdsInstance struct {
	jobs     []rdsJob
	horizon  int
	capacity []float64
	rng      *rand.Rand
}

var (
	rdsP = []float64{0.0107, 0.0096, 0.0132}
	rdsQ = []float64{0.0173, 0.0168, 0.0194}
)

func newRDSInstance(jobs, horizon int, seed uint64) *rdsInstance {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
	r := &rdsInstance{horizon: horizon, rng: rng}
	demand := 0.0
	for range jobs {
		j := rdsJob{
			gm: u(0.4, 2), gr: u(0.2, 1.2), deficit: u(-5, 10), rate: u(1, 10),
			w: u(1, 10), um: u(0, 10), ur: u(0, 10), umax: u(5, 40),
		}
		if rng.IntN(5) == 0 {
			j.w *= 0.5 // soft deadline missed: linear decay
		}
		demand += (max(j.deficit, 0) + j.rate) / ((j.gm + j.gr) / 2)
		r.jobs = append(r.jobs, j)
	}
	for range horizon {
		r.capacity = append(r.capacity, 0.6*demand*u(0.8, 1.2))
	}
	return r
}

// col is the column of u^m (kind 0) or u^r (kind 1) of job j at step i.
func (r *rdsInstance) col(j, i, kind int) int { return (j*r.horizon+i)*2 + kind }

func (r *rdsInstance) problem() *model.Problem {
	h := r.horizon
	m := model.New(fmt.Sprintf("rds-%dx%d", len(r.jobs), h))
	n := len(r.jobs) * h * 2
	vars := make([]model.Var, n)
	for j, job := range r.jobs {
		for i := range h {
			vars[r.col(j, i, 0)] = m.Continuous(0, job.umax, fmt.Sprintf("um_%d_%d", j, i))
			vars[r.col(j, i, 1)] = m.Continuous(0, job.umax, fmt.Sprintf("ur_%d_%d", j, i))
		}
	}
	var obj model.Expr
	// w (a·u − b)² = w Σ a_k a_l u_k u_l − 2 w b a·u + w b²
	square := func(idx []int, a []float64, b, w float64) {
		for k := range idx {
			for l := k; l < len(idx); l++ {
				c := w * a[k] * a[l]
				if k != l {
					c *= 2
				}
				m.AddQuadObj(vars[idx[k]], vars[idx[l]], c)
			}
			obj.AddTerm(vars[idx[k]], -2*w*b*a[k])
		}
		obj.AddConst(w * b * b)
	}
	for j, job := range r.jobs {
		var idx []int
		var a []float64
		for i := range h {
			idx = append(idx, r.col(j, i, 0), r.col(j, i, 1))
			a = append(a, job.gm, job.gr)
			square(idx, a, job.deficit+float64(i+1)*job.rate, job.w)
		}
		for i := range h {
			p, q := rdsP[i%len(rdsP)], rdsQ[i%len(rdsQ)]
			if i == 0 {
				square([]int{r.col(j, 0, 0)}, []float64{1}, job.um, p)
				square([]int{r.col(j, 0, 1)}, []float64{1}, job.ur, q)
			} else {
				square([]int{r.col(j, i, 0), r.col(j, i-1, 0)}, []float64{1, -1}, 0, p)
				square([]int{r.col(j, i, 1), r.col(j, i-1, 1)}, []float64{1, -1}, 0, q)
			}
		}
	}
	m.Minimize(obj)
	for i := range h {
		var e model.Expr
		for j := range r.jobs {
			e.AddTerm(vars[r.col(j, i, 0)], 1)
			e.AddTerm(vars[r.col(j, i, 1)], 1)
		}
		m.AddLe(e, r.capacity[i], fmt.Sprintf("capacity_%d", i))
	}
	p, err := m.Compile()
	if err != nil {
		panic(err) // the generator builds valid models; a failure is a bug in it
	}
	return p
}

// advance applies the first step of solution x (the receding-horizon move) and draws the
// next interval: progress and deadlines move on, the capacity forecast shifts by one.
func (r *rdsInstance) advance(x []float64) {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.rng.Float64() }
	for j := range r.jobs {
		job := &r.jobs[j]
		job.um, job.ur = x[r.col(j, 0, 0)], x[r.col(j, 0, 1)]
		progress := job.gm*job.um + job.gr*job.ur
		job.deficit += job.rate - progress*u(0.9, 1.1) // the model is only approximately right
	}
	r.capacity = append(r.capacity[1:], r.capacity[len(r.capacity)-1]*u(0.9, 1.1))
}

// shiftBasis moves a working set one interval along the horizon, as a receding-horizon
// controller re-solving at t+1 would: step i takes the status of step i+1, the last step
// keeps its own; the capacity rows shift likewise.
func (r *rdsInstance) shiftBasis(b *solvers.Basis) *solvers.Basis {
	out := &solvers.Basis{Cols: make([]solvers.BasisStatus, len(b.Cols)), Rows: make([]solvers.BasisStatus, len(b.Rows))}
	h := r.horizon
	for j := range r.jobs {
		for i := range h {
			from := min(i+1, h-1)
			for kind := range 2 {
				out.Cols[r.col(j, i, kind)] = b.Cols[r.col(j, from, kind)]
			}
		}
	}
	for i := range h {
		out.Rows[i] = b.Rows[min(i+1, h-1)]
	}
	return out
}

// TestRDSShapedQP solves RDS-shaped QPs and checks the KKT certificate, that the
// instance is the intended shape (capacity binding, many jobs at zero), and that a warm
// start from the previous interval's working set reaches the same optimum with fewer
// active-set changes.
func TestRDSShapedQP(t *testing.T) {
	for _, jobs := range []int{1, 10, 100} {
		t.Run(fmt.Sprintf("jobs=%d", jobs), func(t *testing.T) {
			r := newRDSInstance(jobs, 3, uint64(jobs))
			p := r.problem()
			sol := solve(t, p, solvers.Options{})
			if sol.Status != solvers.Optimal {
				t.Fatalf("status %v", sol.Status)
			}
			if k := checkKKT(p, sol); k.max() > 1e-7 {
				t.Fatalf("KKT: %v", k)
			}
			if jobs >= 10 {
				binding, zero := 0, 0
				for _, y := range sol.RowDual {
					if y < 0 {
						binding++
					}
				}
				for _, x := range sol.X {
					if x == 0 {
						zero++
					}
				}
				if binding == 0 || zero < len(sol.X)/10 {
					t.Errorf("not RDS-shaped: %d binding capacity rows, %d of %d allocations zero", binding, zero, len(sol.X))
				}
			}
			coldTotal, warmTotal := 0, 0
			defer func() {
				if jobs >= 100 && warmTotal >= coldTotal {
					t.Errorf("warm starts took %d active-set changes, cold starts %d", warmTotal, coldTotal)
				}
			}()
			for step := range 3 {
				r.advance(sol.X)
				p = r.problem()
				cold := solve(t, p, solvers.Options{})
				warm := solve(t, p, solvers.Options{WarmStart: r.shiftBasis(sol.Basis)})
				for _, s := range []*solvers.Solution{cold, warm} {
					if s.Status != solvers.Optimal {
						t.Fatalf("step %d: status %v", step, s.Status)
					}
					if k := checkKKT(p, s); k.max() > 1e-7 {
						t.Fatalf("step %d: KKT: %v", step, k)
					}
				}
				if !near(cold.Objective, warm.Objective, 1e-9) {
					t.Fatalf("step %d: cold objective %.12g, warm %.12g", step, cold.Objective, warm.Objective)
				}
				t.Logf("step %d: %d active-set changes cold, %d warm", step, cold.Iterations, warm.Iterations)
				coldTotal += cold.Iterations
				warmTotal += warm.Iterations
				sol = warm
			}
		})
	}
}
