//go:build lpsolve

package lpsolve_test

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/lpsolve"
)

// A small production-planning LP solved through the registry, with its row duals
// (the value of one more unit of each resource).
func Example() {
	m := model.New("plan")
	x := m.Continuous(0, 4, "x")
	y := m.Continuous(0, 6, "y")
	m.AddLe(model.Dot([]float64{3, 2}, []model.Var{x, y}), 18, "machine")
	m.Maximize(model.Dot([]float64{3, 5}, []model.Var{x, y}))
	p, err := m.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := solvers.Get("lpsolve")
	if err != nil {
		fmt.Println(err) // a binary built without -tags lpsolve says how to get it
		return
	}
	sol, err := s.Solve(context.Background(), p, solvers.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: objective %.6g at x = %.6g, y = %.6g; machine hour worth %.6g\n",
		sol.Status, sol.Objective, sol.X[0], sol.X[1], sol.RowDual[0])
	// Output: optimal: objective 36 at x = 2, y = 6; machine hour worth 1
}
