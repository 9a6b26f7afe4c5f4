package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/policies/all"
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

var update = flag.Bool("update", false, "rewrite the seed corpus of FuzzJoin in testdata/fuzz/FuzzJoin")

// fuzzSweepDoc is the grid FuzzJoin checks parts against: generators only, so its
// fingerprint — which the seed corpus in testdata/fuzz/FuzzJoin carries — does not
// depend on a directory. Cells: 2 workloads × 2 policies (one with a parameter) × 2 seeds.
const fuzzSweepDoc = `{"workloads": [{"family": "cora", "jobs": 3, "seed": 1}, {"family": "rush", "jobs": 2, "seed": 2}],
 "policies": ["fifo", {"name": "rush", "delta": 0.7}], "seeds": [5, 6], "metrics": ["makespan"]}`

func fuzzSweep(t testing.TB) *Sweep {
	t.Helper()
	f, err := Parse([]byte(fuzzSweepDoc))
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Resolve(".")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fuzzCorpus is the seed corpus of FuzzJoin: a whole part and one shard of fuzzSweep,
// true to their cells, and parts with one record edited in each field CheckRecord
// checks (name → part bytes).
func fuzzCorpus(t testing.TB) map[string][]byte {
	t.Helper()
	s := fuzzSweep(t)
	var lines [][]byte
	for i := range s.NumCells() {
		rec, err := s.RunCell(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		rec.Timing = nil
		l, _ := MarshalLine(rec)
		lines = append(lines, l)
	}
	edit := func(k int, f func(*Record)) []byte {
		out := slices.Clone(lines)
		var r Record
		json.Unmarshal(lines[k], &r)
		f(&r)
		out[k], _ = MarshalLine(&r)
		return bytes.Join(out, nil)
	}
	return map[string][]byte{
		"whole":            bytes.Join(lines, nil),
		"shard-1-of-2":     bytes.Join([][]byte{lines[1], lines[3], lines[5], lines[7]}, nil),
		"phantom-workload": edit(2, func(r *Record) { r.Workload = "cora:jobs=4:seed=1" }),
		"other-policy":     edit(1, func(r *Record) { r.Policy = "fifo" }),
		"params-dropped":   edit(3, func(r *Record) { r.Params = nil }),
		"params-changed":   edit(3, func(r *Record) { r.Params = all.Params{"delta": 0.8} }),
		"seed":             edit(4, func(r *Record) { r.Seed = 7 }),
		"cell-moved":       edit(5, func(r *Record) { r.Cell = 6 }),
		"grid":             edit(0, func(r *Record) { r.Cells = 16 }),
		"other-sweep":      edit(7, func(r *Record) { r.Sweep = "0123456789abcdef" }),
		"bad-then-other":   edit(7, func(r *Record) { r.Sweep = "0123456789abcdef"; r.Seed = 1 }),
	}
}

// trueToCell is the documented cell order, i = (w·P + p)·S + s, written out again.
func trueToCell(s *Sweep, r *Record) bool {
	W, P, S := len(s.Workloads), len(s.Policies), len(s.Seeds)
	if r.Sweep != s.Fingerprint || r.Cells != W*P*S || r.Cell < 0 || r.Cell >= W*P*S {
		return false
	}
	w, p, seed := r.Cell/(P*S), r.Cell/S%P, r.Cell%S
	return r.Workload == s.Workloads[w].Label() && r.Policy == s.Policies[p].Name &&
		r.Label() == s.Policies[p].Label() && r.Seed == s.Seeds[seed]
}

// FuzzJoin fuzzes the record lines of a part merged against fuzzSweep: a part with a
// record that contradicts its cell is refused naming that record's line (the first of
// another sweep when there is one, else the first contradicting one); a part true to
// its cells joins or lacks cells; what joins is in cell order and true to its cells.
// Seeds: testdata/fuzz/FuzzJoin, fuzzCorpus as -update writes it.
func FuzzJoin(f *testing.F) {
	s := fuzzSweep(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		part, err := ReadPart(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		recs, err := s.Join([]Source{{Name: "fuzz", Part: part}})
		first := -1
		for j, r := range part.Records {
			if r.Sweep != s.Fingerprint {
				first = j
				break
			}
			if first < 0 && !trueToCell(s, r) {
				first = j
			}
		}
		var ie *IncompleteError
		if first >= 0 {
			if at := fmt.Sprintf("fuzz:%d: ", part.Line[first]); err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), at) {
				t.Fatalf("line %d contradicts its cell: got %v", part.Line[first], err)
			}
			return
		}
		if err != nil {
			if !errors.As(err, &ie) {
				t.Fatalf("records true to their cells refused: %v", err)
			}
			return
		}
		for i, r := range recs {
			if r.Cell != i || !trueToCell(s, r) {
				t.Fatalf("joined record %d: %+v", i, r)
			}
		}
	})
}

// The seed corpus in testdata/fuzz/FuzzJoin is fuzzCorpus as -update wrote it. Its
// records carry fuzzSweep's fingerprint: a change to the generators or to what the
// fingerprint covers would leave every entry refused at the first line, so the test
// checks that the entries true to their cells still are (rerun with -update if not).
func TestFuzzJoinCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzJoin")
	corpus := fuzzCorpus(t)
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range corpus {
			if err := os.WriteFile(filepath.Join(dir, name), fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	s := fuzzSweep(t)
	for name := range corpus {
		stored, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%v (run go test ./sweep -run TestFuzzJoinCorpus -update)", err)
		}
		body, ok := bytes.CutPrefix(stored, []byte("go test fuzz v1\n[]byte("))
		var data string
		if ok {
			data, err = strconv.Unquote(string(bytes.TrimSuffix(bytes.TrimSpace(body), []byte(")"))))
		}
		if !ok || err != nil {
			t.Fatalf("%s is not a corpus entry of one []byte: %v", name, err)
		}
		if name != "whole" && name != "shard-1-of-2" {
			continue
		}
		part, err := ReadPart(strings.NewReader(data), name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range part.Records {
			if !trueToCell(s, r) {
				t.Fatalf("%s: cell %d is not true to fuzzSweep (sweep %s, now %s): run go test ./sweep -run TestFuzzJoinCorpus -update", name, r.Cell, r.Sweep, s.Fingerprint)
			}
		}
	}
}
