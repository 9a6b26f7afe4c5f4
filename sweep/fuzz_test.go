package sweep

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// FuzzParse: any bytes either parse to a grid of at least one cell or fail with a
// *sched.ValidationError; nothing panics. Seeds: testdata/files and testdata/fuzz.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "files", "*.json"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			var ve *sched.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("error %v is not a ValidationError with problems", err)
			}
			return
		}
		if len(file.Workloads) == 0 || len(file.Policies) == 0 || len(file.Seeds) == 0 || !(file.Slot > 0) {
			t.Fatalf("accepted an empty grid: %+v", file)
		}
		if n := len(file.Workloads) * len(file.Policies) * len(file.Seeds); n > MaxCells {
			t.Fatalf("accepted %d cells", n)
		}
	})
}

// FuzzReadPart: any bytes either read as records within their grid, or fail; the
// valid prefix never passes the input's end, and re-reading it gives the same records.
func FuzzReadPart(f *testing.F) {
	f.Add([]byte(`{"sweep":"ab","cell":1,"cells":4,"workload":"w","policy":"fifo","seed":3,"metrics":{"min_utility":1}}` + "\n"))
	f.Add([]byte(`{"sweep":"ab","cell":1,"cells":4,"workload":"w","policy":"fifo","seed":3}` + "\n{\"sweep\":\"ab\",\"ce"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPart(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		if p.Valid > int64(len(data)) || len(p.Records) != len(p.Line) {
			t.Fatalf("valid %d of %d bytes, %d records, %d lines", p.Valid, len(data), len(p.Records), len(p.Line))
		}
		for _, r := range p.Records {
			if r.Cell < 0 || r.Cell >= r.Cells || r.Sweep == "" {
				t.Fatalf("record out of its grid: %+v", r)
			}
		}
		q, err := ReadPart(bytes.NewReader(data[:p.Valid]), "prefix")
		if err != nil || q.Torn || len(q.Records) != len(p.Records) || q.Valid != p.Valid {
			t.Fatalf("the valid prefix reads differently: %v %+v", err, q)
		}
	})
}
