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
// the spread max|a|/min|a|, then a column equilibration pass so that every column's
// largest entry lies in [1, 2) after rounding. The scaled matrix is R·A·C.
func computeScaling(m, n int, a *sparseMatrix) (rowScale, colScale []float64) {
	rowScale = make([]float64, m)
	colScale = make([]float64, n)
	for i := range rowScale {
		rowScale[i] = 1
	}
	for j := range colScale {
		colScale[j] = 1
	}
	if len(a.value) == 0 {
		return rowScale, colScale
	}
	spread := func() float64 {
		lo, hi := math.Inf(1), 0.0
		for j := 0; j < n; j++ {
			for p := a.start[j]; p < a.start[j+1]; p++ {
				v := math.Abs(a.value[p]) * rowScale[a.index[p]] * colScale[j]
				lo = math.Min(lo, v)
				hi = math.Max(hi, v)
			}
		}
		return hi / lo
	}
	prev := spread()
	if prev < scaleSkipSpread {
		return rowScale, colScale
	}
	rmin := make([]float64, m)
	rmax := make([]float64, m)
	for pass := 0; pass < scaleMaxPasses; pass++ {
		saveR := append([]float64(nil), rowScale...)
		saveC := append([]float64(nil), colScale...)
		for i := range rmin {
			rmin[i], rmax[i] = math.Inf(1), 0
		}
		for j := 0; j < n; j++ {
			for p := a.start[j]; p < a.start[j+1]; p++ {
				i := a.index[p]
				v := math.Abs(a.value[p]) * colScale[j]
				rmin[i] = math.Min(rmin[i], v)
				rmax[i] = math.Max(rmax[i], v)
			}
		}
		for i := range rowScale {
			if rmax[i] > 0 {
				rowScale[i] = clampScale(1 / math.Sqrt(rmin[i]*rmax[i]))
			}
		}
		for j := 0; j < n; j++ {
			lo, hi := math.Inf(1), 0.0
			for p := a.start[j]; p < a.start[j+1]; p++ {
				v := math.Abs(a.value[p]) * rowScale[a.index[p]]
				lo = math.Min(lo, v)
				hi = math.Max(hi, v)
			}
			if hi > 0 {
				colScale[j] = clampScale(1 / math.Sqrt(lo*hi))
			}
		}
		cur := spread()
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
		hi := 0.0
		for p := a.start[j]; p < a.start[j+1]; p++ {
			hi = math.Max(hi, math.Abs(a.value[p])*rowScale[a.index[p]]*colScale[j])
		}
		if hi > 0 {
			colScale[j] = clampScale(colScale[j] / hi)
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
	return math.Min(math.Max(s, 1/scaleLimit), scaleLimit)
}

// powerOfTwo rounds s > 0 to the nearest power of two (in the log scale).
func powerOfTwo(s float64) float64 {
	return math.Exp2(math.Round(math.Log2(s)))
}
