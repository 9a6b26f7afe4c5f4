package simplex

import "math"

// ftSpare is the room each U row gets for entries added by Forrest–Tomlin updates before
// it moves to the end of the pool.
const ftSpare = 4

// ftStabilityTol bounds the relative mismatch between the new diagonal of U computed by
// the update and the one implied by the pivot (u'_pp = α_p·u_pp); beyond it the caller
// refactorizes.
const ftStabilityTol = 1e-8

// build turns the elimination record into the row-indexed factors used by the solves.
func (f *luFactor) build() {
	m := f.m
	f.rowOfPos = growInts(f.rowOfPos, m)
	f.lOrder = growInts(f.lOrder, m)
	f.lPivIdx = growInts(f.lPivIdx, m)
	f.lEtaOf = growInts(f.lEtaOf, m)
	f.uPos = growInts(f.uPos, m)
	f.uDiag = growFloats(f.uDiag, m)
	f.uOrder = f.uOrder[:0]

	for s := 0; s < m; s++ {
		r := f.stepRow[s]
		f.rowOfPos[f.stepCol[s]] = r
		f.lOrder[s] = r
		f.lPivIdx[r] = s
		f.uPos[r] = s
		f.uOrder = append(f.uOrder, r)
		f.uDiag[r] = f.stepPiv[s]
		f.lEtaOf[s] = -1
	}
	for e, p := range f.lPiv {
		f.lEtaOf[p] = e
	}
	// Positions replaced in the repair have their U entries dropped.
	replaced := growInts(f.posScratch, m)
	clear(replaced)
	for _, k := range f.singularPos {
		replaced[k] = 1
	}
	f.posScratch = replaced

	// Count U entries per row and per column.
	f.urStart = growInts(f.urStart, m)
	f.urLen = growInts(f.urLen, m)
	f.urCap = growInts(f.urCap, m)
	f.ucStart = growInts(f.ucStart, m)
	f.ucLen = growInts(f.ucLen, m)
	clear(f.urLen)
	clear(f.ucLen)
	nnz := 0
	for s := 0; s < m; s++ {
		r := f.stepRow[s]
		for t := f.uTmpStart[s]; t < f.uTmpStart[s+1]; t++ {
			if k := f.uTmpIdx[t]; replaced[k] == 0 {
				f.urLen[r]++
				f.ucLen[f.rowOfPos[k]]++
				nnz++
			}
		}
	}
	rtot, ctot := 0, 0
	for i := 0; i < m; i++ {
		f.urStart[i] = rtot
		f.urCap[i] = f.urLen[i] + ftSpare
		rtot += f.urCap[i]
		f.ucStart[i] = ctot
		ctot += f.ucLen[i]
		f.urLen[i], f.ucLen[i] = 0, 0
	}
	// Room for what the updates add until the next factorization.
	f.urIdx = growIntsCap(f.urIdx, rtot, rtot+rtot/2+8*m)
	f.urVal = growFloatsCap(f.urVal, rtot, rtot+rtot/2+8*m)
	f.ucIdx = growIntsCap(f.ucIdx, ctot, 2*ctot+4*m)
	f.ucVal = growFloatsCap(f.ucVal, ctot, 2*ctot+4*m)
	for s := 0; s < m; s++ {
		r := f.stepRow[s]
		for t := f.uTmpStart[s]; t < f.uTmpStart[s+1]; t++ {
			k := f.uTmpIdx[t]
			if replaced[k] != 0 {
				continue
			}
			row := f.rowOfPos[k]
			v := f.uTmpVal[t]
			q := f.urStart[r] + f.urLen[r]
			f.urIdx[q], f.urVal[q] = row, v
			f.urLen[r]++
			q = f.ucStart[row] + f.ucLen[row]
			f.ucIdx[q], f.ucVal[q] = r, v
			f.ucLen[row]++
		}
	}

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
	fill := growInts(f.mark, m)
	copy(fill, f.lrStart[:m])
	for e, p := range f.lPiv {
		for t := f.lStart[e]; t < f.lStart[e+1]; t++ {
			i := f.lIdx[t]
			f.lrIdx[fill[i]] = p
			f.lrVal[fill[i]] = f.lVal[t]
			fill[i]++
		}
	}
	clear(fill)
	f.mark = fill
	f.luNonzeros = nnz + nl + m

	f.etaPiv, f.etaIdx, f.etaVal = f.etaPiv[:0], f.etaIdx[:0], f.etaVal[:0]
	if cap(f.etaIdx) < 4*m {
		f.etaIdx = make([]int, 0, 4*m)
		f.etaVal = make([]float64, 0, 4*m)
		f.etaPiv = make([]int, 0, refactorInterval+1)
		f.etaStart = make([]int, 0, refactorInterval+2)
		f.spikeIdx = make([]int, 0, m)
		f.spikeVal = make([]float64, 0, m)
		f.muIdx = make([]int, 0, m)
	}
	f.etaStart = append(f.etaStart[:0], 0)
	f.nUpdates, f.uGrowth = 0, 0
	f.spikeOK = false
}

// growIntsCap returns s with length n and capacity at least c.
func growIntsCap(s []int, n, c int) []int {
	if cap(s) < n {
		s = make([]int, n, max(n, c))
	}
	return s[:n]
}

func growFloatsCap(s []float64, n, c int) []float64 {
	if cap(s) < n {
		s = make([]float64, n, max(n, c))
	}
	return s[:n]
}

// saveSpike records x (dense) as the spike of the coming update.
func (f *luFactor) saveSpike(x []float64, idx []int) {
	f.spikeIdx, f.spikeVal = f.spikeIdx[:0], f.spikeVal[:0]
	if idx == nil {
		for i, v := range x {
			if v != 0 {
				f.spikeIdx = append(f.spikeIdx, i)
				f.spikeVal = append(f.spikeVal, v)
			}
		}
	} else {
		for _, i := range idx {
			if v := x[i]; v != 0 {
				f.spikeIdx = append(f.spikeIdx, i)
				f.spikeVal = append(f.spikeVal, v)
			}
		}
	}
	f.spikeOK = true
}

// ftran solves B x = b in place: x holds b indexed by row on entry and B⁻¹b indexed by
// basis position on return. With spike set, the partial result after L and the row etas
// is kept for the next update.
func (f *luFactor) ftran(x []float64, spike bool) {
	lIdx, lVal := f.lIdx, f.lVal
	lStart := f.lStart[:len(f.lPiv)+1]
	for e, p := range f.lPiv {
		xp := *elem(x, p)
		if xp == 0 {
			continue
		}
		a, b := lStart[e], lStart[e+1]
		axpy(x, lIdx[a:b], lVal[a:b], xp)
	}
	for e, p := range f.etaPiv {
		a, b := f.etaStart[e], f.etaStart[e+1]
		x[p] = subDot(x[p], x, f.etaIdx[a:b], f.etaVal[a:b])
	}
	if spike {
		f.saveSpike(x, nil)
	}
	ucIdx, ucVal, diag := f.ucIdx, f.ucVal, f.uDiag
	uOrder, ucStart, ucLen := f.uOrder, f.ucStart, f.ucLen
	for k := len(uOrder) - 1; k >= 0; k-- {
		r := uOrder[k]
		if r < 0 {
			continue
		}
		xr := elem(x, r)
		v := *xr
		if v == 0 {
			continue
		}
		v /= *elem(diag, r)
		*xr = v
		a := *elem(ucStart, r)
		b := a + *elem(ucLen, r)
		axpy(x, ucIdx[a:b], ucVal[a:b], v)
	}
}

// axpy does x[idx[k]] −= val[k]·v for every k.
func axpy(x []float64, idx []int, val []float64, v float64) {
	val = val[:len(idx)]
	for k, i := range idx {
		*elem(x, i) -= val[k] * v
	}
}

// subDot returns s − Σ val[k]·x[idx[k]], subtracting term by term (the order of the
// hyper-sparse path, so that both give the same bits).
func subDot(s float64, x []float64, idx []int, val []float64) float64 {
	val = val[:len(idx)]
	for k, i := range idx {
		s -= val[k] * *elem(x, i)
	}
	return s
}

// btran solves Bᵀ y = c in place: y holds c indexed by basis position on entry and the
// solution indexed by row on return.
func (f *luFactor) btran(y []float64) {
	urIdx, urVal, diag := f.urIdx, f.urVal, f.uDiag
	urStart, urLen := f.urStart, f.urLen
	for _, r := range f.uOrder {
		if r < 0 {
			continue
		}
		yr := elem(y, r)
		v := *yr
		if v == 0 {
			continue
		}
		v /= *elem(diag, r)
		*yr = v
		a := *elem(urStart, r)
		b := a + *elem(urLen, r)
		axpy(y, urIdx[a:b], urVal[a:b], v)
	}
	for e := len(f.etaPiv) - 1; e >= 0; e-- {
		v := y[f.etaPiv[e]]
		if v == 0 {
			continue
		}
		a, b := f.etaStart[e], f.etaStart[e+1]
		axpy(y, f.etaIdx[a:b], f.etaVal[a:b], v)
	}
	lrIdx, lrVal, lrStart := f.lrIdx, f.lrVal, f.lrStart
	lOrder := f.lOrder[:f.m]
	for s := len(lOrder) - 1; s >= 0; s-- {
		r := lOrder[s]
		v := *elem(y, r)
		if v == 0 {
			continue
		}
		a, b := *elem(lrStart, r), *elem(lrStart, r+1)
		axpy(y, lrIdx[a:b], lrVal[a:b], v)
	}
}

// hyperThreshold is the density below which solves use the hyper-sparse traversal.
const hyperThreshold = 0.1

// ftranVec solves B x = b for a sparse b (v.idx lists its nonzeros, without duplicates)
// and leaves v.idx listing the result's nonzeros. predicted is the expected density of
// the result: sparse inputs with sparse predicted results are traversed in pivot order
// through heaps, touching only the entries that become nonzero; others take the dense
// path. With spike set, the partial result is kept for the next update.
func (f *luFactor) ftranVec(v *workVec, predicted float64, spike bool) {
	if float64(len(v.idx)) > 0.05*float64(f.m) || predicted > hyperThreshold {
		f.ftran(v.val, spike)
		v.collect()
		return
	}
	f.ftranHyper(v, spike)
}

// ftranHyper is the hyper-sparse FTRAN.
func (f *luFactor) ftranHyper(v *workVec, spike bool) {
	x, mark := v.val, f.smark
	for _, i := range v.idx {
		mark[i] = true
	}
	// L, in eta order.
	q := &f.queue
	q.reset(len(f.lPiv), false)
	for _, i := range v.idx {
		if e := f.lEtaOf[i]; e >= 0 {
			q.pushMin(e)
		}
	}
	for q.count > 0 {
		e := q.popMin()
		xp := x[f.lPiv[e]]
		if xp == 0 {
			continue
		}
		a, b := f.lStart[e], f.lStart[e+1]
		lIdx, lVal := f.lIdx[a:b], f.lVal[a:b]
		lVal = lVal[:len(lIdx)]
		for t, i := range lIdx {
			if mi := elem(mark, i); !*mi {
				*mi = true
				v.idx = append(v.idx, i)
				if ee := *elem(f.lEtaOf, i); ee >= 0 {
					q.pushMin(ee)
				}
			}
			*elem(x, i) -= lVal[t] * xp
		}
	}
	// Row etas.
	for e, p := range f.etaPiv {
		s := x[p]
		for t := f.etaStart[e]; t < f.etaStart[e+1]; t++ {
			s -= f.etaVal[t] * x[f.etaIdx[t]]
		}
		if s != 0 && !mark[p] {
			mark[p] = true
			v.idx = append(v.idx, p)
		}
		x[p] = s
	}
	if spike {
		f.saveSpike(x, v.idx)
	}
	// U, backwards in its pivot order.
	q.reset(len(f.uOrder), true)
	for _, i := range v.idx {
		q.pushMax(f.uPos[i])
	}
	for q.count > 0 {
		k := q.popMax()
		r := f.uOrder[k]
		xr := elem(x, r)
		val := *xr
		if val == 0 {
			continue
		}
		val /= *elem(f.uDiag, r)
		*xr = val
		a := *elem(f.ucStart, r)
		uIdx, uVal := f.ucIdx[a:a+*elem(f.ucLen, r)], f.ucVal[a:]
		uVal = uVal[:len(uIdx)]
		for t, i := range uIdx {
			if mi := elem(mark, i); !*mi {
				*mi = true
				v.idx = append(v.idx, i)
				q.pushMax(*elem(f.uPos, i))
			}
			*elem(x, i) -= uVal[t] * val
		}
	}
	v.compact(mark)
}

// btranVec solves Bᵀ y = c for a sparse c, like ftranVec.
func (f *luFactor) btranVec(v *workVec, predicted float64) {
	if float64(len(v.idx)) > 0.05*float64(f.m) || predicted > hyperThreshold {
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
	// Uᵀ, forwards in U's pivot order.
	q := &f.queue
	q.reset(len(f.uOrder), false)
	for _, i := range v.idx {
		q.pushMin(f.uPos[i])
	}
	for q.count > 0 {
		k := q.popMin()
		r := f.uOrder[k]
		yr := elem(y, r)
		val := *yr
		if val == 0 {
			continue
		}
		val /= *elem(f.uDiag, r)
		*yr = val
		a := *elem(f.urStart, r)
		uIdx, uVal := f.urIdx[a:a+*elem(f.urLen, r)], f.urVal[a:]
		uVal = uVal[:len(uIdx)]
		for t, i := range uIdx {
			if mi := elem(mark, i); !*mi {
				*mi = true
				v.idx = append(v.idx, i)
				q.pushMin(*elem(f.uPos, i))
			}
			*elem(y, i) -= uVal[t] * val
		}
	}
	// Row etas, backwards.
	for e := len(f.etaPiv) - 1; e >= 0; e-- {
		val := y[f.etaPiv[e]]
		if val == 0 {
			continue
		}
		for t := f.etaStart[e]; t < f.etaStart[e+1]; t++ {
			i := f.etaIdx[t]
			if !mark[i] {
				mark[i] = true
				v.idx = append(v.idx, i)
			}
			y[i] -= f.etaVal[t] * val
		}
	}
	// Lᵀ, backwards in the factorization's pivot order.
	q.reset(f.m, true)
	for _, i := range v.idx {
		q.pushMax(f.lPivIdx[i])
	}
	for q.count > 0 {
		k := q.popMax()
		r := f.lOrder[k]
		val := *elem(y, r)
		if val == 0 {
			continue
		}
		a, b := *elem(f.lrStart, r), *elem(f.lrStart, r+1)
		lIdx, lVal := f.lrIdx[a:b], f.lrVal[a:b]
		lVal = lVal[:len(lIdx)]
		for t, i := range lIdx {
			if mi := elem(mark, i); !*mi {
				*mi = true
				v.idx = append(v.idx, i)
				q.pushMax(*elem(f.lPivIdx, i))
			}
			*elem(y, i) -= lVal[t] * val
		}
	}
	v.compact(mark)
}

// update replaces the basis column at position p by the column whose spike the last
// FTRAN with spike=true saved, alpha being that column's entry at p in B⁻¹a_q. This is
// the Forrest–Tomlin update (Koberstein §5.3): the spike becomes column p of U, row p
// moves to the end of U's pivot order, and its entries left of the diagonal are
// eliminated with the rows below it; the multipliers form a row eta. It reports false
// when the new diagonal disagrees with α_p·u_pp (the factors are then unusable and the
// caller must refactorize).
func (f *luFactor) update(p int, alpha float64) bool {
	if !f.spikeOK {
		return false
	}
	f.spikeOK = false
	oldDiag := f.uDiag[p]
	w, mark := f.wVal, f.smark

	// Row p leaves its columns; its entries seed the elimination.
	rowIdx := f.muIdx[:0]
	for k := f.urStart[p]; k < f.urStart[p]+f.urLen[p]; k++ {
		t := f.urIdx[k]
		w[t] = f.urVal[k]
		mark[t] = true
		rowIdx = append(rowIdx, t)
		f.colDelete(t, p)
	}
	f.urLen[p] = 0
	// The old column p leaves its rows.
	for k := f.ucStart[p]; k < f.ucStart[p]+f.ucLen[p]; k++ {
		f.rowDelete(f.ucIdx[k], p)
	}
	f.ucLen[p] = 0

	// Eliminate row p with the rows after it, in U's pivot order: μᵀ U_after = w.
	q := &f.queue
	q.reset(len(f.uOrder), false)
	for _, t := range rowIdx {
		q.pushMin(f.uPos[t])
	}
	touched := rowIdx
	rs := len(f.etaIdx)
	for q.count > 0 {
		k := q.popMin()
		t := f.uOrder[k]
		v := w[t]
		if v == 0 {
			continue
		}
		mu := v / f.uDiag[t]
		f.etaIdx = append(f.etaIdx, t)
		f.etaVal = append(f.etaVal, mu)
		for c := f.urStart[t]; c < f.urStart[t]+f.urLen[t]; c++ {
			t2 := f.urIdx[c]
			if !mark[t2] {
				mark[t2] = true
				touched = append(touched, t2)
				q.pushMin(f.uPos[t2])
			}
			w[t2] -= mu * f.urVal[c]
		}
	}
	for _, t := range touched {
		w[t] = 0
		mark[t] = false
	}
	f.muIdx = touched[:0]

	// New diagonal: s_p − Σ μ_t s_t.
	for k, t := range f.spikeIdx {
		w[t] = f.spikeVal[k]
	}
	diag := w[p]
	for q := rs; q < len(f.etaIdx); q++ {
		diag -= f.etaVal[q] * w[f.etaIdx[q]]
	}
	for _, t := range f.spikeIdx {
		w[t] = 0
	}
	if len(f.etaIdx) > rs {
		f.etaPiv = append(f.etaPiv, p)
		f.etaStart = append(f.etaStart, len(f.etaIdx))
	}

	// The spike becomes column p (at the end of the pool), and enters its rows.
	f.ucStart[p] = len(f.ucIdx)
	for k, t := range f.spikeIdx {
		v := f.spikeVal[k]
		if t == p || math.Abs(v) <= luDropTol {
			continue
		}
		f.ucIdx = append(f.ucIdx, t)
		f.ucVal = append(f.ucVal, v)
		f.ucLen[p]++
		f.rowAppend2(t, p, v)
	}
	f.uGrowth += f.ucLen[p]
	f.uDiag[p] = diag
	f.uOrder[f.uPos[p]] = -1
	f.uPos[p] = len(f.uOrder)
	f.uOrder = append(f.uOrder, p)
	f.nUpdates++
	return diag != 0 && math.Abs(diag-alpha*oldDiag) <= ftStabilityTol*math.Max(1, math.Abs(diag))
}

// colDelete removes the entry of row r from U column c.
func (f *luFactor) colDelete(c, r int) {
	s, e := f.ucStart[c], f.ucStart[c]+f.ucLen[c]
	for k := s; k < e; k++ {
		if f.ucIdx[k] == r {
			f.ucIdx[k], f.ucVal[k] = f.ucIdx[e-1], f.ucVal[e-1]
			f.ucLen[c]--
			return
		}
	}
}

// rowDelete removes the entry of column c from U row r.
func (f *luFactor) rowDelete(r, c int) {
	s, e := f.urStart[r], f.urStart[r]+f.urLen[r]
	for k := s; k < e; k++ {
		if f.urIdx[k] == c {
			f.urIdx[k], f.urVal[k] = f.urIdx[e-1], f.urVal[e-1]
			f.urLen[r]--
			return
		}
	}
}

// rowAppend2 adds entry (r, c) = v to U row r, moving the row to the end of the pool when
// it is full.
func (f *luFactor) rowAppend2(r, c int, v float64) {
	if f.urLen[r] == f.urCap[r] {
		s, l := f.urStart[r], f.urLen[r]
		ns := len(f.urIdx)
		nc := 2*l + ftSpare
		f.urIdx = append(f.urIdx, f.urIdx[s:s+l]...)
		f.urVal = append(f.urVal, f.urVal[s:s+l]...)
		for range nc - l {
			f.urIdx = append(f.urIdx, 0)
			f.urVal = append(f.urVal, 0)
		}
		f.urStart[r], f.urCap[r] = ns, nc
	}
	q := f.urStart[r] + f.urLen[r]
	f.urIdx[q], f.urVal[q] = c, v
	f.urLen[r]++
}
