//go:build linux

package backendtest

import (
	"io"
	"os"
	"syscall"
	"testing"
)

// CaptureStdout runs f with file descriptor 1 redirected to a pipe and returns what was
// written there — by Go or by C code printing with printf.
func CaptureStdout(t testing.TB, f func()) string {
	t.Helper()
	saved, err := syscall.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	if err := syscall.Dup3(int(w.Fd()), 1, 0); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			_ = syscall.Dup3(saved, 1, 0)
			_ = syscall.Close(saved)
			_ = w.Close()
		}()
		f()
	}()
	return <-done
}
