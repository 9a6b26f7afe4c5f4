package simplex_test

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// Solve a small production LP, read its duals, then re-solve a modified model from the
// previous basis, as lexmax does.
func Example() {
	m := model.New("production")
	chairs := m.Continuous(0, model.Inf, "chairs")
	tables := m.Continuous(0, model.Inf, "tables")
	m.AddLe(chairs.Mul(2).Plus(tables.Mul(3)), 120, "wood")
	m.AddLe(chairs.Mul(1).Plus(tables.Mul(3)), 90, "labour")
	m.Maximize(chairs.Mul(30).Plus(tables.Mul(60)))
	p, err := m.Compile()
	if err != nil {
		panic(err)
	}
	s := simplex.New()
	sol, err := s.Solve(context.Background(), p, solvers.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: profit %g with %g chairs and %g tables\n", sol.Status, sol.Objective, sol.X[0], sol.X[1])
	fmt.Printf("a unit more wood is worth %g, of labour %g\n", sol.RowDual[0], sol.RowDual[1])

	// Tables sell for more now: warm start from the last basis.
	p.ColCost[1] = 100
	again, err := s.Solve(context.Background(), p, solvers.Options{WarmStart: sol.Basis})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: profit %g with %g chairs and %g tables after %d iterations\n",
		again.Status, again.Objective, again.X[0], again.X[1], again.Iterations)
	// Output:
	// optimal: profit 2100 with 30 chairs and 20 tables
	// a unit more wood is worth 10, of labour 10
	// optimal: profit 3000 with 0 chairs and 30 tables after 1 iterations
}
