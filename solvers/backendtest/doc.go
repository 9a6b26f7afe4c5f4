// Package backendtest holds the tests that only a wrapper of an external C solver library
// (solvers/highs, solvers/lpsolve) needs, beside the conformance suite of package
// solvertest that every backend runs (where the finite-difference duals, statuses,
// cancellation and the MIP cases live): a verbose log that goes to the writer and never to
// standard output — C code can print with printf — and, on Linux, a leak test that watches
// the process's resident memory over thousands of solves through every exit path, since
// each solve creates and must destroy library handles outside Go's heap.
//
// A backend's package calls these from its own tagged tests with a Config that names the
// backend.
package backendtest
