package lexmax_test

import (
	"context"
	"fmt"
	"log"

	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Three jobs share 10 units of a resource; job a can use at most 2, b at most 5, c at
// most 8, and a job's outcome is what it gets. Max-min fairness gives a its 2 and splits
// the remaining 8 evenly: (2, 4, 4). A plain sum maximization could give (2, 0, 8).
func Example() {
	m := model.New("share")
	a := m.Continuous(0, 2, "a")
	b := m.Continuous(0, 5, "b")
	c := m.Continuous(0, 8, "c")
	m.AddLe(model.Sum(a, b, c), 10, "capacity")
	p := lexmax.Problem{Model: m, Outcomes: []model.Expr{a.E(), b.E(), c.E()}, Names: []string{"a", "b", "c"}}

	s, err := solvers.Get("gonum") // any LP backend: "simplex", "highs", …
	if err != nil {
		log.Fatal(err)
	}
	for _, opt := range []lexmax.Options{
		{Method: lexmax.Ordered},
		{Method: lexmax.WaterFill, Saturation: lexmax.Probe},
	} {
		res, err := lexmax.Solve(context.Background(), p, s, opt)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-9s levels a=%.4f b=%.4f c=%.4f  sorted %.4f  tolerance %g\n",
			res.Method, res.Levels[0], res.Levels[1], res.Levels[2], res.Sorted, res.Tol.Abs)
	}
	// Output:
	// ordered   levels a=2.0000 b=4.0000 c=4.0000  sorted [2.0000 4.0000 4.0000]  tolerance 1e-06
	// waterfill levels a=2.0000 b=4.0000 c=4.0000  sorted [2.0000 4.0000 4.0000]  tolerance 1e-06
}
