package cora

import (
	"fmt"

	"github.com/coraopt/coraopt/sched"
)

// Comparison sets a schedule decoded from FINAL or Linearized-CORA against exact CORA's.
type Comparison struct {
	// Agree is true when both sorted completion-time utility vectors are equal.
	Agree bool
	// LP and Exact are the two sorted vectors; FirstDiff is the first position where they
	// differ (-1 when they agree).
	LP, Exact []float64
	FirstDiff int
	// LPCost and ExactCost are eq. (6) at each schedule; LPCells and ExactCells the
	// number of cells (i, t, r) each uses.
	LPCost, ExactCost   float64
	LPCells, ExactCells int
	// CellOrder is CompareCells(LP's F_X, Exact's F_X): +1 when R-CORA prefers the LP's
	// schedule, which is how FINAL can be optimal and still lose to exact CORA.
	CellOrder int
	// Detail says it in words.
	Detail string
}

// Compare compares s, a schedule decoded from lp, with exact, CORA's optimum for the same
// instance.
func (lp *LP) Compare(s, exact *sched.Schedule) Comparison {
	c := Comparison{LP: s.Sorted, Exact: exact.Sorted, FirstDiff: -1,
		LPCost: lp.Cost(s), ExactCost: lp.Cost(exact),
		LPCells: usedCells(s), ExactCells: usedCells(exact),
		CellOrder: CompareCells(lp.CellVector(s), lp.CellVector(exact)),
	}
	for k := range min(len(c.LP), len(c.Exact)) {
		if c.LP[k] != c.Exact[k] {
			c.FirstDiff = k
			break
		}
	}
	c.Agree = c.FirstDiff < 0 && len(c.LP) == len(c.Exact)
	name := "FINAL"
	if lp.Formulation == Linearized {
		name = "Linearized-CORA"
	}
	switch {
	case c.Agree:
		c.Detail = fmt.Sprintf("%s's schedule has exact CORA's sorted utility vector", name)
	default:
		c.Detail = fmt.Sprintf("%s's sorted utility vector first differs from exact CORA's at position %d (%.6g against %.6g); ",
			name, c.FirstDiff+1, c.LP[c.FirstDiff], c.Exact[c.FirstDiff])
		switch {
		case c.CellOrder > 0 && c.LPCells > c.ExactCells:
			c.Detail += fmt.Sprintf("%s's schedule uses %d cells, exact CORA's %d: eq. (6) charges 1 for every empty cell, so R-CORA prefers spreading jobs over more slots to finishing them early (eq. (6): %.6g against %.6g)",
				name, c.LPCells, c.ExactCells, c.LPCost, c.ExactCost)
		case c.CellOrder > 0:
			c.Detail += fmt.Sprintf("both use %d cells, but R-CORA's vector of cell utilities (one entry per unit-slot cell, not per job) prefers %s's (eq. (6): %.6g against %.6g)",
				c.LPCells, name, c.LPCost, c.ExactCost)
		case c.CellOrder == 0:
			c.Detail += "R-CORA rates both schedules the same (equal cell vectors): the LP had several optima and returned one that exact CORA beats"
		default:
			c.Detail += fmt.Sprintf("R-CORA prefers exact CORA's schedule too (eq. (6): %.6g against %.6g), so the LP did not reach eq. (6)'s optimum; see the numerics warnings",
				c.ExactCost, c.LPCost)
		}
	}
	return c
}

func usedCells(s *sched.Schedule) int {
	n := 0
	for _, j := range s.Jobs {
		for _, row := range j.Alloc {
			for _, a := range row {
				if a > 0 {
					n++
				}
			}
		}
	}
	return n
}
