package mip_test

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/mip"
)

// A 0/1 knapsack: the LP relaxation takes half of b (23.5); the MIP's optimum is a and b.
func ExampleSolver() {
	m := model.New("knapsack")
	x := []model.Var{m.Binary("a"), m.Binary("b"), m.Binary("c"), m.Binary("d")}
	m.AddLe(model.Dot([]float64{3, 4, 2, 3}, x), 7, "weight")
	m.Maximize(model.Dot([]float64{10, 13, 7, 8}, x))
	p, err := m.Compile()
	if err != nil {
		panic(err)
	}
	sol, err := mip.New().Solve(context.Background(), p, solvers.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(sol.Status, sol.Objective, sol.X)
	// Output: optimal 23 [1 1 0 0]
}
