//go:build lpsolve

package lpsolve

// The Go functions lp_solve calls back into. A file with //export may only declare C in
// its preamble; the C side lives in lpsolve.go.

/*
#include <stdint.h>
#include <lpsolve/lp_lib.h>
*/
import "C"

import (
	"io"
	"runtime/cgo"
	"sync/atomic"
)

// callbackState is what a running solve shares with lp_solve's callbacks, reached from C
// through a cgo.Handle.
type callbackState struct {
	why       atomic.Int32 // a stopReason; the first reason set wins
	verbose   io.Writer
	iterLimit int64 // 0: none

	abortAfter int64 // test hook: stop on this call (0: never)
	calls      int64
}

func (c *callbackState) stopWith(r stopReason) { c.why.CompareAndSwap(int32(notStopped), int32(r)) }

func (c *callbackState) reason() stopReason { return stopReason(c.why.Load()) }

// coraoptLpsolveAbort is lp_solve's abort function: nonzero stops the solve. A panic (a
// bad handle) is recovered and answered with "stop"; it never unwinds into C.
//
//export coraoptLpsolveAbort
func coraoptLpsolveAbort(handle C.uintptr_t, lp *C.lprec) (stop C.int) {
	defer func() {
		if recover() != nil {
			stop = 1
		}
	}()
	st, ok := cgo.Handle(handle).Value().(*callbackState)
	if !ok {
		return 1
	}
	st.calls++
	if st.abortAfter > 0 && st.calls >= st.abortAfter {
		st.stopWith(stoppedCancel)
	}
	if st.iterLimit > 0 && int64(C.get_total_iter(lp)) >= st.iterLimit {
		st.stopWith(stoppedIteration)
	}
	if st.reason() != notStopped {
		return 1
	}
	return 0
}

// coraoptLpsolveLog receives lp_solve's log lines when Options.Verbose is set.
//
//export coraoptLpsolveLog
func coraoptLpsolveLog(handle C.uintptr_t, buf *C.char) {
	defer func() { _ = recover() }()
	st, ok := cgo.Handle(handle).Value().(*callbackState)
	if !ok || st.verbose == nil || buf == nil {
		return
	}
	_, _ = io.WriteString(st.verbose, C.GoString(buf))
}
