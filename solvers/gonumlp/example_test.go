package gonumlp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/gonumlp" // registers "gonum"
)

func Example() {
	// max 3x + 5y s.t. x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18, with y free of sign but ≥ −1 via a
	// ranged row, and an objective constant.
	m := model.New("wyndor")
	x := m.Continuous(0, model.Inf, "x")
	y := m.Continuous(-model.Inf, model.Inf, "y")
	m.AddLe(x.E(), 4, "plant1")
	m.AddRange(y.Mul(2), -2, 12, "plant2")
	m.AddLe(x.Mul(3).Plus(y.Mul(2)), 18, "plant3")
	obj := x.Mul(3).Plus(y.Mul(5))
	obj.AddConst(100)
	m.Maximize(obj)
	p, err := m.Compile()
	if err != nil {
		log.Fatal(err)
	}

	s, err := solvers.Get("gonum")
	if err != nil {
		log.Fatal(err)
	}
	sol, err := s.Solve(context.Background(), p, solvers.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: objective %.6g at x = %.6g, y = %.6g; row activities %.6g\n",
		sol.Status, sol.Objective, sol.X[0], sol.X[1], sol.RowActivity)
	// Output:
	// optimal: objective 136 at x = 2, y = 6; row activities [2 12 18]
}
