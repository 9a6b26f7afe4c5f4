//go:build lpsolve

package lpsolve

/*
#cgo LDFLAGS: -llpsolve55 -lcolamd -ldl -lm
#include <stdint.h>
#include <stdlib.h>
#include <lpsolve/lp_lib.h>

// Implemented in Go (callback.go). They never panic into C.
extern int coraoptLpsolveAbort(uintptr_t handle, lprec* lp);
extern void coraoptLpsolveLog(uintptr_t handle, char* buf);

static int __WINAPI coraopt_lpsolve_abort(lprec* lp, void* handle) {
	return coraoptLpsolveAbort((uintptr_t)handle, lp);
}

static void __WINAPI coraopt_lpsolve_log(lprec* lp, void* handle, char* buf) {
	(void)lp;
	coraoptLpsolveLog((uintptr_t)handle, buf);
}

// The handle is passed as an integer so that Go never converts an integer to a pointer.
static void coraopt_lpsolve_callbacks(lprec* lp, uintptr_t handle, int log) {
	put_abortfunc(lp, coraopt_lpsolve_abort, (void*)handle);
	if (log) put_logfunc(lp, coraopt_lpsolve_log, (void*)handle);
}

static unsigned char coraopt_set_quiet(lprec* lp) {
	set_verbose(lp, NEUTRAL);
	return set_outputfile(lp, "");
}

static void coraopt_set_sense(lprec* lp, int maximize) {
	if (maximize) set_maxim(lp); else set_minim(lp);
}

// coraopt_resolve_for_duals solves lp again, from the optimal basis the first solve left,
// with sensitivity analysis on and neither abort function nor timeout: lp_solve 5.5.2.5
// crashes (construct_sensitivity_duals on an invalid factorization) when a solve with
// sensitivity analysis is aborted, so the first solve never has it on.
static int coraopt_resolve_for_duals(lprec* lp) {
	put_abortfunc(lp, NULL, NULL);
	set_timeout(lp, 0);
	set_presolve(lp, PRESOLVE_SENSDUALS, get_presolveloops(lp));
	return solve(lp);
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/cgo"
	"time"
	"unsafe"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Name is the registry name of this backend.
const Name = "lpsolve"

func init() {
	solvers.Register(Name, func() (solvers.Solver, error) { return New(), nil })
}

// turn admits one lp_solve model at a time into the process (see the package doc: lp_solve
// keeps factorization state in static variables). It is a channel rather than a mutex so
// that a Solve waiting for its turn can give up when its context is done.
var turn = make(chan struct{}, 1)

// Solver solves LPs and MIPs with lp_solve. The zero value is ready to use; a Solver may
// be shared between goroutines (their solves run one at a time).
type Solver struct {
	// abortAfter, when positive, makes the abort function stop the solve on its
	// abortAfter-th call as if the context had been cancelled. Tests use it to stop
	// lp_solve at every point where it polls.
	abortAfter int
}

// New returns an lp_solve solver.
func New() *Solver { return &Solver{} }

// Name implements solvers.Solver.
func (*Solver) Name() string { return Name }

// Capabilities implements solvers.Describer. lp_solve has no QP solver, and the binding
// does not exchange bases with it (lp_solve's basis encoding refers to its internal,
// sign-changed rows).
func (*Solver) Capabilities() solvers.Capabilities {
	return solvers.Capabilities{LP: true, MIP: true, Duals: true}
}

// Version implements solvers.Describer: lp_solve's version, "5.5.2.5" for Debian 12's.
func (*Solver) Version() string { return Version() }

// Version is the version of the linked lp_solve library.
func Version() string {
	var major, minor, release, build C.int
	C.lp_solve_version(&major, &minor, &release, &build)
	return fmt.Sprintf("%d.%d.%d.%d", major, minor, release, build)
}

// lp_solve's solve() return codes and the constants the binding uses, as in lp_lib.h.
// cgo cannot see macros as Go constants; checkConstants (run by the tests) compares them.
const (
	retUnknownError  = -5
	retDataIgnored   = -4
	retNoBFP         = -3
	retNoMemory      = -2
	retNotRun        = -1
	retOptimal       = 0
	retSubOptimal    = 1
	retInfeasible    = 2
	retUnbounded     = 3
	retDegenerate    = 4
	retNumFailure    = 5
	retUserAbort     = 6
	retTimeout       = 7
	retRunning       = 8
	retPresolved     = 9
	retProcFail      = 10
	retProcBreak     = 11
	retFeasFound     = 12
	retNoFeasFound   = 13
	retFathomed      = 14
	retAccuracyError = 25
	rowLE            = 1
	rowGE            = 2
	rowEQ            = 3
)

func checkConstants() error {
	pairs := []struct {
		name      string
		ours, hdr int
	}{
		{"UNKNOWNERROR", retUnknownError, C.UNKNOWNERROR},
		{"DATAIGNORED", retDataIgnored, C.DATAIGNORED},
		{"NOBFP", retNoBFP, C.NOBFP},
		{"NOMEMORY", retNoMemory, C.NOMEMORY},
		{"NOTRUN", retNotRun, C.NOTRUN},
		{"OPTIMAL", retOptimal, C.OPTIMAL},
		{"SUBOPTIMAL", retSubOptimal, C.SUBOPTIMAL},
		{"INFEASIBLE", retInfeasible, C.INFEASIBLE},
		{"UNBOUNDED", retUnbounded, C.UNBOUNDED},
		{"DEGENERATE", retDegenerate, C.DEGENERATE},
		{"NUMFAILURE", retNumFailure, C.NUMFAILURE},
		{"USERABORT", retUserAbort, C.USERABORT},
		{"TIMEOUT", retTimeout, C.TIMEOUT},
		{"RUNNING", retRunning, C.RUNNING},
		{"PRESOLVED", retPresolved, C.PRESOLVED},
		{"PROCFAIL", retProcFail, C.PROCFAIL},
		{"PROCBREAK", retProcBreak, C.PROCBREAK},
		{"FEASFOUND", retFeasFound, C.FEASFOUND},
		{"NOFEASFOUND", retNoFeasFound, C.NOFEASFOUND},
		{"FATHOMED", retFathomed, C.FATHOMED},
		{"ACCURACYERROR", retAccuracyError, C.ACCURACYERROR},
		{"LE", rowLE, C.LE},
		{"GE", rowGE, C.GE},
		{"EQ", rowEQ, C.EQ},
	}
	for _, c := range pairs {
		if c.ours != c.hdr {
			return fmt.Errorf("lpsolve: %s is %d in lp_lib.h, the binding assumes %d", c.name, c.hdr, c.ours)
		}
	}
	return nil
}

// stopReason says why the abort function stopped a solve.
type stopReason int32

const (
	notStopped stopReason = iota
	stoppedCancel
	stoppedDeadline  // context deadline or Options.TimeLimit
	stoppedIteration // Options.IterationLimit
)

// mapStatus translates solve()'s return code. why is the abort function's reason, if it
// stopped the solve. Codes that mean lp_solve could not start are Go errors.
func mapStatus(ret int, why stopReason) (solvers.Status, error) {
	limitStatus := func() solvers.Status {
		switch why {
		case stoppedDeadline:
			return solvers.TimeLimit
		case stoppedIteration:
			return solvers.IterationLimit
		}
		return solvers.Other
	}
	switch ret {
	case retOptimal:
		return solvers.Optimal, nil
	case retInfeasible, retNoFeasFound:
		return solvers.Infeasible, nil
	case retUnbounded:
		return solvers.Unbounded, nil
	case retTimeout:
		return solvers.TimeLimit, nil
	case retUserAbort:
		return limitStatus(), nil
	case retSubOptimal:
		// A MIP stopped with an incumbent: by our abort function, lp_solve's timeout, or a
		// break-at-first/break-at-value rule (which coraopt does not set).
		if why != notStopped {
			return limitStatus(), nil
		}
		return solvers.Other, nil
	case retNumFailure, retAccuracyError, retProcFail:
		return solvers.NumericalError, nil
	case retDegenerate, retNotRun, retRunning, retPresolved, retProcBreak, retFeasFound, retFathomed, retUnknownError:
		// DEGENERATE and the branch-and-bound codes are not proofs of anything; PRESOLVED
		// needs presolve-only mode, which coraopt does not set.
		return solvers.Other, nil
	case retNoMemory:
		return solvers.Other, errors.New("lp_solve ran out of memory")
	case retNoBFP, retDataIgnored:
		return solvers.Other, fmt.Errorf("lp_solve could not start (code %d)", ret)
	default:
		return solvers.Other, nil
	}
}

// Solve implements solvers.Solver.
func (s *Solver) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("lpsolve: %w", err)
	}
	if p.HasQuadratic() {
		return nil, errors.New("lpsolve: lp_solve cannot solve problems with a quadratic objective")
	}
	n, m := p.NumCols(), p.NumRows()
	if n >= math.MaxInt32 || m >= math.MaxInt32 {
		return nil, fmt.Errorf("lpsolve: problem too large (%d cols, %d rows)", n, m)
	}
	sol := &solvers.Solution{Backend: Name, Version: Version()}

	select {
	case turn <- struct{}{}:
		defer func() { <-turn }()
	case <-ctx.Done():
		sol.Status = statusForContext(ctx)
		sol.WallTime = time.Since(start)
		return sol, nil
	}
	if ctx.Err() != nil {
		sol.Status = statusForContext(ctx)
		sol.WallTime = time.Since(start)
		return sol, nil
	}

	cb := &callbackState{verbose: opt.Verbose, iterLimit: int64(opt.IterationLimit), abortAfter: int64(s.abortAfter)}
	handle := cgo.NewHandle(cb)
	defer handle.Delete() // after delete_lp (defers run last-in first-out)

	lp := C.make_lp(C.int(m), 0)
	if lp == nil {
		return nil, errors.New("lpsolve: make_lp failed")
	}
	defer C.delete_lp(lp)
	if C.coraopt_set_quiet(lp) == 0 {
		return nil, errors.New("lpsolve: set_outputfile failed")
	}
	logOn := C.int(0)
	if opt.Verbose != nil {
		logOn = 1
		C.set_verbose(lp, C.NORMAL)
	}
	C.coraopt_lpsolve_callbacks(lp, C.uintptr_t(handle), logOn)

	rays, err := load(lp, p)
	if err != nil {
		return nil, err
	}
	configure(lp, opt)

	// Stop reasons: the context (cancel or deadline) and Options.TimeLimit. lp_solve's own
	// set_timeout has whole-second resolution, so it is only a backstop.
	stopCtx := context.AfterFunc(ctx, func() {
		if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			cb.stopWith(stoppedDeadline)
		} else {
			cb.stopWith(stoppedCancel)
		}
	})
	defer stopCtx()
	if opt.TimeLimit > 0 {
		timer := time.AfterFunc(opt.TimeLimit, func() { cb.stopWith(stoppedDeadline) })
		defer timer.Stop()
		C.set_timeout(lp, C.long(math.Ceil(opt.TimeLimit.Seconds())+1))
	}

	ret := int(C.solve(lp))
	status, err := mapStatus(ret, cb.reason())
	if err != nil {
		return nil, fmt.Errorf("lpsolve: %w", err)
	}
	sol.Status = status
	if rays > 0 && (status == solvers.Optimal || status == solvers.Unbounded) {
		// The rest of the problem has a point, and an empty column improves the
		// objective without limit: unbounded (see load).
		sol.Status = solvers.Unbounded
		sol.WallTime = time.Since(start)
		return sol, nil
	}
	readSolution(lp, p, ret, sol)
	sol.WallTime = time.Since(start)
	return sol, nil
}

// statusForContext is the status of a solve that did not start because ctx was done.
func statusForContext(ctx context.Context) solvers.Status {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return solvers.TimeLimit
	}
	return solvers.Other
}

// load builds the model in lp: the columns with their objective coefficients (row 0),
// bounds and integrality, then the rows' types and right-hand sides.
//
// Empty columns (no entry in A) whose cost improves without limit in a direction their
// bounds leave open are held at a finite value instead, and counted in rays: lp_solve
// 5.5.2.5 answers OPTIMAL with the column at 1e30 and objective ∓1e30 for them. Such a
// problem is unbounded exactly when the rest of it is feasible.
func load(lp *C.lprec, p *model.Problem) (rays int, err error) {
	inf := float64(C.get_infinite(lp))
	clamp := func(v float64) float64 {
		switch {
		case v >= inf:
			return inf
		case v <= -inf:
			return -inf
		}
		return v
	}
	n, m := p.NumCols(), p.NumRows()
	if C.resize_lp(lp, C.int(m), C.int(n)) == 0 {
		return 0, errors.New("lpsolve: resize_lp failed")
	}
	C.coraopt_set_sense(lp, boolInt(p.Sense == model.Maximize))

	// Columns: objective coefficient in row 0, then the column's nonzeros (rows 1..m).
	vals := make([]float64, 0, 16)
	rows := make([]C.int, 0, 16)
	for j := range n {
		vals, rows = vals[:0], rows[:0]
		if c := p.ColCost[j]; c != 0 {
			vals = append(vals, c)
			rows = append(rows, 0)
		}
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			vals = append(vals, p.AValue[k])
			rows = append(rows, C.int(p.AIndex[k]+1))
		}
		if C.add_columnex(lp, C.int(len(vals)), dptr(vals), iptr(rows)) == 0 {
			return 0, fmt.Errorf("lpsolve: add_columnex failed for column %d", j)
		}
		col := C.int(j + 1)
		lo, hi := clamp(p.ColLower[j]), clamp(p.ColUpper[j])
		if p.AStart[j] == p.AStart[j+1] {
			if v, ray := emptyColumnRay(float64(p.Sense)*p.ColCost[j], lo, hi, inf); ray {
				rays++
				if p.Integrality != nil && p.Integrality[j] {
					v = math.Ceil(v)
				}
				lo, hi = v, v
			}
		}
		var ok C.uchar
		if lo == -inf && hi == inf {
			ok = C.set_unbounded(lp, col)
		} else {
			ok = C.set_bounds(lp, col, C.double(lo), C.double(hi))
		}
		if ok == 0 {
			return 0, fmt.Errorf("lpsolve: bounds [%g, %g] rejected for column %d", lo, hi, j)
		}
		if p.Integrality != nil && p.Integrality[j] {
			if C.set_int(lp, col, 1) == 0 {
				return 0, fmt.Errorf("lpsolve: set_int failed for column %d", j)
			}
		}
	}

	for i := range m {
		row := C.int(i + 1)
		lo, hi := clamp(p.RowLower[i]), clamp(p.RowUpper[i])
		var typ C.int
		var rh float64
		switch {
		case lo == hi:
			typ, rh = rowEQ, lo
		case lo == -inf: // includes the free row: LE with an infinite right-hand side
			typ, rh = rowLE, hi
		case hi == inf:
			typ, rh = rowGE, lo
		default:
			typ, rh = rowLE, hi
		}
		if C.set_constr_type(lp, row, typ) == 0 || C.set_rh(lp, row, C.double(rh)) == 0 {
			return 0, fmt.Errorf("lpsolve: cannot set row %d", i)
		}
		if typ == rowLE && lo != -inf {
			if C.set_rh_range(lp, row, C.double(hi-lo)) == 0 {
				return 0, fmt.Errorf("lpsolve: set_rh_range failed for row %d", i)
			}
		}
	}
	return rays, nil
}

// emptyColumnRay decides an empty column with minimization cost c (the cost times the
// sense) and bounds [lo, hi] (±inf when open): ray reports that the objective decreases
// without limit along the column, and v is the finite value to hold it at meanwhile.
func emptyColumnRay(c, lo, hi, inf float64) (v float64, ray bool) {
	switch {
	case c < 0 && hi == inf:
		ray = true
	case c > 0 && lo == -inf:
		ray = true
	default:
		return 0, false
	}
	switch {
	case lo != -inf:
		return lo, true
	case hi != inf:
		return hi, true
	}
	return 0, true
}

func configure(lp *C.lprec, opt solvers.Options) {
	if opt.PrimalTol > 0 {
		C.set_epsb(lp, C.double(opt.PrimalTol))
	}
	if opt.DualTol > 0 {
		C.set_epsd(lp, C.double(opt.DualTol))
	}
	if opt.MIPGap > 0 {
		C.set_mip_gap(lp, 0, C.double(opt.MIPGap)) // 0: relative gap
	}
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

func dptr(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&v[0]))
}

func iptr(v []C.int) *C.int {
	if len(v) == 0 {
		return nil
	}
	return &v[0]
}

// readSolution copies lp_solve's results into sol. ret is solve()'s return code.
func readSolution(lp *C.lprec, p *model.Problem, ret int, sol *solvers.Solution) {
	n, m := p.NumCols(), p.NumRows()
	sol.Iterations = int(C.get_total_iter(lp))
	if p.HasInteger() {
		sol.Nodes = int(C.get_total_nodes(lp))
	}
	// A primal point exists at an optimum and when a MIP stopped with an incumbent.
	if ret != retOptimal && ret != retSubOptimal {
		return
	}
	x := make([]float64, n)
	r := make([]float64, m)
	if n > 0 && C.get_variables(lp, dptr(x)) == 0 {
		return
	}
	if m > 0 && C.get_constraints(lp, dptr(r)) == 0 {
		return
	}
	sol.X, sol.RowActivity = x, r
	sol.Objective = float64(C.get_objective(lp)) + p.Offset
	switch {
	case sol.Status == solvers.Optimal:
		sol.BestBound = sol.Objective
	case p.Sense == model.Maximize:
		sol.BestBound = math.Inf(1) // lp_solve does not report its branch-and-bound bound
	default:
		sol.BestBound = math.Inf(-1)
	}
	if p.HasInteger() || sol.Status != solvers.Optimal {
		return
	}
	// The re-solve starts from the optimal basis and makes no iterations (lp_solve keeps
	// the final basis of a solve as the starting basis of the next).
	if int(C.coraopt_resolve_for_duals(lp)) != retOptimal {
		return
	}
	var duals, from, till *C.double
	if C.get_ptr_sensitivity_rhs(lp, &duals, &from, &till) == 0 || duals == nil {
		return
	}
	// Row duals from lp_solve; reduced costs by their definition d = c − Aᵀy, because
	// lp_solve's own are wrong for empty columns (always 0) and for columns with only an
	// upper bound (which it stores negated): see the package doc.
	all := unsafe.Slice((*float64)(unsafe.Pointer(duals)), m)
	sol.RowDual = make([]float64, m)
	copy(sol.RowDual, all)
	sol.ReducedCost = reducedCosts(p, sol.RowDual)
}

// reducedCosts returns c − Aᵀy.
func reducedCosts(p *model.Problem, y []float64) []float64 {
	d := make([]float64, p.NumCols())
	for j := range d {
		dj := p.ColCost[j]
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			dj -= p.AValue[k] * y[p.AIndex[k]]
		}
		d[j] = dj
	}
	return d
}
