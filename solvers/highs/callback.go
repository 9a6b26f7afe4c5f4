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
	"strings"
	"sync/atomic"
)

// HiGHS's log types for warnings and errors (HighsLogType::kWarning, kError).
const (
	logWarning = 4
	logError   = 5
)

// maxProblems bounds how many warning and error lines a solve keeps.
const maxProblems = 8

// callbackState is what a running solve shares with its HiGHS callbacks, reached from C
// through a cgo.Handle.
type callbackState struct {
	stop    atomic.Bool // set when the context is done
	verbose io.Writer   // HiGHS's log lines go here when not nil

	interruptAfter int64 // test hook: stop on this interrupt callback (0: never)
	calls          int64

	problems []string // HiGHS's warning and error lines, for error messages
}

// problemText is HiGHS's warnings and errors of this solve, or a note that there were none.
func (c *callbackState) problemText() string {
	if len(c.problems) == 0 {
		return "HiGHS logged no error (Options.Verbose shows its full log)"
	}
	return strings.Join(c.problems, "; ")
}

func (c *callbackState) interrupt() { c.stop.Store(true) }

// coraoptHighsCallback is called by HiGHS (through coraopt_highs_callback) for the
// callbacks a solve started. It returns 1 to ask HiGHS to stop. It must never let a panic
// unwind into C: a bad handle or a panicking writer is recovered and answered with "stop".
//
//export coraoptHighsCallback
func coraoptHighsCallback(handle C.uintptr_t, typ, logType C.int, message *C.char) (stop C.int) {
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
		if message == nil {
			return 0
		}
		msg := C.GoString(message)
		if (logType == logWarning || logType == logError) && len(st.problems) < maxProblems {
			st.problems = append(st.problems, strings.TrimSpace(msg))
		}
		if st.verbose != nil {
			_, _ = io.WriteString(st.verbose, msg)
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
