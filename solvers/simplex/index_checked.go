//go:build simplexcheck

package simplex

// elem returns &x[i] with Go's bounds check: the simplexcheck build runs the package's
// tests with every index of the inner loops checked (index_unchecked.go says why the
// default build does not).
func elem[T any](x []T, i int) *T { return &x[i] }

// checkIndices turns on the self-checks of values the solver keeps instead of
// recomputing (see checkChuzr).
const checkIndices = true
