package qp_test

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/qp"
)

// Two jobs want 6 and 8 slots of a 10-slot cluster; minimizing the squared shortfalls
// (x1 − 6)² + (x2 − 8)² splits the shortage evenly. The capacity row's dual, −4, is the
// rate at which the objective falls per extra slot.
func Example() {
	m := model.New("share")
	x1 := m.Continuous(0, model.Inf, "x1")
	x2 := m.Continuous(0, model.Inf, "x2")
	m.Minimize(model.Dot([]float64{-12, -16}, []model.Var{x1, x2}).Plus(model.Const(100)))
	m.AddQuadObj(x1, x1, 1)
	m.AddQuadObj(x2, x2, 1)
	m.AddLe(model.Sum(x1, x2), 10, "capacity")
	p, err := m.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := qp.New().Solve(context.Background(), p, solvers.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: x = (%.4g, %.4g), objective %.4g, capacity dual %.4g\n",
		sol.Status, sol.X[0], sol.X[1], sol.Objective, sol.RowDual[0])
	// Output: optimal: x = (4, 6), objective 8, capacity dual -4
}
