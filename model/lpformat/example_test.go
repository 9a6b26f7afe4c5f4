package lpformat_test

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/lpformat"
)

func ExampleRead() {
	text := `Minimize
 obj: - x2 - 3 x3 + [ 2 x1 ^ 2 - 2 x1 * x3 + 0.2 x2 ^ 2 + 2 x3 ^ 2 ] / 2
Subject To
 c1: x1 + x3 <= 2
End
`
	p, err := lpformat.Read(strings.NewReader(text), lpformat.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Kind(), p.ColNames, "Q (lower triangle):", p.QIndex, p.QValue)
	// Columns are numbered as they first appear: x2, x3, x1.
	fmt.Println("objective at x1 = 0.5, x2 = 5, x3 = 1.5:", p.Objective([]float64{5, 1.5, 0.5}))

	_, err = lpformat.Read(strings.NewReader("min\n x\nst\n c: x + y\nend\n"), lpformat.Options{})
	fmt.Println(err)
	// Output:
	// QP [x2 x3 x1] Q (lower triangle): [0 1 2 2] [0.2 2 -1 2]
	// objective at x1 = 0.5, x2 = 5, x3 = 1.5: -5.25
	// line 5: Subject To: expected <=, >= or = after the expression, found "end"
}

func ExampleWrite() {
	m := model.New("demo")
	x := m.Continuous(0, 4, "x")
	y := m.Binary("y")
	z := m.Continuous(math.Inf(-1), math.Inf(1), "z")
	m.AddRange(model.Sum(x, z), -1, 2.5, "band")
	m.AddLe(x.Mul(2).Plus(y.E()), 6, "cap")
	obj := model.SumExpr(x.E(), y.Mul(-2))
	obj.AddConst(7)
	m.Minimize(obj)
	m.AddQuadObj(z, z, 0.5)
	p, err := m.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := lpformat.Write(os.Stdout, p); err != nil {
		fmt.Println(err)
	}
	// Output:
	// \ Problem name: demo
	// Minimize
	//  obj: x - 2 y + 0 z + [ z ^ 2 ] / 2 + 7
	// Subject To
	//  band: -1 <= x + z <= 2.5
	//  cap: 2 x + y <= 6
	// Bounds
	//  x <= 4
	//  z free
	// Binary
	//  y
	// End
}
