package simplex_test

import (
	"bufio"
	"fmt"
	"github.com/coraopt/coraopt/model"
	"math"
	"os"
	"testing"
)

func writeMPS(p *model.Problem, path string) {
	f, _ := os.Create(path)
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	fmt.Fprintf(w, "NAME %s\nROWS\n N obj\n", p.Name)
	for i := range p.NumRows() {
		t := "E"
		if math.IsInf(p.RowLower[i], -1) {
			t = "L"
		} else if math.IsInf(p.RowUpper[i], 1) {
			t = "G"
		} else if p.RowLower[i] != p.RowUpper[i] {
			t = "G"
		}
		fmt.Fprintf(w, " %s r%d\n", t, i)
	}
	fmt.Fprintf(w, "COLUMNS\n")
	for j := range p.NumCols() {
		if p.ColCost[j] != 0 {
			fmt.Fprintf(w, " c%d obj %.17g\n", j, p.ColCost[j])
		}
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			fmt.Fprintf(w, " c%d r%d %.17g\n", j, p.AIndex[k], p.AValue[k])
		}
	}
	fmt.Fprintf(w, "RHS\n")
	for i := range p.NumRows() {
		b := p.RowLower[i]
		if math.IsInf(b, -1) {
			b = p.RowUpper[i]
		}
		if b != 0 {
			fmt.Fprintf(w, " rhs r%d %.17g\n", i, b)
		}
	}
	fmt.Fprintf(w, "ENDATA\n")
}
func TestDbgWrite(t *testing.T) {
	writeMPS(scheduleLP(t, 100, 40), "/tmp/sched100.mps")
	writeMPS(scheduleLP(t, 500, 200), "/tmp/sched500.mps")
}
