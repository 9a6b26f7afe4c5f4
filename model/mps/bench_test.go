package mps

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
)

// BenchmarkRead reads the largest Netlib models of the test set (SetBytes: MB/s).
func BenchmarkRead(b *testing.B) {
	for _, name := range []string{"afiro.mps", "25fv47.mps", "80bau3b.mps", "greenbea.mps"} {
		data, err := os.ReadFile(testmodels.Path(b, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Read(bytes.NewReader(data), Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWrite writes greenbea (SetBytes: MB/s of MPS text produced).
func BenchmarkWrite(b *testing.B) {
	p, err := ReadFile(testmodels.Path(b, "greenbea.mps"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, p, Options{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if err := Write(io.Discard, p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
