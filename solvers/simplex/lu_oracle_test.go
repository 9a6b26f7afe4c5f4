package simplex

import "math"

// oldLUFactor is the factorization as it stood before the entries learned their twins'
// slots (lu.go at commit 74c8ac2, factorize through the repair, minus reserve and build):
// the oracle the new one must match bit for bit. Only the receiver's name and the
// dropped reserve/build calls differ from that code.
type oldLUFactor struct {
	m                  int
	cStart, cLen, cCap []int
	cIdx               []int
	cVal               []float64
	rStart, rLen, rCap []int
	rIdx               []int
	colMaxVal          []float64
	colDone, rowDone   []bool
	mark               []int

	colHead, colNext, colPrev []int
	rowHead, rowNext, rowPrev []int

	stepRow, stepCol []int
	stepPiv          []float64
	uTmpStart        []int
	uTmpIdx          []int
	uTmpVal          []float64
	lPiv             []int
	lStart           []int
	lIdx             []int
	lVal             []float64

	singularPos []int
	singularRow []int
}

// factorize computes B = LU for the basis whose position k holds variable basic[k]
// (variables ≥ n are logicals: column e_{v−n}). It returns the number of positions whose
// column was linearly dependent; those positions are now the logicals of singularRow
// (singularPos[i] gets row singularRow[i]) and the caller must update its basis to match.
// After the call rowOfPos[k] is the row (new position) of old position k.
func (f *oldLUFactor) factorize(m, n int, a *sparseMatrix, basic []int) int {
	f.m = m
	f.load(n, a, basic)
	f.initLists()
	// Size the elimination record once (appends below then never reallocate in the
	// common case): m steps, and L and U together about as many entries as B.
	if cap(f.stepRow) < m {
		f.stepRow, f.stepCol, f.stepPiv = make([]int, 0, m), make([]int, 0, m), make([]float64, 0, m)
		f.uTmpStart, f.lPiv, f.lStart = make([]int, 0, m+1), make([]int, 0, m), make([]int, 0, m+1)
	}
	if nb := len(f.cIdx); cap(f.uTmpIdx) < nb {
		f.uTmpIdx, f.uTmpVal = make([]int, 0, nb), make([]float64, 0, nb)
		f.lIdx, f.lVal = make([]int, 0, nb), make([]float64, 0, nb)
	}
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
	return len(f.singularPos)
}

// load copies B into the active-submatrix storage.
func (f *oldLUFactor) load(n int, a *sparseMatrix, basic []int) {
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

	need := luInitialSpare * m
	for _, v := range basic {
		if v >= n {
			need++
		} else {
			need += a.start[v+1] - a.start[v]
		}
	}
	if need += need / 2; cap(f.cIdx) < need {
		f.cIdx = make([]int, 0, need)
		f.cVal = make([]float64, 0, need)
	}
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

func (f *oldLUFactor) initLists() {
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
func (f *oldLUFactor) colInsert(k int) {
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

func (f *oldLUFactor) colRemove(k int) {
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

func (f *oldLUFactor) rowInsert(i int) {
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

func (f *oldLUFactor) rowRemove(i int) {
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

func (f *oldLUFactor) colMax(k int) float64 {
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
func (f *oldLUFactor) dropColumn(k int) {
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

func (f *oldLUFactor) rowPatternDelete(i, k int) {
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
func (f *oldLUFactor) findValue(i, k int) int {
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
func (f *oldLUFactor) findPivot() (int, int) {
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
func (f *oldLUFactor) colAppend(k, i int, v float64) {
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

func (f *oldLUFactor) rowAppend(i, k int) {
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
func (f *oldLUFactor) eliminate(r, c int) {
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
