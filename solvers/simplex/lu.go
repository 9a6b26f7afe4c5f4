package simplex

import "math"

// Factorization parameters. The threshold is the one Suhl & Suhl and HiGHS use: a pivot
// must be at least a tenth of the largest entry of its column in the active submatrix.
const (
	luThreshold    = 0.1   // threshold partial pivoting: |a_rc| ≥ u·max_i |a_ic|
	luAbsPivotTol  = 1e-11 // entries below this never become pivots (B is treated as singular)
	luSearchLimit  = 8     // Markowitz: columns/rows examined after a first acceptable pivot
	luDropTol      = 1e-14 // smaller values are dropped from solve results
	luInitialSpare = 4     // room for fill-in per column/row before it is moved
)

// sparseMatrix is a compressed sparse column matrix (the scaled constraint matrix).
type sparseMatrix struct {
	start []int
	index []int
	value []float64
}

// luFactor is a sparse LU factorization of a simplex basis matrix B with product-form
// updates. B's column k is column basic[k] of [A I]. After factorize, the caller permutes
// its basis so that the variable pivoted in row r sits at position r; from then on the
// positions of the basis and the rows of B coincide, and ftran returns B⁻¹a indexed by
// position, btran returns B⁻ᵀe indexed by row.
//
// The factorization is Markowitz pivoting with threshold partial pivoting on the whole
// matrix (singletons have merit 0 and are taken first), searching columns and rows in order
// of their counts with Suhl & Suhl's stopping rule. L is kept as column etas in pivot order
// and row-wise (for BTRAN); U both column- and row-wise so that both solves run in
// scatter (axpy) form and skip zero entries — the cheap half of hyper-sparsity.
type luFactor struct {
	m int

	// Active submatrix during factorization: columns with values, rows as patterns.
	cStart, cLen, cCap []int
	cIdx               []int
	cVal               []float64
	rStart, rLen, rCap []int
	rIdx               []int
	colMaxVal          []float64 // cached max |entry| per column; <0: stale
	colDone, rowDone   []bool
	mark               []int // scratch: row → offset+1 within the column being updated

	// Count lists (doubly linked, head per count).
	colHead, colNext, colPrev []int
	rowHead, rowNext, rowPrev []int

	// Elimination record.
	stepRow, stepCol []int
	stepPiv          []float64
	uTmpStart        []int
	uTmpIdx          []int // basis positions
	uTmpVal          []float64
	lPiv             []int // eta e: pivot row
	lStart           []int
	lIdx             []int
	lVal             []float64

	// Final factors, indexed by row (= basis position after permutation).
	pivOrder       []int // pivot sequence of rows
	uDiag          []float64
	ucStart, ucIdx []int // U column r: rows pivoted earlier
	ucVal          []float64
	urStart, urIdx []int // U row r: rows pivoted later
	urVal          []float64
	lrStart, lrIdx []int // L transposed: row i → etas' pivot rows
	lrVal          []float64
	rowOfPos       []int // position k of the factorized basis → its pivot row
	pivIdx         []int // row → its step in the pivot sequence
	lEtaOf         []int // row → the L eta it pivots, or −1
	smark          []bool
	heap           []int
	posScratch     []int
	singularPos    []int // positions replaced by logicals (repair)
	singularRow    []int // the rows whose logicals replaced them
	luNonzeros     int

	// Product-form etas: pfPos[e] is the pivot position; entries exclude the pivot.
	pfPos   []int
	pfPivot []float64
	pfStart []int
	pfIdx   []int
	pfVal   []float64
}

// numUpdates is the number of product-form updates since the last factorization.
func (f *luFactor) numUpdates() int { return len(f.pfPos) }

// etaNonzeros is the number of nonzeros in the update etas.
func (f *luFactor) etaNonzeros() int { return len(f.pfIdx) }

func growInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func growFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func growBools(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// factorize computes B = LU for the basis whose position k holds variable basic[k]
// (variables ≥ n are logicals: column e_{v−n}). It returns the number of positions whose
// column was linearly dependent; those positions are now the logicals of singularRow
// (singularPos[i] gets row singularRow[i]) and the caller must update its basis to match.
// After the call rowOfPos[k] is the row (new position) of old position k.
func (f *luFactor) factorize(m, n int, a *sparseMatrix, basic []int) int {
	f.m = m
	f.load(n, a, basic)
	f.initLists()
	f.stepRow, f.stepCol, f.stepPiv = f.stepRow[:0], f.stepCol[:0], f.stepPiv[:0]
	f.uTmpStart = append(f.uTmpStart[:0], 0)
	f.uTmpIdx, f.uTmpVal = f.uTmpIdx[:0], f.uTmpVal[:0]
	f.lPiv, f.lIdx, f.lVal = f.lPiv[:0], f.lIdx[:0], f.lVal[:0]
	f.lStart = append(f.lStart[:0], 0)

	for len(f.stepRow) < m {
		r, c := f.findPivot()
		if r < 0 {
			break
		}
		f.eliminate(r, c)
	}

	// Repair: pair every unpivoted position with an unpivoted row and pivot the row's
	// logical there. Its column is e_r, untouched by L (row r was never a pivot row) and
	// with no entries in earlier U rows once the dependent column's U entries are dropped.
	f.singularPos, f.singularRow = f.singularPos[:0], f.singularRow[:0]
	if len(f.stepRow) < m {
		for k := 0; k < m; k++ {
			if !f.colDone[k] {
				f.singularPos = append(f.singularPos, k)
			}
		}
		for i := 0; i < m; i++ {
			if !f.rowDone[i] {
				f.singularRow = append(f.singularRow, i)
			}
		}
		for t, k := range f.singularPos {
			r := f.singularRow[t]
			f.stepRow = append(f.stepRow, r)
			f.stepCol = append(f.stepCol, k)
			f.stepPiv = append(f.stepPiv, 1)
			f.uTmpStart = append(f.uTmpStart, len(f.uTmpIdx))
		}
	}
	f.build()
	f.pfPos, f.pfPivot, f.pfIdx, f.pfVal = f.pfPos[:0], f.pfPivot[:0], f.pfIdx[:0], f.pfVal[:0]
	f.pfStart = append(f.pfStart[:0], 0)
	return len(f.singularPos)
}

// load copies B into the active-submatrix storage.
func (f *luFactor) load(n int, a *sparseMatrix, basic []int) {
	m := f.m
	f.cStart = growInts(f.cStart, m)
	f.cLen = growInts(f.cLen, m)
	f.cCap = growInts(f.cCap, m)
	f.rStart = growInts(f.rStart, m)
	f.rLen = growInts(f.rLen, m)
	f.rCap = growInts(f.rCap, m)
	f.colMaxVal = growFloats(f.colMaxVal, m)
	f.colDone = growBools(f.colDone, m)
	f.rowDone = growBools(f.rowDone, m)
	f.mark = growInts(f.mark, m)
	clear(f.mark)
	clear(f.rLen)

	f.cIdx, f.cVal = f.cIdx[:0], f.cVal[:0]
	for k, v := range basic {
		f.cStart[k] = len(f.cIdx)
		if v >= n {
			f.cIdx = append(f.cIdx, v-n)
			f.cVal = append(f.cVal, 1)
			f.rLen[v-n]++
		} else {
			for p := a.start[v]; p < a.start[v+1]; p++ {
				f.cIdx = append(f.cIdx, a.index[p])
				f.cVal = append(f.cVal, a.value[p])
				f.rLen[a.index[p]]++
			}
		}
		f.cLen[k] = len(f.cIdx) - f.cStart[k]
		f.cCap[k] = f.cLen[k] + luInitialSpare
		for range luInitialSpare {
			f.cIdx = append(f.cIdx, 0)
			f.cVal = append(f.cVal, 0)
		}
		f.colMaxVal[k] = -1
	}
	total := 0
	for i := 0; i < m; i++ {
		f.rStart[i] = total
		f.rCap[i] = f.rLen[i] + luInitialSpare
		total += f.rCap[i]
		f.rLen[i] = 0
	}
	f.rIdx = growInts(f.rIdx, total)
	for k := 0; k < m; k++ {
		for p := f.cStart[k]; p < f.cStart[k]+f.cLen[k]; p++ {
			i := f.cIdx[p]
			f.rIdx[f.rStart[i]+f.rLen[i]] = k
			f.rLen[i]++
		}
	}
}

func (f *luFactor) initLists() {
	m := f.m
	f.colHead = growInts(f.colHead, m+1)
	f.rowHead = growInts(f.rowHead, m+1)
	f.colNext = growInts(f.colNext, m)
	f.colPrev = growInts(f.colPrev, m)
	f.rowNext = growInts(f.rowNext, m)
	f.rowPrev = growInts(f.rowPrev, m)
	for i := range f.colHead {
		f.colHead[i] = -1
		f.rowHead[i] = -1
	}
	for k := m - 1; k >= 0; k-- {
		f.colInsert(k)
	}
	for i := m - 1; i >= 0; i-- {
		f.rowInsert(i)
	}
}

// colInsert puts column k into the list of its count; a column with no entries left is
// structurally dependent and is set aside (it stays unpivoted).
func (f *luFactor) colInsert(k int) {
	c := f.cLen[k]
	if c == 0 {
		f.colNext[k], f.colPrev[k] = -2, -2
		return
	}
	h := f.colHead[c]
	f.colNext[k] = h
	f.colPrev[k] = -1
	if h >= 0 {
		f.colPrev[h] = k
	}
	f.colHead[c] = k
}

func (f *luFactor) colRemove(k int) {
	if f.colNext[k] == -2 {
		return
	}
	next, prev := f.colNext[k], f.colPrev[k]
	if prev >= 0 {
		f.colNext[prev] = next
	} else {
		f.colHead[f.cLen[k]] = next
	}
	if next >= 0 {
		f.colPrev[next] = prev
	}
	f.colNext[k], f.colPrev[k] = -2, -2
}

func (f *luFactor) rowInsert(i int) {
	c := f.rLen[i]
	if c == 0 {
		f.rowNext[i], f.rowPrev[i] = -2, -2
		return
	}
	h := f.rowHead[c]
	f.rowNext[i] = h
	f.rowPrev[i] = -1
	if h >= 0 {
		f.rowPrev[h] = i
	}
	f.rowHead[c] = i
}

func (f *luFactor) rowRemove(i int) {
	if f.rowNext[i] == -2 {
		return
	}
	next, prev := f.rowNext[i], f.rowPrev[i]
	if prev >= 0 {
		f.rowNext[prev] = next
	} else {
		f.rowHead[f.rLen[i]] = next
	}
	if next >= 0 {
		f.rowPrev[next] = prev
	}
	f.rowNext[i], f.rowPrev[i] = -2, -2
}

func (f *luFactor) colMax(k int) float64 {
	if v := f.colMaxVal[k]; v >= 0 {
		return v
	}
	mx := 0.0
	for p := f.cStart[k]; p < f.cStart[k]+f.cLen[k]; p++ {
		if a := math.Abs(f.cVal[p]); a > mx {
			mx = a
		}
	}
	f.colMaxVal[k] = mx
	return mx
}

// dropColumn removes a numerically zero column from the active submatrix; it stays
// unpivoted and is replaced by a logical in the repair step.
func (f *luFactor) dropColumn(k int) {
	f.colRemove(k)
	for p := f.cStart[k]; p < f.cStart[k]+f.cLen[k]; p++ {
		i := f.cIdx[p]
		f.rowRemove(i)
		f.rowPatternDelete(i, k)
		f.rowInsert(i)
	}
	f.cLen[k] = 0
	f.colNext[k], f.colPrev[k] = -2, -2
}

func (f *luFactor) rowPatternDelete(i, k int) {
	s, e := f.rStart[i], f.rStart[i]+f.rLen[i]
	for p := s; p < e; p++ {
		if f.rIdx[p] == k {
			f.rIdx[p] = f.rIdx[e-1]
			f.rLen[i]--
			return
		}
	}
}

// findValue returns the position in the column pool of entry (i, k), or -1.
func (f *luFactor) findValue(i, k int) int {
	for p := f.cStart[k]; p < f.cStart[k]+f.cLen[k]; p++ {
		if f.cIdx[p] == i {
			return p
		}
	}
	return -1
}

// findPivot is the Markowitz search of Suhl & Suhl: columns and rows by increasing count,
// merit (r−1)(c−1), threshold partial pivoting within the column, stopping after
// luSearchLimit candidates or when no unexamined entry can beat the best merit.
func (f *luFactor) findPivot() (int, int) {
	bestR, bestC := -1, -1
	bestMerit := math.MaxInt
	bestAbs := 0.0
	searched := 0
	for cnt := 1; cnt <= f.m; cnt++ {
		for k := f.colHead[cnt]; k >= 0; {
			next := f.colNext[k]
			cmax := f.colMax(k)
			if cmax < luAbsPivotTol {
				f.dropColumn(k)
				k = next
				continue
			}
			thr := luThreshold * cmax
			for p := f.cStart[k]; p < f.cStart[k]+f.cLen[k]; p++ {
				v := math.Abs(f.cVal[p])
				if v < thr || v < luAbsPivotTol {
					continue
				}
				i := f.cIdx[p]
				merit := (f.rLen[i] - 1) * (cnt - 1)
				if merit < bestMerit || (merit == bestMerit && v > bestAbs) {
					bestR, bestC, bestMerit, bestAbs = i, k, merit, v
				}
			}
			searched++
			if bestR >= 0 && (searched >= luSearchLimit || bestMerit <= (cnt-1)*(cnt-1)) {
				return bestR, bestC
			}
			k = next
		}
		for i := f.rowHead[cnt]; i >= 0; i = f.rowNext[i] {
			for q := f.rStart[i]; q < f.rStart[i]+f.rLen[i]; q++ {
				k := f.rIdx[q]
				p := f.findValue(i, k)
				if p < 0 {
					continue
				}
				v := math.Abs(f.cVal[p])
				cmax := f.colMax(k)
				if v < luThreshold*cmax || v < luAbsPivotTol {
					continue
				}
				merit := (cnt - 1) * (f.cLen[k] - 1)
				if merit < bestMerit || (merit == bestMerit && v > bestAbs) {
					bestR, bestC, bestMerit, bestAbs = i, k, merit, v
				}
			}
			searched++
			if bestR >= 0 && (searched >= luSearchLimit || bestMerit <= cnt*(cnt-1)) {
				return bestR, bestC
			}
		}
		if bestR >= 0 && bestMerit <= cnt*cnt {
			return bestR, bestC
		}
	}
	return bestR, bestC
}

// colAppend adds entry (i, v) to column k, moving the column to the end of the pool when
// it has no room left.
func (f *luFactor) colAppend(k, i int, v float64) {
	if f.cLen[k] == f.cCap[k] {
		s, l := f.cStart[k], f.cLen[k]
		ns := len(f.cIdx)
		nc := 2*l + luInitialSpare
		f.cIdx = append(f.cIdx, f.cIdx[s:s+l]...)
		f.cVal = append(f.cVal, f.cVal[s:s+l]...)
		for range nc - l {
			f.cIdx = append(f.cIdx, 0)
			f.cVal = append(f.cVal, 0)
		}
		f.cStart[k], f.cCap[k] = ns, nc
	}
	p := f.cStart[k] + f.cLen[k]
	f.cIdx[p] = i
	f.cVal[p] = v
	f.cLen[k]++
}

func (f *luFactor) rowAppend(i, k int) {
	if f.rLen[i] == f.rCap[i] {
		s, l := f.rStart[i], f.rLen[i]
		ns := len(f.rIdx)
		nc := 2*l + luInitialSpare
		f.rIdx = append(f.rIdx, f.rIdx[s:s+l]...)
		for range nc - l {
			f.rIdx = append(f.rIdx, 0)
		}
		f.rStart[i], f.rCap[i] = ns, nc
	}
	f.rIdx[f.rStart[i]+f.rLen[i]] = k
	f.rLen[i]++
}

// eliminate pivots on entry (r, c): the rest of column c becomes an L eta, row r becomes
// a U row, and the active submatrix gets the rank-one update with its fill-in.
func (f *luFactor) eliminate(r, c int) {
	pp := f.findValue(r, c)
	piv := f.cVal[pp]
	f.colRemove(c)
	f.colDone[c] = true
	f.rowRemove(r)
	f.rowDone[r] = true

	// L eta from column c; c leaves the patterns of its rows.
	ls := len(f.lIdx)
	for p := f.cStart[c]; p < f.cStart[c]+f.cLen[c]; p++ {
		i := f.cIdx[p]
		if i == r {
			continue
		}
		f.lIdx = append(f.lIdx, i)
		f.lVal = append(f.lVal, f.cVal[p]/piv)
		f.rowRemove(i)
		f.rowPatternDelete(i, c)
	}
	le := len(f.lIdx)
	if le > ls {
		f.lPiv = append(f.lPiv, r)
		f.lStart = append(f.lStart, le)
	}
	f.cLen[c] = 0

	// U row from row r; update each of its columns.
	for q := f.rStart[r]; q < f.rStart[r]+f.rLen[r]; q++ {
		k := f.rIdx[q]
		if k == c {
			continue
		}
		p := f.findValue(r, k)
		if p < 0 {
			continue
		}
		v := f.cVal[p]
		// remove (r, k) from column k
		last := f.cStart[k] + f.cLen[k] - 1
		f.cIdx[p], f.cVal[p] = f.cIdx[last], f.cVal[last]
		f.colRemove(k)
		f.cLen[k]--
		f.uTmpIdx = append(f.uTmpIdx, k)
		f.uTmpVal = append(f.uTmpVal, v)
		if le > ls {
			s := f.cStart[k]
			for p := s; p < s+f.cLen[k]; p++ {
				f.mark[f.cIdx[p]] = p - s + 1
			}
			for t := ls; t < le; t++ {
				i := f.lIdx[t]
				if off := f.mark[i]; off > 0 {
					f.cVal[f.cStart[k]+off-1] -= f.lVal[t] * v
				} else {
					f.colAppend(k, i, -f.lVal[t]*v)
					f.rowAppend(i, k)
				}
			}
			for p := f.cStart[k]; p < f.cStart[k]+f.cLen[k]; p++ {
				f.mark[f.cIdx[p]] = 0
			}
		}
		f.colMaxVal[k] = -1
		f.colInsert(k)
	}
	f.rLen[r] = 0
	for t := ls; t < le; t++ {
		f.rowInsert(f.lIdx[t])
	}
	f.stepRow = append(f.stepRow, r)
	f.stepCol = append(f.stepCol, c)
	f.stepPiv = append(f.stepPiv, piv)
	f.uTmpStart = append(f.uTmpStart, len(f.uTmpIdx))
}

// build turns the elimination record into the row-indexed factors used by the solves.
func (f *luFactor) build() {
	m := f.m
	f.rowOfPos = growInts(f.rowOfPos, m)
	f.pivOrder = growInts(f.pivOrder, m)
	f.uDiag = growFloats(f.uDiag, m)
	f.pivIdx = growInts(f.pivIdx, m)
	f.lEtaOf = growInts(f.lEtaOf, m)
	if len(f.smark) < m {
		f.smark = make([]bool, m)
	}
	for s := 0; s < m; s++ {
		f.rowOfPos[f.stepCol[s]] = f.stepRow[s]
		f.pivOrder[s] = f.stepRow[s]
		f.pivIdx[f.stepRow[s]] = s
		f.uDiag[f.stepRow[s]] = f.stepPiv[s]
		f.lEtaOf[s] = -1
	}
	for e, p := range f.lPiv {
		f.lEtaOf[p] = e
	}
	// Positions replaced in the repair have their U entries dropped.
	replaced := f.posScratch
	replaced = growInts(replaced, m)
	clear(replaced)
	for _, k := range f.singularPos {
		replaced[k] = 1
	}
	f.posScratch = replaced

	// U row-wise, by row.
	f.urStart = growInts(f.urStart, m+1)
	cnt := f.urStart[:m+1]
	clear(cnt)
	f.ucStart = growInts(f.ucStart, m+1)
	ccnt := f.ucStart[:m+1]
	clear(ccnt)
	nnz := 0
	for s := 0; s < m; s++ {
		r := f.stepRow[s]
		for t := f.uTmpStart[s]; t < f.uTmpStart[s+1]; t++ {
			k := f.uTmpIdx[t]
			if replaced[k] != 0 {
				continue
			}
			cnt[r+1]++
			ccnt[f.rowOfPos[k]+1]++
			nnz++
		}
	}
	for i := 0; i < m; i++ {
		cnt[i+1] += cnt[i]
		ccnt[i+1] += ccnt[i]
	}
	f.urIdx = growInts(f.urIdx, nnz)
	f.urVal = growFloats(f.urVal, nnz)
	f.ucIdx = growInts(f.ucIdx, nnz)
	f.ucVal = growFloats(f.ucVal, nnz)
	fillR := growInts(f.mark, m) // reuse scratch
	copy(fillR, f.urStart[:m])
	fillC := make([]int, m)
	copy(fillC, f.ucStart[:m])
	for s := 0; s < m; s++ {
		r := f.stepRow[s]
		for t := f.uTmpStart[s]; t < f.uTmpStart[s+1]; t++ {
			k := f.uTmpIdx[t]
			if replaced[k] != 0 {
				continue
			}
			row := f.rowOfPos[k]
			v := f.uTmpVal[t]
			f.urIdx[fillR[r]] = row
			f.urVal[fillR[r]] = v
			fillR[r]++
			f.ucIdx[fillC[row]] = r
			f.ucVal[fillC[row]] = v
			fillC[row]++
		}
	}
	clear(fillR)
	f.mark = fillR

	// L transposed, by row.
	f.lrStart = growInts(f.lrStart, m+1)
	lc := f.lrStart[:m+1]
	clear(lc)
	for _, i := range f.lIdx {
		lc[i+1]++
	}
	for i := 0; i < m; i++ {
		lc[i+1] += lc[i]
	}
	nl := len(f.lIdx)
	f.lrIdx = growInts(f.lrIdx, nl)
	f.lrVal = growFloats(f.lrVal, nl)
	copy(fillC, f.lrStart[:m])
	for e := range f.lPiv {
		p := f.lPiv[e]
		for t := f.lStart[e]; t < f.lStart[e+1]; t++ {
			i := f.lIdx[t]
			f.lrIdx[fillC[i]] = p
			f.lrVal[fillC[i]] = f.lVal[t]
			fillC[i]++
		}
	}
	f.luNonzeros = nnz + nl + m
}

// ftran solves B x = b in place: x holds b indexed by row on entry and B⁻¹b indexed by
// basis position on return.
func (f *luFactor) ftran(x []float64) {
	// L
	for e, p := range f.lPiv {
		xp := x[p]
		if xp == 0 {
			continue
		}
		for t := f.lStart[e]; t < f.lStart[e+1]; t++ {
			x[f.lIdx[t]] -= f.lVal[t] * xp
		}
	}
	// U, backwards in pivot order.
	for s := f.m - 1; s >= 0; s-- {
		r := f.pivOrder[s]
		v := x[r]
		if v == 0 {
			continue
		}
		v /= f.uDiag[r]
		x[r] = v
		for t := f.ucStart[r]; t < f.ucStart[r+1]; t++ {
			x[f.ucIdx[t]] -= f.ucVal[t] * v
		}
	}
	// Product-form etas.
	for e, p := range f.pfPos {
		v := x[p]
		if v == 0 {
			continue
		}
		v /= f.pfPivot[e]
		x[p] = v
		for t := f.pfStart[e]; t < f.pfStart[e+1]; t++ {
			x[f.pfIdx[t]] -= f.pfVal[t] * v
		}
	}
}

// btran solves Bᵀ y = c in place: y holds c indexed by basis position on entry and the
// solution indexed by row on return.
func (f *luFactor) btran(y []float64) {
	for e := len(f.pfPos) - 1; e >= 0; e-- {
		p := f.pfPos[e]
		s := y[p]
		for t := f.pfStart[e]; t < f.pfStart[e+1]; t++ {
			s -= f.pfVal[t] * y[f.pfIdx[t]]
		}
		y[p] = s / f.pfPivot[e]
	}
	for s := 0; s < f.m; s++ {
		r := f.pivOrder[s]
		v := y[r]
		if v == 0 {
			continue
		}
		v /= f.uDiag[r]
		y[r] = v
		for t := f.urStart[r]; t < f.urStart[r+1]; t++ {
			y[f.urIdx[t]] -= f.urVal[t] * v
		}
	}
	for s := f.m - 1; s >= 0; s-- {
		r := f.pivOrder[s]
		v := y[r]
		if v == 0 {
			continue
		}
		for t := f.lrStart[r]; t < f.lrStart[r+1]; t++ {
			y[f.lrIdx[t]] -= f.lrVal[t] * v
		}
	}
}

// update records the basis change at position p whose entering column is alpha = B⁻¹a_q
// (dense, by position; idx lists its nonzeros).
func (f *luFactor) update(p int, alpha []float64, idx []int) {
	f.pfPos = append(f.pfPos, p)
	f.pfPivot = append(f.pfPivot, alpha[p])
	for _, i := range idx {
		if i == p {
			continue
		}
		if v := alpha[i]; math.Abs(v) > luDropTol {
			f.pfIdx = append(f.pfIdx, i)
			f.pfVal = append(f.pfVal, v)
		}
	}
	f.pfStart = append(f.pfStart, len(f.pfIdx))
}

// Binary heaps of ints for the hyper-sparse solves: the next eta or pivot to apply is
// the smallest (or largest) index among the nonzeros found so far.
func heapPushMin(h []int, v int) []int {
	h = append(h, v)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p] <= v {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = v
	return h
}

func heapPopMin(h []int) (int, []int) {
	top := h[0]
	last := h[len(h)-1]
	h = h[:len(h)-1]
	n := len(h)
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1] < h[c] {
			c++
		}
		if last <= h[c] {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = last
	}
	return top, h
}

func heapPushMax(h []int, v int) []int { return heapPushMin(h, -v-1) }

func heapPopMax(h []int) (int, []int) {
	v, h := heapPopMin(h)
	return -v - 1, h
}

// hyperThreshold is the density below which solves use the hyper-sparse traversal.
const hyperThreshold = 0.1

// ftranVec solves B x = b for a sparse b (v.idx lists its nonzeros, without duplicates)
// and leaves v.idx listing the result's nonzeros. predicted is the expected density of
// the result: sparse inputs with sparse predicted results are traversed in pivot order
// through heaps, touching only the entries that become nonzero; others take the dense
// path.
func (f *luFactor) ftranVec(v *workVec, predicted float64) {
	m := f.m
	if float64(len(v.idx)) > 0.05*float64(m) || predicted > hyperThreshold {
		f.ftran(v.val)
		v.collect()
		return
	}
	f.ftranHyper(v)
}

// ftranHyper is the hyper-sparse FTRAN.
func (f *luFactor) ftranHyper(v *workVec) {
	x, mark := v.val, f.smark
	for _, i := range v.idx {
		mark[i] = true
	}
	// L, in eta order.
	h := f.heap[:0]
	for _, i := range v.idx {
		if e := f.lEtaOf[i]; e >= 0 {
			h = heapPushMin(h, e)
		}
	}
	for len(h) > 0 {
		var e int
		e, h = heapPopMin(h)
		xp := x[f.lPiv[e]]
		if xp == 0 {
			continue
		}
		for t := f.lStart[e]; t < f.lStart[e+1]; t++ {
			i := f.lIdx[t]
			if !mark[i] {
				mark[i] = true
				v.idx = append(v.idx, i)
				if ee := f.lEtaOf[i]; ee >= 0 {
					h = heapPushMin(h, ee)
				}
			}
			x[i] -= f.lVal[t] * xp
		}
	}
	// U, backwards in pivot order.
	for _, i := range v.idx {
		h = heapPushMax(h, f.pivIdx[i])
	}
	for len(h) > 0 {
		var k int
		k, h = heapPopMax(h)
		r := f.pivOrder[k]
		val := x[r]
		if val == 0 {
			continue
		}
		val /= f.uDiag[r]
		x[r] = val
		for t := f.ucStart[r]; t < f.ucStart[r+1]; t++ {
			i := f.ucIdx[t]
			if !mark[i] {
				mark[i] = true
				v.idx = append(v.idx, i)
				h = heapPushMax(h, f.pivIdx[i])
			}
			x[i] -= f.ucVal[t] * val
		}
	}
	f.heap = h
	// Product-form etas.
	for e, p := range f.pfPos {
		val := x[p]
		if val == 0 {
			continue
		}
		val /= f.pfPivot[e]
		x[p] = val
		for t := f.pfStart[e]; t < f.pfStart[e+1]; t++ {
			i := f.pfIdx[t]
			if !mark[i] {
				mark[i] = true
				v.idx = append(v.idx, i)
			}
			x[i] -= f.pfVal[t] * val
		}
	}
	v.compact(mark)
}

// btranVec solves Bᵀ y = c for a sparse c, like ftranVec.
func (f *luFactor) btranVec(v *workVec, predicted float64) {
	m := f.m
	if float64(len(v.idx)) > 0.05*float64(m) || predicted > hyperThreshold {
		f.btran(v.val)
		v.collect()
		return
	}
	f.btranHyper(v)
}

// btranHyper is the hyper-sparse BTRAN.
func (f *luFactor) btranHyper(v *workVec) {
	y, mark := v.val, f.smark
	for _, i := range v.idx {
		mark[i] = true
	}
	for e := len(f.pfPos) - 1; e >= 0; e-- {
		p := f.pfPos[e]
		s := y[p]
		for t := f.pfStart[e]; t < f.pfStart[e+1]; t++ {
			s -= f.pfVal[t] * y[f.pfIdx[t]]
		}
		if s != 0 && !mark[p] {
			mark[p] = true
			v.idx = append(v.idx, p)
		}
		y[p] = s / f.pfPivot[e]
	}
	// Uᵀ, forwards in pivot order.
	h := f.heap[:0]
	for _, i := range v.idx {
		h = heapPushMin(h, f.pivIdx[i])
	}
	for len(h) > 0 {
		var k int
		k, h = heapPopMin(h)
		r := f.pivOrder[k]
		val := y[r]
		if val == 0 {
			continue
		}
		val /= f.uDiag[r]
		y[r] = val
		for t := f.urStart[r]; t < f.urStart[r+1]; t++ {
			i := f.urIdx[t]
			if !mark[i] {
				mark[i] = true
				v.idx = append(v.idx, i)
				h = heapPushMin(h, f.pivIdx[i])
			}
			y[i] -= f.urVal[t] * val
		}
	}
	// Lᵀ, backwards in pivot order.
	for _, i := range v.idx {
		h = heapPushMax(h, f.pivIdx[i])
	}
	for len(h) > 0 {
		var k int
		k, h = heapPopMax(h)
		r := f.pivOrder[k]
		val := y[r]
		if val == 0 {
			continue
		}
		for t := f.lrStart[r]; t < f.lrStart[r+1]; t++ {
			i := f.lrIdx[t]
			if !mark[i] {
				mark[i] = true
				v.idx = append(v.idx, i)
				h = heapPushMax(h, f.pivIdx[i])
			}
			y[i] -= f.lrVal[t] * val
		}
	}
	f.heap = h
	v.compact(mark)
}
