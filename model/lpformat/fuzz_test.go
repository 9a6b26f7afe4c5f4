package lpformat

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model/modeltest"
)

// FuzzRead feeds arbitrary bytes to Read. Read must not panic; an error must be a
// *ParseError with a line number; a model that reads must be valid and must survive
// Write and Read unchanged (with the names NamesFor gives). The seed corpus is
// testdata/fuzz/FuzzRead.
//
//	go test -fuzz=FuzzRead -fuzztime=2m ./model/lpformat
func FuzzRead(f *testing.F) {
	f.Add([]byte("max\n obj: 2 x + [ x ^ 2 ] / 2 + 1\nst\n c: -1 <= x + y <= 4\nbounds\n y free\ngeneral\n x\nend\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Read(bytes.NewReader(data), Options{})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Read returned an invalid Problem: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, p); err != nil {
			if p.NumCols() == 0 && p.NumRows() > 0 {
				return // documented: constraints need a variable
			}
			t.Fatalf("Write of a model Read returned: %v", err)
		}
		q, err := Read(bytes.NewReader(buf.Bytes()), Options{})
		if err != nil {
			t.Fatalf("Read(Write(p)): %v\n%s", err, buf.String())
		}
		if d := modeltest.Diff(withNames(p), q); d != "" {
			t.Fatalf("round trip differs (-want +got):\n%s\n%s", d, buf.String())
		}
	})
}

// TestFuzzSeeds keeps the seed corpus honest: the seeds named bad-* must fail with a
// line-numbered error and the hand-written others must read.
func TestFuzzSeeds(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzRead", "*"))
	if err != nil || len(files) < 15 {
		t.Fatalf("%d seeds (%v)", len(files), err)
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		header, body, _ := strings.Cut(string(b), "\n")
		body = strings.TrimSuffix(strings.TrimSpace(body), ")")
		data, err := strconv.Unquote(strings.TrimPrefix(body, "[]byte("))
		if header != "go test fuzz v1" || err != nil {
			t.Fatalf("%s: not a fuzz corpus file (%v)", path, err)
		}
		name := filepath.Base(path)
		_, err = Read(strings.NewReader(data), Options{})
		var pe *ParseError
		switch {
		case strings.HasPrefix(name, "bad-") && (err == nil || !errors.As(err, &pe)):
			t.Errorf("%s: error %v, want a *ParseError", name, err)
		case !strings.HasPrefix(name, "bad-") && !strings.HasPrefix(name, "found-") && err != nil:
			t.Errorf("%s: %v", name, err)
		}
	}
}
