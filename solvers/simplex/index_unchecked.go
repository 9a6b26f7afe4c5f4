//go:build !simplexcheck

package simplex

import "unsafe"

// elem returns &x[i] without Go's bounds check. The solver's inner loops (the triangular
// solves, PRICE, the ratio test) index a dense vector by the entries of an index list;
// each such access carries a check the compiler cannot remove, and those checks cost
// 10–15% of a solve (measured on 80bau3b, greenbea and fit2p by building the package with
// and without -gcflags=-B). Every index used here is a row or column number of the
// factorization or of the matrix copies, below len(x) by construction; `make test` runs
// the package's tests once more with the checks on (build tag simplexcheck, which swaps
// in index_checked.go), so an index out of range fails there as a panic.
func elem[T any](x []T, i int) *T {
	var z T
	return (*T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(x)), uintptr(i)*unsafe.Sizeof(z)))
}

// checkIndices turns on the self-checks of values the solver keeps instead of
// recomputing (see checkChuzr).
const checkIndices = false
