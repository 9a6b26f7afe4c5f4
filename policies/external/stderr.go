package external

import (
	"bytes"
	"io"
	"sync"
)

// prefixWriter passes a program's standard error on line by line, each line prefixed
// and written with one Write, so the lines of programs running at once do not mix.
type prefixWriter struct {
	to     io.Writer
	prefix string
	mu     sync.Mutex
	buf    []byte
}

// maxLine bounds a line kept back waiting for its newline; a longer one is passed on
// in pieces.
const maxLine = 64 << 10

func (w *prefixWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			if len(w.buf) < maxLine {
				break
			}
			i = len(w.buf) - 1
		}
		w.emit(w.buf[:i+1])
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) == 0 {
		w.buf = nil
	}
	return len(p), nil
}

// emit writes one line with the prefix; a failing destination is ignored (the
// program's diagnostics are not worth ending the run for).
func (w *prefixWriter) emit(line []byte) {
	out := make([]byte, 0, len(w.prefix)+len(line)+1)
	out = append(out, w.prefix...)
	out = append(out, line...)
	if out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	_, _ = w.to.Write(out)
}

// flush writes a last line that had no newline.
func (w *prefixWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.emit(w.buf)
		w.buf = nil
	}
}

// SyncWriter makes a writer safe for the sessions of parallel runs to share as
// Options.Stderr.
type SyncWriter struct {
	mu sync.Mutex
	W  io.Writer
}

func (s *SyncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.W.Write(p)
}
