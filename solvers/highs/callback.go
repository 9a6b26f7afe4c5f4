//go:build highs

package highs

// This file holds the one Go function HiGHS calls back into. A file with //export may only
// declare C in its preamble; the C side of the callback lives in highs.go.

/*
#include <stdint.h>
*/
import "C"

import (
	"io"
	"runtime/cgo"
	"sync/atomic"
)

// callbackState is what a running solve shares with its HiGHS callbacks, reached from C
// through a cgo.Handle.
type callbackState struct {
	stop    atomic.Bool // set when the context is done
	verbose io.Writer   // HiGHS's log lines go here when not nil

	interruptAfter int64 // test hook: stop on this interrupt callback (0: never)
	calls          int64
}

func (c *callbackState) interrupt() { c.stop.Store(true) }

// coraoptHighsCallback is called by HiGHS (through coraopt_highs_callback) for the
// callbacks a solve started. It returns 1 to ask HiGHS to stop. It must never let a panic
// unwind into C: a bad handle or a panicking writer is recovered and answered with "stop".
//
//export coraoptHighsCallback
func coraoptHighsCallback(handle C.uintptr_t, typ C.int, message *C.char) (stop C.int) {
	defer func() {
		if recover() != nil {
			stop = 1
		}
	}()
	st, ok := cgo.Handle(handle).Value().(*callbackState)
	if !ok {
		return 1
	}
	if int(typ) == callbackLogging {
		if st.verbose != nil && message != nil {
			_, _ = io.WriteString(st.verbose, C.GoString(message))
		}
		return 0
	}
	st.calls++
	if st.interruptAfter > 0 && st.calls >= st.interruptAfter {
		st.interrupt()
	}
	if st.stop.Load() {
		return 1
	}
	return 0
}
