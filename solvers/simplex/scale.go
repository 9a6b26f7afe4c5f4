package simplex

import "math"

// Scaling parameters.
const (
	scaleMaxPasses  = 8    // geometric-mean passes at most
	scaleImprove    = 0.9  // stop when a pass improves the spread by less than 10%
	scaleSkipSpread = 16.0 // matrices whose max/min entry ratio is below this are not scaled
	scaleLimit      = 1e10 // bound on any scale factor
)

// computeScaling returns row and column scale factors for the m×n CSC matrix a, powers of
// two so that scaling is exact in floating point: alternating geometric-mean passes
// (each row, then each column, divided by √(min·max) of its entries) while they reduce
// the spread max|a|/min|a| by 10% or more, then column equilibration (each column's
// largest entry scaled to 1 before rounding to a power of two). The scaled matrix is
// R·A·C. Columns with skip set keep scale 1 and do not count for the rows (fixed columns
// only contribute constants; a tiny coefficient on one must not shrink its row's scale).
func computeScaling(m, n int, a *sparseMatrix, skip []bool) (rowScale, colScale []float64) {
	rowScale = make([]float64, m)
	colScale = make([]float64, n)
	for i := range rowScale {
		rowScale[i] = 1
	}
	for j := range colScale {
		colScale[j] = 1
	}
	nnz := len(a.value)
	if nnz == 0 {
		return rowScale, colScale
	}
	// Skipped columns (fixed ones: they contribute constants) count as empty.
	abs := make([]float64, nnz)
	lo, hi := math.Inf(1), 0.0
	for j := 0; j < n; j++ {
		if skip != nil && skip[j] {
			continue
		}
		for p := a.start[j]; p < a.start[j+1]; p++ {
			v := math.Abs(a.value[p])
			abs[p] = v
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
	}
	if hi == 0 {
		return rowScale, colScale
	}
	prev := hi / lo
	if prev < scaleSkipSpread {
		return rowScale, colScale
	}
	rmin := make([]float64, m)
	rmax := make([]float64, m)
	saveR := make([]float64, m)
	saveC := make([]float64, n)
	for pass := 0; pass < scaleMaxPasses; pass++ {
		copy(saveR, rowScale)
		copy(saveC, colScale)
		for i := range rmin {
			rmin[i], rmax[i] = math.Inf(1), 0
		}
		for j := 0; j < n; j++ {
			if skip != nil && skip[j] {
				continue
			}
			cs := colScale[j]
			for p := a.start[j]; p < a.start[j+1]; p++ {
				i := a.index[p]
				v := abs[p] * cs
				if v < rmin[i] {
					rmin[i] = v
				}
				if v > rmax[i] {
					rmax[i] = v
				}
			}
		}
		for i := range rowScale {
			if rmax[i] > 0 {
				rowScale[i] = clampScale(1 / math.Sqrt(rmin[i]*rmax[i]))
			}
		}
		// Column pass; the spread of the scaled matrix comes out of it.
		glo, ghi := math.Inf(1), 0.0
		for j := 0; j < n; j++ {
			if skip != nil && skip[j] {
				continue
			}
			clo, chi := math.Inf(1), 0.0
			for p := a.start[j]; p < a.start[j+1]; p++ {
				v := abs[p] * rowScale[a.index[p]]
				if v < clo {
					clo = v
				}
				if v > chi {
					chi = v
				}
			}
			if chi > 0 {
				cs := clampScale(1 / math.Sqrt(clo*chi))
				colScale[j] = cs
				if v := clo * cs; v < glo {
					glo = v
				}
				if v := chi * cs; v > ghi {
					ghi = v
				}
			}
		}
		cur := ghi / glo
		if cur > prev {
			copy(rowScale, saveR)
			copy(colScale, saveC)
			break
		}
		if cur > scaleImprove*prev {
			break
		}
		prev = cur
	}
	// Column equilibration.
	for j := 0; j < n; j++ {
		if skip != nil && skip[j] {
			continue
		}
		chi := 0.0
		for p := a.start[j]; p < a.start[j+1]; p++ {
			if v := abs[p] * rowScale[a.index[p]]; v > chi {
				chi = v
			}
		}
		if chi > 0 {
			colScale[j] = clampScale(1 / chi)
		}
	}
	for i := range rowScale {
		rowScale[i] = powerOfTwo(rowScale[i])
	}
	for j := range colScale {
		colScale[j] = powerOfTwo(colScale[j])
	}
	return rowScale, colScale
}

func clampScale(s float64) float64 {
	switch {
	case s < 1/scaleLimit:
		return 1 / scaleLimit
	case s > scaleLimit:
		return scaleLimit
	}
	return s
}

// powerOfTwo rounds s > 0 to the nearest power of two in the log scale: s = f·2^e with
// f in [0.5, 1) rounds to 2^e when f ≥ 1/√2 and to 2^(e−1) below.
func powerOfTwo(s float64) float64 {
	f, e := math.Frexp(s)
	if f < math.Sqrt2/2 {
		e--
	}
	return math.Ldexp(1, e)
}
