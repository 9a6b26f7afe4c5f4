// Package backendtest holds the tests that every wrapper of an external solver library
// (solvers/highs, solvers/lpsolve) runs against its backend, beside the shared
// conformance cases of package solvertest: the dual sign convention checked by finite
// differences, statuses, a MIP against enumeration, cancellation of a hard MIP through
// every route (cancel, deadline, already cancelled, time limit), a verbose log that goes
// to the writer and never to standard output, and — on Linux — a leak test that watches
// the process's resident memory over thousands of solves through every exit path.
//
// A backend's package calls these from its own tagged tests with a Config that names
// the backend and says what it differs in, so a bug found in one wrapper's test is a
// test of the other as well.
package backendtest
