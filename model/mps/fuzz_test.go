package mps

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

// FuzzRead feeds arbitrary bytes to Read in each dialect. Read must not panic; an error
// must be a *ParseError with a line number; a model that reads must be valid and must
// survive Write and Read unchanged. The seed corpus is testdata/fuzz/FuzzRead.
//
//	go test -fuzz=FuzzRead -fuzztime=2m ./model/mps
func FuzzRead(f *testing.F) {
	f.Add([]byte(freeModel))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []Format{Auto, Free, Fixed} {
			p, err := Read(bytes.NewReader(data), Options{Format: format})
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line < 1 {
					t.Fatalf("%v: error without a line number: %v", format, err)
				}
				continue
			}
			if err := p.Validate(); err != nil {
				t.Fatalf("%v: Read returned an invalid Problem: %v", format, err)
			}
			// Names a dialect cannot carry (control characters; spaces in free MPS) are
			// Write errors by design: try free, then fixed.
			out := Free
			if _, err := writeNames(p, false); err != nil {
				if _, err := writeNames(p, true); err != nil {
					continue
				}
				out = Fixed
			}
			var buf bytes.Buffer
			if err := Write(&buf, p, Options{Format: out}); err != nil {
				t.Fatalf("%v: Write of a model Read returned: %v", format, err)
			}
			q, err := Read(bytes.NewReader(buf.Bytes()), Options{Format: out})
			if err != nil {
				t.Fatalf("%v: Read(Write(p)): %v\n%s", format, err, buf.String())
			}
			if d := modeltest.Diff(withWriterNames(t, p, out == Fixed), q); d != "" {
				t.Fatalf("%v: round trip differs (-want +got):\n%s\n%s", format, d, buf.String())
			}
		}
	})
}

// TestFuzzSeeds keeps the seed corpus honest: the seeds named bad-* must fail with a
// line-numbered error and the hand-written others must read.
func TestFuzzSeeds(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzRead", "*"))
	if err != nil || len(files) < 20 {
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
