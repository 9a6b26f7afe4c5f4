//go:build highs

package highs

/*
#cgo pkg-config: highs
#include <stdint.h>
#include <stdlib.h>
#include "interfaces/highs_c_api.h"

// Implemented in Go (callback.go). It never panics into C.
extern int coraoptHighsCallback(uintptr_t handle, int type, int logType, char* message);

// coraopt_highs_callback is the HighsCCallbackType HiGHS calls. It forwards to Go and,
// for the interrupt callbacks, sets user_interrupt when Go asks to stop.
static void coraopt_highs_callback(int type, const char* message,
                                   const HighsCallbackDataOut* out,
                                   HighsCallbackDataIn* in, void* data) {
	(void)out;
	int stop = coraoptHighsCallback((uintptr_t)data, type, out != NULL ? out->log_type : 0,
	                                (char*)message);
	if (stop && in != NULL &&
	    (type == kHighsCallbackSimplexInterrupt || type == kHighsCallbackIpmInterrupt ||
	     type == kHighsCallbackMipInterrupt)) {
		in->user_interrupt = 1;
	}
}

// coraopt_highs_set_callback installs the callback with a cgo.Handle as its user data
// (passed as an integer so that Go never converts an integer to a pointer).
static HighsInt coraopt_highs_set_callback(void* highs, uintptr_t handle) {
	return Highs_setCallback(highs, coraopt_highs_callback, (void*)handle);
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/cgo"
	"slices"
	"time"
	"unsafe"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Name is the registry name of this backend.
const Name = "highs"

func init() {
	solvers.Register(Name, func() (solvers.Solver, error) { return New(), nil })
}

// Solver solves LPs, MIPs and convex QPs with HiGHS. The zero value is ready to use and
// a Solver may be used from several goroutines at once.
type Solver struct {
	// interruptAfter, when positive, makes the interrupt callback stop the solve on its
	// interruptAfter-th call as if the context had been cancelled. Tests use it to stop
	// HiGHS at every point where it polls.
	interruptAfter int
}

// New returns a HiGHS solver.
func New() *Solver { return &Solver{} }

// Name implements solvers.Solver.
func (*Solver) Name() string { return Name }

// Capabilities implements solvers.Describer.
func (*Solver) Capabilities() solvers.Capabilities {
	return solvers.Capabilities{LP: true, MIP: true, QP: true, Duals: true, Basis: true}
}

// Version implements solvers.Describer: HiGHS's own version string ("1.10.0").
func (*Solver) Version() string { return Version() }

// Version is the version of the linked HiGHS library.
func Version() string { return C.GoString(C.Highs_version()) }

// HiGHS constants, as documented in highs_c_api.h. The header declares them as C
// variables, which cgo cannot turn into Go constants; checkConstants (run by the tests)
// proves these values equal the header's.
const (
	msNotset                 = 0
	msLoadError              = 1
	msModelError             = 2
	msPresolveError          = 3
	msSolveError             = 4
	msPostsolveError         = 5
	msModelEmpty             = 6
	msOptimal                = 7
	msInfeasible             = 8
	msUnboundedOrInfeasible  = 9
	msUnbounded              = 10
	msObjectiveBound         = 11
	msObjectiveTarget        = 12
	msTimeLimit              = 13
	msIterationLimit         = 14
	msUnknown                = 15
	msSolutionLimit          = 16
	msInterrupt              = 17
	statusError              = -1
	solutionStatusFeasible   = 2
	basisValid               = 1
	basisLower               = 0
	basisBasic               = 1
	basisUpper               = 2
	basisZero                = 3
	basisNonbasic            = 4
	callbackLogging          = 0
	callbackSimplexInterrupt = 1
	callbackIpmInterrupt     = 2
	callbackMipInterrupt     = 6
	varTypeInteger           = 1
	matrixFormatColwise      = 1
	hessianFormatTriangular  = 1
)

// checkConstants compares the constants above with the values in the linked header.
func checkConstants() error {
	pairs := []struct {
		name      string
		ours, hdr int
	}{
		{"kHighsModelStatusNotset", msNotset, int(C.kHighsModelStatusNotset)},
		{"kHighsModelStatusLoadError", msLoadError, int(C.kHighsModelStatusLoadError)},
		{"kHighsModelStatusModelError", msModelError, int(C.kHighsModelStatusModelError)},
		{"kHighsModelStatusPresolveError", msPresolveError, int(C.kHighsModelStatusPresolveError)},
		{"kHighsModelStatusSolveError", msSolveError, int(C.kHighsModelStatusSolveError)},
		{"kHighsModelStatusPostsolveError", msPostsolveError, int(C.kHighsModelStatusPostsolveError)},
		{"kHighsModelStatusModelEmpty", msModelEmpty, int(C.kHighsModelStatusModelEmpty)},
		{"kHighsModelStatusOptimal", msOptimal, int(C.kHighsModelStatusOptimal)},
		{"kHighsModelStatusInfeasible", msInfeasible, int(C.kHighsModelStatusInfeasible)},
		{"kHighsModelStatusUnboundedOrInfeasible", msUnboundedOrInfeasible, int(C.kHighsModelStatusUnboundedOrInfeasible)},
		{"kHighsModelStatusUnbounded", msUnbounded, int(C.kHighsModelStatusUnbounded)},
		{"kHighsModelStatusObjectiveBound", msObjectiveBound, int(C.kHighsModelStatusObjectiveBound)},
		{"kHighsModelStatusObjectiveTarget", msObjectiveTarget, int(C.kHighsModelStatusObjectiveTarget)},
		{"kHighsModelStatusTimeLimit", msTimeLimit, int(C.kHighsModelStatusTimeLimit)},
		{"kHighsModelStatusIterationLimit", msIterationLimit, int(C.kHighsModelStatusIterationLimit)},
		{"kHighsModelStatusUnknown", msUnknown, int(C.kHighsModelStatusUnknown)},
		{"kHighsModelStatusSolutionLimit", msSolutionLimit, int(C.kHighsModelStatusSolutionLimit)},
		{"kHighsModelStatusInterrupt", msInterrupt, int(C.kHighsModelStatusInterrupt)},
		{"kHighsStatusError", statusError, int(C.kHighsStatusError)},
		{"kHighsSolutionStatusFeasible", solutionStatusFeasible, int(C.kHighsSolutionStatusFeasible)},
		{"kHighsBasisValidityValid", basisValid, int(C.kHighsBasisValidityValid)},
		{"kHighsBasisStatusLower", basisLower, int(C.kHighsBasisStatusLower)},
		{"kHighsBasisStatusBasic", basisBasic, int(C.kHighsBasisStatusBasic)},
		{"kHighsBasisStatusUpper", basisUpper, int(C.kHighsBasisStatusUpper)},
		{"kHighsBasisStatusZero", basisZero, int(C.kHighsBasisStatusZero)},
		{"kHighsBasisStatusNonbasic", basisNonbasic, int(C.kHighsBasisStatusNonbasic)},
		{"kHighsCallbackLogging", callbackLogging, int(C.kHighsCallbackLogging)},
		{"kHighsCallbackSimplexInterrupt", callbackSimplexInterrupt, int(C.kHighsCallbackSimplexInterrupt)},
		{"kHighsCallbackIpmInterrupt", callbackIpmInterrupt, int(C.kHighsCallbackIpmInterrupt)},
		{"kHighsCallbackMipInterrupt", callbackMipInterrupt, int(C.kHighsCallbackMipInterrupt)},
		{"kHighsVarTypeInteger", varTypeInteger, int(C.kHighsVarTypeInteger)},
		{"kHighsMatrixFormatColwise", matrixFormatColwise, int(C.kHighsMatrixFormatColwise)},
		{"kHighsHessianFormatTriangular", hessianFormatTriangular, int(C.kHighsHessianFormatTriangular)},
	}
	for _, c := range pairs {
		if c.ours != c.hdr {
			return fmt.Errorf("highs: %s is %d in highs_c_api.h, the binding assumes %d", c.name, c.hdr, c.ours)
		}
	}
	return nil
}

// errModel marks model statuses that mean HiGHS could not take the model at all.
var errModel = errors.New("HiGHS rejected the model")

// mapStatus translates a HiGHS model status. cause is the context's cause when the run was
// interrupted (nil otherwise); emptyFeasible tells, for a model without columns, whether
// every row admits activity 0. Model load and model errors are Go errors: the solve did
// not run.
func mapStatus(ms int, cause error, emptyFeasible bool) (solvers.Status, error) {
	switch ms {
	case msOptimal:
		return solvers.Optimal, nil
	case msInfeasible:
		return solvers.Infeasible, nil
	case msUnboundedOrInfeasible:
		return solvers.InfeasibleOrUnbounded, nil
	case msUnbounded:
		return solvers.Unbounded, nil
	case msTimeLimit:
		return solvers.TimeLimit, nil
	case msIterationLimit:
		return solvers.IterationLimit, nil
	case msModelEmpty:
		// HiGHS stops at once on a model without columns; its rows are constants 0.
		if emptyFeasible {
			return solvers.Optimal, nil
		}
		return solvers.Infeasible, nil
	case msInterrupt:
		// Only our callback interrupts, and only when the context is done.
		if errors.Is(cause, context.DeadlineExceeded) {
			return solvers.TimeLimit, nil
		}
		return solvers.Other, nil
	case msPresolveError, msSolveError, msPostsolveError:
		return solvers.NumericalError, nil
	case msLoadError, msModelError:
		return solvers.Other, fmt.Errorf("%w (model status %d)", errModel, ms)
	case msNotset, msObjectiveBound, msObjectiveTarget, msUnknown, msSolutionLimit:
		// Notset: the run stopped before deciding anything. ObjectiveBound/Target and
		// SolutionLimit need options coraopt never sets. Unknown: HiGHS could not classify.
		return solvers.Other, nil
	default:
		// A status added by a later HiGHS.
		return solvers.Other, nil
	}
}

// Solve implements solvers.Solver.
func (s *Solver) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("highs: %w", err)
	}
	if p.HasQuadratic() && p.HasInteger() {
		return nil, errors.New("highs: mixed-integer QPs are not supported by HiGHS 1.10")
	}
	n, m, nnz := p.NumCols(), p.NumRows(), p.NumNonzeros()
	if n > math.MaxInt32 || m > math.MaxInt32 || nnz > math.MaxInt32 || len(p.QValue) > math.MaxInt32 {
		return nil, fmt.Errorf("highs: problem too large for 32-bit HighsInt (%d cols, %d rows, %d nonzeros)", n, m, nnz)
	}
	sol := &solvers.Solution{Backend: Name, Version: Version()}
	limit, done := timeBudget(ctx, opt.TimeLimit)
	if done {
		sol.Status = statusForContext(ctx)
		sol.WallTime = time.Since(start)
		return sol, nil
	}

	// HiGHS's scheduler is per OS thread (see the package doc): stay on one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	cb := &callbackState{verbose: opt.Verbose, interruptAfter: int64(s.interruptAfter)}
	handle := cgo.NewHandle(cb)
	defer handle.Delete() // after Highs_destroy (defers run last-in first-out)

	h := C.Highs_create()
	if h == nil {
		return nil, errors.New("highs: Highs_create failed")
	}
	defer C.Highs_destroy(h)

	// Quiet before anything can log; configure routes the log to the callback.
	if err := setBool(h, "output_flag", false); err != nil {
		return nil, err
	}
	if err := s.configure(h, handle, p, opt, limit); err != nil {
		return nil, err
	}
	if err := passModel(h, p); err != nil {
		return nil, err
	}
	if opt.WarmStart != nil && p.Kind() == "LP" {
		setWarmStart(h, p, opt.WarmStart)
	}

	threads := max(opt.Threads, 1)
	if threads > 1 {
		C.Highs_resetGlobalScheduler(1)
		defer C.Highs_resetGlobalScheduler(1)
	}
	stop := context.AfterFunc(ctx, cb.interrupt)
	runStatus := int(C.Highs_run(h))
	stop()

	ms := int(C.Highs_getModelStatus(h))
	var cause error
	if ms == msInterrupt {
		cause = context.Cause(ctx)
	}
	status, err := mapStatus(ms, cause, n == 0 && zeroFeasible(p))
	if err != nil {
		return nil, fmt.Errorf("highs: %w", err)
	}
	if runStatus == statusError && ms == msNotset {
		return nil, fmt.Errorf("highs: Highs_run failed before solving: %s", cb.problemText())
	}
	sol.Status = status
	readSolution(h, p, sol)
	if p.HasQuadratic() && sol.Status == solvers.Optimal {
		correctQP(p, sol)
	}
	sol.WallTime = time.Since(start)
	return sol, nil
}

// correctQP repairs what HiGHS 1.10's QP solver gets wrong. It always adds 1e-7 to the
// diagonal of Q (solveqp in qpsolver/a_quass.cpp), so it solves a slightly different,
// strictly convex problem: where the true objective decreases without limit along a
// direction in Q's null space, it reports an "optimum" at a distance of about |c_j|/1e-7,
// and its reduced costs are those of the regularized problem.
//
// Unboundedness along a single column is detected exactly: a column j with no entry in Q,
// whose cost improves the objective in a direction its bounds and the bounds of every row
// it appears in leave open, makes a feasible QP unbounded (HiGHS's point proves
// feasibility). The reduced costs are recomputed from their definition c + Qx − Aᵀy at
// HiGHS's point. Rays along several columns at once are not detected.
func correctQP(p *model.Problem, sol *solvers.Solution) {
	if j := singleColumnRay(p); j >= 0 {
		*sol = solvers.Solution{Status: solvers.Unbounded, Iterations: sol.Iterations, Backend: sol.Backend, Version: sol.Version}
		return
	}
	if sol.RowDual == nil {
		return
	}
	n := p.NumCols()
	d := slices.Clone(p.ColCost)
	for j := range n {
		for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
			i, q := p.QIndex[k], p.QValue[k]
			d[i] += q * sol.X[j]
			if i != j {
				d[j] += q * sol.X[i]
			}
		}
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			d[j] -= p.AValue[k] * sol.RowDual[p.AIndex[k]]
		}
	}
	sol.ReducedCost = d
}

// singleColumnRay returns a column along which p's objective improves without limit
// from any feasible point (see correctQP), or -1.
func singleColumnRay(p *model.Problem) int {
	n := p.NumCols()
	inQ := make([]bool, n)
	for j := range n {
		for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
			inQ[j], inQ[p.QIndex[k]] = true, true
		}
	}
	for j := range n {
		c := float64(p.Sense) * p.ColCost[j]
		if inQ[j] || c == 0 {
			continue
		}
		dir := -math.Copysign(1, c) // the direction that decreases the minimization cost
		if (dir > 0 && !math.IsInf(p.ColUpper[j], 1)) || (dir < 0 && !math.IsInf(p.ColLower[j], -1)) {
			continue
		}
		open := true
		for k := p.AStart[j]; k < p.AStart[j+1] && open; k++ {
			i, move := p.AIndex[k], p.AValue[k]*dir
			open = (move > 0 && math.IsInf(p.RowUpper[i], 1)) || (move < 0 && math.IsInf(p.RowLower[i], -1))
		}
		if open {
			return j
		}
	}
	return -1
}

// timeBudget returns the time limit to give HiGHS (0: none) and whether the context is
// already done.
func timeBudget(ctx context.Context, limit time.Duration) (time.Duration, bool) {
	if ctx.Err() != nil {
		return 0, true
	}
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl)
		if left <= 0 {
			return 0, true
		}
		if limit <= 0 || left < limit {
			limit = left
		}
	}
	return limit, false
}

// statusForContext is the status of a solve that did not start because ctx was done.
func statusForContext(ctx context.Context) solvers.Status {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) || ctx.Err() == nil {
		return solvers.TimeLimit
	}
	return solvers.Other
}

// zeroFeasible reports whether x = () satisfies every row, i.e. lo ≤ 0 ≤ hi.
func zeroFeasible(p *model.Problem) bool {
	for i := range p.RowLower {
		if p.RowLower[i] > 0 || p.RowUpper[i] < 0 {
			return false
		}
	}
	return true
}

func (s *Solver) configure(h unsafe.Pointer, handle cgo.Handle, p *model.Problem, opt solvers.Options, limit time.Duration) error {
	if int(C.coraopt_highs_set_callback(h, C.uintptr_t(handle))) == statusError {
		return errors.New("highs: Highs_setCallback failed")
	}
	for _, t := range []int{callbackSimplexInterrupt, callbackIpmInterrupt, callbackMipInterrupt} {
		if int(C.Highs_startCallback(h, C.int(t))) == statusError {
			return fmt.Errorf("highs: Highs_startCallback(%d) failed", t)
		}
	}
	// With the logging callback active HiGHS hands every log line to it instead of
	// printing it; log_to_console must be on for HiGHS to produce the lines at all. The
	// callback keeps warnings and errors for Solve's error messages and passes everything
	// to Options.Verbose when set. Nothing reaches stdout.
	if int(C.Highs_startCallback(h, C.int(callbackLogging))) == statusError {
		return errors.New("highs: Highs_startCallback(logging) failed")
	}
	if err := setBool(h, "log_to_console", true); err != nil {
		return err
	}
	if err := setBool(h, "output_flag", true); err != nil {
		return err
	}
	if err := setInt(h, "threads", max(opt.Threads, 1)); err != nil {
		return err
	}
	if limit > 0 {
		if err := setDouble(h, "time_limit", limit.Seconds()); err != nil {
			return err
		}
	}
	if opt.IterationLimit > 0 {
		it := min(opt.IterationLimit, math.MaxInt32)
		if err := setInt(h, "simplex_iteration_limit", it); err != nil {
			return err
		}
		if err := setInt(h, "ipm_iteration_limit", it); err != nil {
			return err
		}
		if p.HasQuadratic() {
			if err := setInt(h, "qp_iteration_limit", it); err != nil {
				return err
			}
		}
	}
	if opt.PrimalTol > 0 {
		if err := setDouble(h, "primal_feasibility_tolerance", opt.PrimalTol); err != nil {
			return err
		}
	}
	if opt.DualTol > 0 {
		if err := setDouble(h, "dual_feasibility_tolerance", opt.DualTol); err != nil {
			return err
		}
	}
	if opt.MIPGap > 0 {
		if err := setDouble(h, "mip_rel_gap", opt.MIPGap); err != nil {
			return err
		}
	}
	return nil
}

func setBool(h unsafe.Pointer, name string, v bool) error {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var b C.HighsInt
	if v {
		b = 1
	}
	if int(C.Highs_setBoolOptionValue(h, cs, b)) == statusError {
		return fmt.Errorf("highs: option %s=%v rejected", name, v)
	}
	return nil
}

func setInt(h unsafe.Pointer, name string, v int) error {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if int(C.Highs_setIntOptionValue(h, cs, C.HighsInt(v))) == statusError {
		return fmt.Errorf("highs: option %s=%d rejected", name, v)
	}
	return nil
}

func setDouble(h unsafe.Pointer, name string, v float64) error {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if int(C.Highs_setDoubleOptionValue(h, cs, C.double(v))) == statusError {
		return fmt.Errorf("highs: option %s=%g rejected", name, v)
	}
	return nil
}

func intInfo(h unsafe.Pointer, name string) int {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var v C.HighsInt
	if int(C.Highs_getIntInfoValue(h, cs, &v)) == statusError {
		return 0
	}
	return int(v)
}

func int64Info(h unsafe.Pointer, name string) int64 {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var v C.int64_t
	if int(C.Highs_getInt64InfoValue(h, cs, &v)) == statusError {
		return 0
	}
	return int64(v)
}

func doubleInfo(h unsafe.Pointer, name string) (float64, bool) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var v C.double
	if int(C.Highs_getDoubleInfoValue(h, cs, &v)) == statusError {
		return 0, false
	}
	return float64(v), true
}

// passModel hands p to HiGHS. The arrays are Go memory holding no Go pointers, which cgo
// allows; HiGHS copies them before Highs_passModel returns.
func passModel(h unsafe.Pointer, p *model.Problem) error {
	inf := float64(C.Highs_getInfinity(h))
	n, m := p.NumCols(), p.NumRows()
	colLo, colHi := withInfinity(p.ColLower, inf), withInfinity(p.ColUpper, inf)
	rowLo, rowHi := withInfinity(p.RowLower, inf), withInfinity(p.RowUpper, inf)
	aStart, aIndex := cInts(p.AStart), cInts(p.AIndex)
	var qStart, qIndex []C.HighsInt
	var qValue []float64
	qFormat := C.HighsInt(0)
	if p.HasQuadratic() {
		qStart, qIndex, qValue = cInts(p.QStart), cInts(p.QIndex), p.QValue
		qFormat = hessianFormatTriangular
	}
	var integrality []C.HighsInt
	if p.HasInteger() {
		integrality = make([]C.HighsInt, n)
		for j, isInt := range p.Integrality {
			if isInt {
				integrality[j] = varTypeInteger
			}
		}
	}
	st := C.Highs_passModel(h, C.HighsInt(n), C.HighsInt(m), C.HighsInt(len(p.AIndex)), C.HighsInt(len(qValue)),
		matrixFormatColwise, qFormat, C.HighsInt(p.Sense), C.double(p.Offset),
		dptr(p.ColCost), dptr(colLo), dptr(colHi), dptr(rowLo), dptr(rowHi),
		iptr(aStart), iptr(aIndex), dptr(p.AValue),
		iptr(qStart), iptr(qIndex), dptr(qValue), iptr(integrality))
	if int(st) == statusError {
		return errors.New("highs: Highs_passModel rejected the model")
	}
	return nil
}

// withInfinity returns v with ±Inf replaced by ±inf (HiGHS's infinity), copying only when
// something changes: HiGHS 1.10's infinity is IEEE +Inf, so normally nothing does.
func withInfinity(v []float64, inf float64) []float64 {
	if math.IsInf(inf, 1) {
		return v
	}
	out := make([]float64, len(v))
	for i, x := range v {
		switch {
		case math.IsInf(x, 1) || x >= inf:
			out[i] = inf
		case math.IsInf(x, -1) || x <= -inf:
			out[i] = -inf
		default:
			out[i] = x
		}
	}
	return out
}

func cInts(v []int) []C.HighsInt {
	out := make([]C.HighsInt, len(v))
	for i, x := range v {
		out[i] = C.HighsInt(x)
	}
	return out
}

func dptr(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&v[0]))
}

func iptr(v []C.HighsInt) *C.HighsInt {
	if len(v) == 0 {
		return nil
	}
	return &v[0]
}

// setWarmStart installs b as HiGHS's starting basis when it fits p; otherwise (or when
// HiGHS rejects it as not a basis) the solve starts from HiGHS's own basis.
func setWarmStart(h unsafe.Pointer, p *model.Problem, b *solvers.Basis) {
	n, m := p.NumCols(), p.NumRows()
	if len(b.Cols) != n || len(b.Rows) > m {
		return
	}
	cols := make([]C.HighsInt, n)
	rows := make([]C.HighsInt, m)
	for j, s := range b.Cols {
		cols[j] = toHighsBasis(s)
	}
	for i := range rows {
		rows[i] = C.HighsInt(basisBasic)
		if i < len(b.Rows) {
			rows[i] = toHighsBasis(b.Rows[i])
		}
	}
	if int(C.Highs_setBasis(h, iptr(cols), iptr(rows))) == statusError {
		C.Highs_setLogicalBasis(h)
	}
}

func toHighsBasis(s solvers.BasisStatus) C.HighsInt {
	switch s {
	case solvers.Basic:
		return C.HighsInt(basisBasic)
	case solvers.AtUpper:
		return C.HighsInt(basisUpper)
	case solvers.AtZero:
		return C.HighsInt(basisZero)
	default: // AtLower, Fixed: HiGHS keeps fixed nonbasics at their lower bound
		return C.HighsInt(basisLower)
	}
}

func fromHighsBasis(s C.HighsInt, lo, hi float64) solvers.BasisStatus {
	switch int(s) {
	case basisBasic:
		return solvers.Basic
	case basisUpper:
		if lo == hi {
			return solvers.Fixed
		}
		return solvers.AtUpper
	case basisZero:
		return solvers.AtZero
	case basisLower:
		if lo == hi {
			return solvers.Fixed
		}
		return solvers.AtLower
	default: // kHighsBasisStatusNonbasic or a later code: place it at a finite bound
		switch {
		case lo == hi:
			return solvers.Fixed
		case !math.IsInf(lo, -1):
			return solvers.AtLower
		case !math.IsInf(hi, 1):
			return solvers.AtUpper
		}
		return solvers.AtZero
	}
}

// readSolution copies what HiGHS has after a run into sol.
func readSolution(h unsafe.Pointer, p *model.Problem, sol *solvers.Solution) {
	n, m := p.NumCols(), p.NumRows()
	isMIP := p.HasInteger()

	iters := 0
	for _, k := range []string{"simplex_iteration_count", "ipm_iteration_count", "crossover_iteration_count", "pdlp_iteration_count", "qp_iteration_count"} {
		iters += max(intInfo(h, k), 0)
	}
	sol.Iterations = iters
	if isMIP {
		sol.Nodes = int(max(int64Info(h, "mip_node_count"), 0))
	}

	if n == 0 {
		// HiGHS returns at once on an empty model: every row is the constant 0.
		if sol.Status == solvers.Optimal {
			sol.X = []float64{}
			sol.ReducedCost = []float64{}
			sol.RowActivity = make([]float64, m)
			sol.RowDual = make([]float64, m)
			sol.Objective = p.Offset
			sol.BestBound = p.Offset
		}
		return
	}

	primalOK := sol.Status == solvers.Optimal || intInfo(h, "primal_solution_status") == solutionStatusFeasible
	dualOK := !isMIP && sol.Status == solvers.Optimal && intInfo(h, "dual_solution_status") == solutionStatusFeasible
	if !primalOK || sol.Status == solvers.Infeasible {
		return
	}
	x := make([]float64, n)
	colDual := make([]float64, n)
	rowValue := make([]float64, m)
	rowDual := make([]float64, m)
	C.Highs_getSolution(h, dptr(x), dptr(colDual), dptr(rowValue), dptr(rowDual))
	sol.X = x
	sol.RowActivity = rowValue
	sol.Objective = float64(C.Highs_getObjectiveValue(h))
	sol.BestBound = sol.Objective
	if isMIP {
		if b, ok := doubleInfo(h, "mip_dual_bound"); ok && !math.IsNaN(b) {
			sol.BestBound = b
		}
	}
	if dualOK {
		sol.RowDual = rowDual
		sol.ReducedCost = colDual
	}
	if !isMIP && intInfo(h, "basis_validity") == basisValid {
		cols := make([]C.HighsInt, n)
		rows := make([]C.HighsInt, m)
		if int(C.Highs_getBasis(h, iptr(cols), iptr(rows))) != statusError {
			b := &solvers.Basis{Cols: make([]solvers.BasisStatus, n), Rows: make([]solvers.BasisStatus, m)}
			for j := range cols {
				b.Cols[j] = fromHighsBasis(cols[j], p.ColLower[j], p.ColUpper[j])
			}
			for i := range rows {
				b.Rows[i] = fromHighsBasis(rows[i], p.RowLower[i], p.RowUpper[i])
			}
			sol.Basis = b
		}
	}
}
