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

// luFactor is a sparse LU factorization of a simplex basis matrix B with Forrest–Tomlin
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

	// Active submatrix during factorization: columns with values, rows as patterns. Each
	// entry knows where its twin sits in the other orientation (cRow: the slot of a
	// column entry in rIdx, rCol: the slot of a row entry in cIdx), so that an entry is
	// found and removed without scanning its column or row: the scans were quadratic in
	// the long columns of fit2p-like bases. The links only locate entries; every entry
	// is stored, moved and removed exactly as without them, so the pivot sequence and
	// the factors do not depend on them. (That needs each (i, k) stored once: no column
	// of A repeats a row, model.Problem's row indices being strictly increasing.)
	cStart, cLen, cCap []int
	cIdx               []int
	cRow               []int
	cVal               []float64
	rStart, rLen, rCap []int
	rIdx               []int
	rCol               []int
	colMaxVal          []float64 // cached max |entry| per column; <0: stale
	colDone, rowDone   []bool
	mark               []int // scratch of build (L transposed)
	etaAt              []int // row → 1 + its index in the L eta being applied, or 0
	etaSeen            []int // L eta index → the stamp of the last column it met
	colAt              []int // column → 1 + its index in the U row being applied, or 0
	colSeen            []int // that index → the stamp of the last eta row it met
	stamp              int   // one per column or row update, for etaSeen and colSeen

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
	lOrder   []int // the factorization's pivot sequence of rows (L's order)
	lPivIdx  []int // row → its step in lOrder
	lEtaOf   []int // row → the L eta it pivots, or −1
	lrStart  []int // L transposed: row i → etas' pivot rows
	lrIdx    []int
	lrVal    []float64
	uDiag    []float64
	uOrder   []int // U's pivot sequence of rows; −1 marks a row moved to the end by an update
	uPos     []int // row → its index in uOrder
	ucStart  []int // U column r (rows pivoted earlier): ucIdx/ucVal[ucStart[r] : +ucLen[r]]
	ucLen    []int
	ucIdx    []int
	ucVal    []float64
	urStart  []int // U row r (rows pivoted later), with spare room for updates
	urLen    []int
	urCap    []int
	urIdx    []int
	urVal    []float64
	rowOfPos []int // position k of the factorized basis → its pivot row

	// Forrest–Tomlin row etas R_e: x[etaPiv[e]] −= Σ etaVal·x[etaIdx] (FTRAN, after L).
	etaPiv   []int
	etaStart []int
	etaIdx   []int
	etaVal   []float64

	// The spike L⁻¹·R·a_q of the last FTRAN that asked for it, for the next update.
	spikeIdx []int
	spikeVal []float64
	spikeOK  bool

	nUpdates    int
	uGrowth     int // U entries added by updates
	luNonzeros  int
	posScratch  []int
	singularPos []int // positions replaced by logicals (repair)
	singularRow []int // the rows whose logicals replaced them
	smark       []bool
	wVal        []float64
	queue       bitQueue // the solves' and the update's traversal order
	muIdx       []int
	reservedM   int
	reservedNnz int
	muVal       []float64
}

// numUpdates is the number of basis updates since the last factorization.
func (f *luFactor) numUpdates() int { return f.nUpdates }

// etaNonzeros is the number of nonzeros the updates added (row etas and U columns).
func (f *luFactor) etaNonzeros() int { return len(f.etaIdx) + f.uGrowth }

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

// reserve allocates the factorization's arrays for an m×m basis with about nnz entries
// in a handful of blocks, so that a solve of a small LP does not spend its time in the
// allocator (the arrays grow later only if a factorization fills in beyond these sizes).
func (f *luFactor) reserve(m, nnz int) {
	if f.reservedM == m && f.reservedNnz >= nnz {
		return
	}
	// Room for bases denser than this one (the first is usually the slack basis).
	nnz = max(2*nnz, 4*m)
	f.reservedM, f.reservedNnz = m, nnz
	ints := make([]int, 44*m+64)
	take := func(n int) []int {
		s := ints[:0:n]
		ints = ints[n:]
		return s
	}
	for _, p := range []*[]int{&f.cStart, &f.cLen, &f.cCap, &f.rStart, &f.rLen, &f.rCap, &f.mark,
		&f.colNext, &f.colPrev, &f.rowNext, &f.rowPrev, &f.stepRow, &f.stepCol, &f.lPiv,
		&f.rowOfPos, &f.lOrder, &f.lPivIdx, &f.lEtaOf, &f.uPos, &f.urStart, &f.urLen, &f.urCap,
		&f.ucStart, &f.ucLen, &f.posScratch, &f.singularPos, &f.singularRow, &f.muIdx,
		&f.spikeIdx, &f.etaAt, &f.etaSeen, &f.colAt, &f.colSeen} {
		*p = take(m)
	}
	for _, p := range []*[]int{&f.colHead, &f.rowHead, &f.uTmpStart, &f.lStart, &f.lrStart} {
		*p = take(m + 1)
	}
	// U's order gets one entry per update, the row etas one each: room for m updates
	// (appends reallocate beyond).
	f.uOrder = take(2*m + 16)
	f.etaPiv = take(m + 16)
	f.etaStart = take(m + 17)
	floats := make([]float64, 5*m)
	takeF := func(n int) []float64 {
		s := floats[:0:n]
		floats = floats[n:]
		return s
	}
	f.colMaxVal, f.stepPiv, f.uDiag, f.wVal, f.spikeVal = takeF(m), takeF(m), takeF(m), takeF(m)[:m], takeF(m)
	bools := make([]bool, 3*m)
	f.colDone, f.rowDone, f.smark = bools[:0:m], bools[m:m:2*m], bools[2*m:3*m]
	// Pools: entries of B with room for fill-in and updates (they grow if needed).
	sizes := []int{
		(nnz + luInitialSpare*m) * 3 / 2, // cIdx (kernel columns, relocated on fill-in)
		nnz + (luInitialSpare+2)*m,       // rIdx (kernel row patterns)
		nnz + m,                          // uTmpIdx
		nnz + m,                          // lIdx
		nnz + (ftSpare+4)*m,              // urIdx (U rows, room for update entries)
		2*nnz + 4*m,                      // ucIdx (U columns, spikes appended)
		nnz + m,                          // lrIdx
		4 * m,                            // etaIdx
	}
	sizes = append(sizes, sizes[0], sizes[1]) // cRow, rCol: parallel to cIdx, rIdx
	total := 0
	for _, n := range sizes {
		total += n
	}
	pi := make([]int, total)
	pf := make([]float64, total-sizes[1]-sizes[8]-sizes[9])
	ip, fp := 0, 0
	for k, p := range []*[]int{&f.cIdx, &f.rIdx, &f.uTmpIdx, &f.lIdx, &f.urIdx, &f.ucIdx, &f.lrIdx, &f.etaIdx, &f.cRow, &f.rCol} {
		*p = pi[ip : ip : ip+sizes[k]]
		ip += sizes[k]
	}
	for k, p := range []*[]float64{&f.cVal, nil, &f.uTmpVal, &f.lVal, &f.urVal, &f.ucVal, &f.lrVal, &f.etaVal} {
		if p == nil {
			continue
		}
		*p = pf[fp : fp : fp+sizes[k]]
		fp += sizes[k]
	}
}

// factorize computes B = LU for the basis whose position k holds variable basic[k]
// (variables ≥ n are logicals: column e_{v−n}). It returns the number of positions whose
// column was linearly dependent; those positions are now the logicals of singularRow
// (singularPos[i] gets row singularRow[i]) and the caller must update its basis to match.
// After the call rowOfPos[k] is the row (new position) of old position k.
func (f *luFactor) factorize(m, n int, a *sparseMatrix, basic []int) int {
	k := f.eliminateAll(m, n, a, basic)
	f.build()
	return k
}

// eliminateAll is factorize up to the elimination record (pivot sequence, L etas, U rows
// by step, repair), before build turns it into the solves' factors.
func (f *luFactor) eliminateAll(m, n int, a *sparseMatrix, basic []int) int {
	f.m = m
	nnz := 0
	for _, v := range basic {
		if v >= n {
			nnz++
		} else {
			nnz += a.start[v+1] - a.start[v]
		}
	}
	f.reserve(m, nnz)
	f.load(n, a, basic)
	f.initLists()
	// Size the elimination record once (appends below then never reallocate in the
	// common case): m steps, and L and U together about as many entries as B.
	if cap(f.stepRow) < m {
		f.stepRow, f.stepCol, f.stepPiv = make([]int, 0, m), make([]int, 0, m), make([]float64, 0, m)
		f.uTmpStart, f.lPiv, f.lStart = make([]int, 0, m+1), make([]int, 0, m), make([]int, 0, m+1)
	}
	if nb := len(f.cIdx); cap(f.uTmpIdx) < nb {
		// With room to spare: bases fill in as a solve goes on, and sizing these to each
		// new largest basis reallocated them at most factorizations.
		nb += nb / 2
		f.uTmpIdx, f.uTmpVal = make([]int, 0, nb), make([]float64, 0, nb)
		f.lIdx, f.lVal = make([]int, 0, nb), make([]float64, 0, nb)
	}
	f.stepRow, f.stepCol, f.stepPiv = f.stepRow[:0], f.stepCol[:0], f.stepPiv[:0]
	f.uTmpStart = append(f.uTmpStart[:0], 0)
	f.uTmpIdx, f.uTmpVal = f.uTmpIdx[:0], f.uTmpVal[:0]
	f.lPiv, f.lIdx, f.lVal = f.lPiv[:0], f.lIdx[:0], f.lVal[:0]
	f.lStart = append(f.lStart[:0], 0)

	for len(f.stepRow) < m {
		r, c, p := f.findPivot()
		if r < 0 {
			break
		}
		f.eliminate(r, c, p)
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
	f.etaAt = growInts(f.etaAt, m)
	clear(f.etaAt)
	f.etaSeen = growInts(f.etaSeen, m)
	clear(f.etaSeen)
	f.colAt = growInts(f.colAt, m)
	clear(f.colAt)
	f.colSeen = growInts(f.colSeen, m)
	clear(f.colSeen)
	f.stamp = 0
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
	f.cRow = growInts(f.cRow, len(f.cIdx))
	total := 0
	for i := 0; i < m; i++ {
		f.rStart[i] = total
		f.rCap[i] = f.rLen[i] + luInitialSpare
		total += f.rCap[i]
		f.rLen[i] = 0
	}
	f.rIdx = growInts(f.rIdx, total)
	f.rCol = growInts(f.rCol, total)
	for k := 0; k < m; k++ {
		for p := f.cStart[k]; p < f.cStart[k]+f.cLen[k]; p++ {
			i := f.cIdx[p]
			q := f.rStart[i] + f.rLen[i]
			f.rIdx[q], f.rCol[q] = k, p
			f.cRow[p] = q
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
		f.rowDeleteAt(i, f.cRow[p])
		f.rowInsert(i)
	}
	f.cLen[k] = 0
	f.colNext[k], f.colPrev[k] = -2, -2
}

// rowDeleteAt removes the entry in slot q of row i's pattern; the row's last entry takes
// its place (the order a scan of the row for the entry's column used to leave behind).
func (f *luFactor) rowDeleteAt(i, q int) {
	e := f.rStart[i] + f.rLen[i] - 1
	if q != e {
		p := f.rCol[e]
		f.rIdx[q], f.rCol[q] = f.rIdx[e], p
		f.cRow[p] = q
	}
	f.rLen[i]--
}

// findPivot is the Markowitz search of Suhl & Suhl: columns and rows by increasing count,
// merit (r−1)(c−1), threshold partial pivoting within the column, stopping after
// luSearchLimit candidates or when no unexamined entry can beat the best merit. It
// returns the pivot's row, column and slot in the column pool.
func (f *luFactor) findPivot() (int, int, int) {
	bestR, bestC, bestP := -1, -1, -1
	bestMerit := math.MaxInt
	bestAbs := 0.0
	searched := 0
	rLen, cLen := f.rLen, f.cLen
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
			s := f.cStart[k]
			idx := f.cIdx[s : s+cLen[k]]
			val := f.cVal[s : s+len(idx)]
			for j, x := range val {
				v := math.Abs(x)
				if v < thr || v < luAbsPivotTol {
					continue
				}
				i := idx[j]
				merit := (rLen[i] - 1) * (cnt - 1)
				if merit < bestMerit || (merit == bestMerit && v > bestAbs) {
					bestR, bestC, bestP, bestMerit, bestAbs = i, k, s+j, merit, v
				}
			}
			searched++
			if bestR >= 0 && (searched >= luSearchLimit || bestMerit <= (cnt-1)*(cnt-1)) {
				return bestR, bestC, bestP
			}
			k = next
		}
		for i := f.rowHead[cnt]; i >= 0; i = f.rowNext[i] {
			s := f.rStart[i]
			cols := f.rIdx[s : s+rLen[i]]
			slots := f.rCol[s : s+len(cols)]
			for j, k := range cols {
				p := slots[j]
				v := math.Abs(f.cVal[p])
				merit := (cnt - 1) * (cLen[k] - 1)
				// The column's maximum (a pass over a long column when stale) is looked
				// up only for an entry that would win if it passed the threshold.
				if !(merit < bestMerit || (merit == bestMerit && v > bestAbs)) || v < luAbsPivotTol {
					continue
				}
				if v < luThreshold*f.colMax(k) {
					continue
				}
				bestR, bestC, bestP, bestMerit, bestAbs = i, k, p, merit, v
			}
			searched++
			if bestR >= 0 && (searched >= luSearchLimit || bestMerit <= cnt*(cnt-1)) {
				return bestR, bestC, bestP
			}
		}
		if bestR >= 0 && bestMerit <= cnt*cnt {
			return bestR, bestC, bestP
		}
	}
	return bestR, bestC, bestP
}

// appendEntry adds entry (i, k) with value v at the end of column k and of row i's
// pattern, moving either to the end of its pool when it has no room left.
func (f *luFactor) appendEntry(k, i int, v float64) {
	if f.cLen[k] == f.cCap[k] {
		s, l := f.cStart[k], f.cLen[k]
		ns := len(f.cIdx)
		nc := 2*l + luInitialSpare
		f.cIdx = append(f.cIdx, f.cIdx[s:s+l]...)
		f.cVal = append(f.cVal, f.cVal[s:s+l]...)
		f.cRow = append(f.cRow, f.cRow[s:s+l]...)
		for range nc - l {
			f.cIdx = append(f.cIdx, 0)
			f.cVal = append(f.cVal, 0)
			f.cRow = append(f.cRow, 0)
		}
		f.cStart[k], f.cCap[k] = ns, nc
		for p := ns; p < ns+l; p++ {
			f.rCol[f.cRow[p]] = p
		}
	}
	p := f.cStart[k] + f.cLen[k]
	f.cIdx[p] = i
	f.cVal[p] = v
	f.cLen[k]++

	if f.rLen[i] == f.rCap[i] {
		s, l := f.rStart[i], f.rLen[i]
		ns := len(f.rIdx)
		nc := 2*l + luInitialSpare
		f.rIdx = append(f.rIdx, f.rIdx[s:s+l]...)
		f.rCol = append(f.rCol, f.rCol[s:s+l]...)
		for range nc - l {
			f.rIdx = append(f.rIdx, 0)
			f.rCol = append(f.rCol, 0)
		}
		f.rStart[i], f.rCap[i] = ns, nc
		for q := ns; q < ns+l; q++ {
			f.cRow[f.rCol[q]] = q
		}
	}
	q := f.rStart[i] + f.rLen[i]
	f.rIdx[q] = k
	f.rLen[i]++
	f.cRow[p], f.rCol[q] = q, p
}

// eliminate pivots on entry (r, c), in slot pp of the column pool: the rest of column c
// becomes an L eta, row r becomes a U row, and the active submatrix gets the rank-one
// update with its fill-in.
func (f *luFactor) eliminate(r, c, pp int) {
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
		f.rowDeleteAt(i, f.cRow[p])
	}
	le := len(f.lIdx)
	if le > ls {
		f.lPiv = append(f.lPiv, r)
		f.lStart = append(f.lStart, le)
	}
	f.cLen[c] = 0
	etaIdx, etaVal := f.lIdx[ls:le], f.lVal[ls:le]
	for t, i := range etaIdx {
		f.etaAt[i] = t + 1
	}

	// U row from row r; update each of its columns, column by column or, when the
	// eta's rows are shorter than the columns, row by row (the same entries, values and
	// order either way).
	if len(etaIdx) > 0 && f.rowsCheaper(r, c, etaIdx) {
		f.updateByRows(r, c, etaIdx, etaVal)
	} else {
		f.updateByColumns(r, c, etaIdx, etaVal)
	}
	for _, i := range etaIdx {
		f.etaAt[i] = 0
	}
	f.rLen[r] = 0
	for _, i := range etaIdx {
		f.rowInsert(i)
	}
	f.stepRow = append(f.stepRow, r)
	f.stepCol = append(f.stepCol, c)
	f.stepPiv = append(f.stepPiv, piv)
	f.uTmpStart = append(f.uTmpStart, len(f.uTmpIdx))
}

// removeFromColumn removes entry (r, k), in slot p of the column pool, from column k,
// taking k out of its count list (colInsert puts it back): the column's last entry
// takes the slot.
func (f *luFactor) removeFromColumn(k, p int) {
	if last := f.cStart[k] + f.cLen[k] - 1; p != last {
		f.cIdx[p], f.cVal[p], f.cRow[p] = f.cIdx[last], f.cVal[last], f.cRow[last]
		f.rCol[f.cRow[p]] = p
	}
	f.colRemove(k)
	f.cLen[k]--
}

// rowsCheaper says whether the rank-one update of pivot (r, c) passes over fewer entries
// row by row (the eta's rows) than column by column (row r's columns).
func (f *luFactor) rowsCheaper(r, c int, etaIdx []int) bool {
	rows, cols := 0, 0
	for _, i := range etaIdx {
		rows += f.rLen[i]
	}
	for q := f.rStart[r]; q < f.rStart[r]+f.rLen[r]; q++ {
		if k := f.rIdx[q]; k != c {
			cols += f.cLen[k] - 1
		}
	}
	return rows < cols
}

// updateByColumns is the rank-one update of pivot (r, c) column by column: each column
// k of row r loses (r, k), records it in U and gets the eta times its value subtracted
// (updateColumn).
func (f *luFactor) updateByColumns(r, c int, etaIdx []int, etaVal []float64) {
	for q := f.rStart[r]; q < f.rStart[r]+f.rLen[r]; q++ {
		k := f.rIdx[q]
		if k == c {
			continue
		}
		p := f.rCol[q]
		v := f.cVal[p]
		f.removeFromColumn(k, p)
		f.uTmpIdx = append(f.uTmpIdx, k)
		f.uTmpVal = append(f.uTmpVal, v)
		switch {
		case len(etaIdx) > 0:
			f.updateColumn(k, v, etaIdx, etaVal)
			f.colMaxVal[k] = -1
		case !(math.Abs(v) < f.colMaxVal[k]):
			// Only losing its largest entry can lower the column's maximum.
			f.colMaxVal[k] = -1
		}
		f.colInsert(k)
	}
}

// updateByRows is updateByColumns done row by row, for an eta whose rows are shorter
// than row r's columns. First every column k of row r loses (r, k) and records it in U,
// in row r's order; then each eta row i, in the eta's order, subtracts its multiplier
// times row r's U entries from the entries it has in those columns (found through the
// twin slots) and gets the rest appended as fill-in, in row r's order; last the columns
// go back to their count lists in row r's order. Every column thus gets the same
// values and the same fill-in in the same order as column by column (eta order within
// a column), every row the same pattern, and the count lists the same insertions.
func (f *luFactor) updateByRows(r, c int, etaIdx []int, etaVal []float64) {
	u0 := len(f.uTmpIdx)
	for q := f.rStart[r]; q < f.rStart[r]+f.rLen[r]; q++ {
		k := f.rIdx[q]
		if k == c {
			continue
		}
		p := f.rCol[q]
		v := f.cVal[p]
		f.removeFromColumn(k, p)
		f.uTmpIdx = append(f.uTmpIdx, k)
		f.uTmpVal = append(f.uTmpVal, v)
		f.colMaxVal[k] = -1
	}
	uIdx, uVal := f.uTmpIdx[u0:], f.uTmpVal[u0:]
	colAt := f.colAt
	for u, k := range uIdx {
		colAt[k] = u + 1
	}
	seen := f.colSeen[:len(uIdx)]
	for t, i := range etaIdx {
		l := etaVal[t]
		f.stamp++
		stamp := f.stamp
		s := f.rStart[i]
		cols := f.rIdx[s : s+f.rLen[i]]
		slots := f.rCol[s : s+len(cols)]
		hits := 0
		for j, k := range cols {
			if u := colAt[k] - 1; uint(u) < uint(len(uVal)) {
				f.cVal[slots[j]] -= l * uVal[u]
				seen[u] = stamp
				hits++
			}
		}
		if hits == len(uIdx) {
			continue
		}
		for u, k := range uIdx {
			if seen[u] != stamp {
				f.appendEntry(k, i, -l*uVal[u])
			}
		}
	}
	for _, k := range uIdx {
		colAt[k] = 0
		f.colInsert(k)
	}
}

// updateColumn subtracts v times the L eta (rows etaIdx, values etaVal, with etaAt
// scattered) from column k: one pass over the column updates the entries the eta meets,
// then the eta's other rows are appended as fill-in, in the eta's order.
func (f *luFactor) updateColumn(k int, v float64, etaIdx []int, etaVal []float64) {
	f.stamp++
	stamp := f.stamp
	etaAt, seen := f.etaAt, f.etaSeen[:len(etaVal)]
	s := f.cStart[k]
	idx := f.cIdx[s : s+f.cLen[k]]
	val := f.cVal[s : s+len(idx)]
	val = val[:len(idx)] // (lets the compiler drop the bounds checks below)
	hits := 0
	for j, i := range idx {
		// t is −1 for a row outside the eta: as unsigned, beyond every index.
		if t := etaAt[i] - 1; uint(t) < uint(len(etaVal)) {
			val[j] -= etaVal[t] * v
			seen[t] = stamp
			hits++
		}
	}
	if hits == len(etaIdx) {
		return
	}
	for t, i := range etaIdx {
		if seen[t] != stamp {
			f.appendEntry(k, i, -etaVal[t]*v)
		}
	}
}
