package lpformat

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model/mps"
)

// BenchmarkRead reads HiGHS's largest LP test model, 2122.lp (SetBytes: MB/s).
func BenchmarkRead(b *testing.B) {
	data, err := os.ReadFile(testmodels.Path(b, "2122.lp"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite writes greenbea (read from MPS) as LP (SetBytes: MB/s produced).
func BenchmarkWrite(b *testing.B) {
	p, err := mps.ReadFile(testmodels.Path(b, "greenbea.mps"), mps.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if err := Write(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
}
