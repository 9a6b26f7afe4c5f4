package mps_test

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/mps"
)

func ExampleRead() {
	text := `NAME          tiny
ROWS
 N  cost
 G  demand
COLUMNS
    x         cost      2              demand    1
    y         cost      3              demand    1
RHS
    RHS       cost      -10            demand    4
BOUNDS
 UP BND       x         3
ENDATA
`
	p, err := mps.Read(strings.NewReader(text), mps.Options{
		Warn: func(w mps.Warning) { fmt.Println("warning:", w) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Name, p.Kind(), p.NumRows(), "row,", p.NumCols(), "columns")
	fmt.Println("offset (minus the objective RHS):", p.Offset)
	fmt.Println("x bounds:", p.ColLower[0], p.ColUpper[0])
	fmt.Println("objective at (3, 1):", p.Objective([]float64{3, 1}))

	_, err = mps.Read(strings.NewReader("NAME\nROWS\n N cost\n Q bad\nENDATA\n"), mps.Options{})
	fmt.Println(err)
	// Output:
	// tiny LP 1 row, 2 columns
	// offset (minus the objective RHS): 10
	// x bounds: 0 3
	// objective at (3, 1): 19
	// line 4: ROWS: unknown row type "Q" (want N, L, G or E)
}

func ExampleWrite() {
	m := model.New("knap")
	x := m.Integer(0, 5, "x")
	y := m.Continuous(0, math.Inf(1), "y")
	m.AddRange(model.Sum(x, y), 1, 4, "cap")
	m.Maximize(x.Mul(3).Plus(y.E()))
	p, err := m.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := mps.Write(os.Stdout, p, mps.Options{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// NAME          knap
	// OBJSENSE
	//     MAX
	// ROWS
	//  N  obj
	//  L  cap
	// COLUMNS
	//     MARKER    'MARKER'  'INTORG'
	//     x         obj       3
	//     x         cap       1
	//     MARKER    'MARKER'  'INTEND'
	//     y         obj       1
	//     y         cap       1
	// RHS
	//     RHS       cap       4
	// RANGES
	//     RNG       cap       3
	// BOUNDS
	//  UP BND       x         5
	// ENDATA
}
