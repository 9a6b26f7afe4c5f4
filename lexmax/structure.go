package lexmax

import (
	"math"
	"slices"
	"strconv"

	"github.com/coraopt/coraopt/model"
)

// outcomeInfo is what the model's bounds and rows say about one outcome without solving.
type outcomeInfo struct {
	// ub is an upper bound on the outcome over the model (+Inf when unknown).
	ub float64
	// oneHot is non-nil when the outcome is c + Σ_s a_s·w_s over binaries w of which at
	// most one can be 1 (a set-packing or assignment row covers them).
	oneHot *oneHot
	// lo, hi: the range of an integer-valued outcome (integer columns, integer
	// coefficients and constant, finite bounds); intOK false otherwise.
	lo, hi float64
	intOK  bool
	// why says why neither structure applies (for NotApplicableError).
	why string
	// integral: the outcome takes only integer values (integer columns, integer
	// coefficients and constant). Freezes of integral quantities are exact: a value v is
	// held as ≥ round(v) − ½, which admits round(v) and nothing below it, with a margin no
	// solver tolerance comes near.
	integral bool
}

// oneHot describes u = c + Σ_s a_s·w_s with Σ_s w_s ≤ 1 (and = 1 when exactly).
type oneHot struct {
	// possible[k]: the k-th term's binary can be 1 (its upper bound is 1).
	possible []bool
	// none: all binaries 0 is possible (value c). False when a row forces exactly one of
	// exactly these binaries to be 1, or one of them is fixed at 1.
	none bool
}

// analyzeOutcomes fills st.info.
func (st *state) analyzeOutcomes() {
	base := st.base
	rs, ri, rv := base.Transpose()
	st.info = make([]outcomeInfo, len(st.outs))
	for i, o := range st.outs {
		st.info[i] = analyzeOutcome(base, rs, ri, rv, o)
	}
}

func isBinary(base *model.Problem, j int) bool {
	return base.Integrality != nil && base.Integrality[j] && base.ColLower[j] >= 0 && base.ColUpper[j] <= 1
}

func analyzeOutcome(base *model.Problem, rs, ri []int, rv []float64, o outcome) outcomeInfo {
	var info outcomeInfo
	// Interval arithmetic over the column bounds.
	lo, hi := o.c, o.c
	for k, j := range o.idx {
		a := o.val[k]
		if a > 0 {
			lo += a * base.ColLower[j]
			hi += a * base.ColUpper[j]
		} else {
			lo += a * base.ColUpper[j]
			hi += a * base.ColLower[j]
		}
	}
	if math.IsNaN(hi) { // +Inf + -Inf cannot happen per side, but be safe
		hi = math.Inf(1)
	}
	if math.IsNaN(lo) {
		lo = math.Inf(-1)
	}
	info.ub = hi

	if oh := detectOneHot(base, rs, ri, rv, o); oh != nil {
		info.oneHot = oh
		ub := math.Inf(-1)
		if oh.none {
			ub = o.c
		}
		for k, ok := range oh.possible {
			if ok {
				ub = math.Max(ub, o.c+o.val[k])
			}
		}
		info.ub = math.Min(info.ub, ub)
	}

	info.integral = !isFrac(o.c)
	for k, j := range o.idx {
		if base.Integrality == nil || !base.Integrality[j] || isFrac(o.val[k]) {
			info.integral = false
		}
	}

	info.intOK = true
	switch {
	case isFrac(o.c):
		info.intOK, info.why = false, "its constant is not an integer"
	case math.IsInf(lo, 0) || math.IsInf(hi, 0):
		info.intOK, info.why = false, "it is unbounded over the column bounds"
	}
	for k, j := range o.idx {
		if !info.intOK {
			break
		}
		if base.Integrality == nil || !base.Integrality[j] {
			info.intOK, info.why = false, "it depends on continuous variable "+colName(base, j)
		} else if isFrac(o.val[k]) {
			info.intOK, info.why = false, "its coefficient on "+colName(base, j)+" is not an integer"
		}
	}
	if info.intOK {
		info.lo, info.hi = math.Ceil(lo-1e-9), math.Floor(hi+1e-9)
	}
	return info
}

func isFrac(v float64) bool { return math.Abs(v-math.Round(v)) > 1e-9 }

func colName(base *model.Problem, j int) string {
	if j < len(base.ColNames) && base.ColNames[j] != "" {
		return base.ColNames[j]
	}
	return "x" + strconv.Itoa(j)
}

// detectOneHot recognizes u = c + Σ_s a_s·w_s where every w_s is binary and some row
// a·Σ_{j∈R} x_j ∈ [lo, hi] with R ⊇ {s}, all columns of R binary, equal coefficients
// a > 0 and hi < 2a (so at most one column of R is 1). When lo > 0 and R equals the
// outcome's columns, exactly one w_s is 1 and the value c is impossible.
func detectOneHot(base *model.Problem, rs, ri []int, rv []float64, o outcome) *oneHot {
	if len(o.idx) == 0 {
		return nil
	}
	for _, j := range o.idx {
		if !isBinary(base, j) {
			return nil
		}
	}
	j0 := o.idx[0]
	for k := base.AStart[j0]; k < base.AStart[j0+1]; k++ {
		r := base.AIndex[k]
		a := rv[rs[r]]
		if a <= 0 || base.RowUpper[r] >= 2*a {
			continue
		}
		ok := true
		for q := rs[r]; q < rs[r+1]; q++ {
			if rv[q] != a || !isBinary(base, ri[q]) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		rowCols := ri[rs[r]:rs[r+1]] // sorted, as Transpose visits columns in order
		covered := true
		for _, j := range o.idx {
			if _, found := slices.BinarySearch(rowCols, j); !found {
				covered = false
				break
			}
		}
		if !covered {
			continue
		}
		oh := &oneHot{possible: make([]bool, len(o.idx))}
		exactly := base.RowLower[r] > 0 && len(rowCols) == len(o.idx)
		forced := false
		for k, j := range o.idx {
			oh.possible[k] = base.ColUpper[j] >= 1
			if base.ColLower[j] >= 1 {
				forced = true
			}
		}
		// A binary fixed at 1 elsewhere in R forces the outcome's binaries to 0.
		for _, j := range rowCols {
			if base.ColLower[j] >= 1 && !slices.Contains(o.idx, j) {
				for k := range oh.possible {
					oh.possible[k] = false
				}
			}
		}
		if forced {
			for k, j := range o.idx {
				oh.possible[k] = base.ColLower[j] >= 1
			}
		}
		oh.none = !exactly && !forced
		return oh
	}
	return nil
}
