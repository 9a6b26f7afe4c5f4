package sweep

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxRecordBytes bounds one line of a part file (a record keeping "jobs" of a large
// workload is the longest).
const MaxRecordBytes = 256 << 20

// Part is what a part file holds.
type Part struct {
	Records []*Record
	// Line is each record's 1-based line number, for messages.
	Line []int
	// Valid is the length of the prefix of complete, well-formed lines; Torn is true
	// when the file ends in a line without its newline (a run killed mid-write), which
	// is not in Records.
	Valid int64
	Torn  bool
}

// ReadPart reads the JSON Lines of a part file. Only the last line may be torn (no
// newline at the end); a malformed complete line is an error naming name:line.
func ReadPart(r io.Reader, name string) (*Part, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	p := &Part{}
	line := 0
	for {
		data, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it whole.
			buf := bytes.Clone(data)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(buf) > MaxRecordBytes {
					return nil, fmt.Errorf("%s:%d: a line longer than %d bytes", name, line+1, MaxRecordBytes)
				}
				data, err = br.ReadSlice('\n')
				buf = append(buf, data...)
			}
			data = buf
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(data) == 0 {
			return p, nil
		}
		line++
		if data[len(data)-1] != '\n' {
			p.Torn = true
			return p, nil
		}
		if len(bytes.TrimSpace(data)) > 0 {
			rec := &Record{}
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(rec); err != nil {
				return nil, fmt.Errorf("%s:%d: not a sweep record: %v", name, line, err)
			}
			if rec.Sweep == "" || rec.Cells <= 0 || rec.Cell < 0 || rec.Cell >= rec.Cells {
				return nil, fmt.Errorf("%s:%d: not a sweep record: cell %d of %d, sweep %q", name, line, rec.Cell, rec.Cells, rec.Sweep)
			}
			p.Records = append(p.Records, rec)
			p.Line = append(p.Line, line)
		}
		p.Valid += int64(len(data))
		if errors.Is(err, io.EOF) {
			return p, nil
		}
	}
}

// PartFile is a part file opened by OpenPart for one run to append to. It holds the
// file's exclusive lock until Close.
type PartFile struct {
	f      *os.File
	path   string
	holder bool // this run wrote the holder file
	// Unlocked is ErrNoLocking (wrapped) when the file system could not lock the part:
	// the run may go on, but nothing stops a second one, and the caller should say so.
	Unlocked error
}

// Write appends p, which must be whole lines (MarshalLine's), in one write on a file
// opened with O_APPEND: a line is never split by another writer's, and a run killed
// mid-write leaves at most a torn last line, which the next OpenPart cuts.
func (p *PartFile) Write(b []byte) (int, error) { return p.f.Write(b) }

// Close removes the holder file and closes the part, which releases the lock.
func (p *PartFile) Close() error {
	if p.holder {
		os.Remove(p.path + holderSuffix) // before the lock goes: it names us
	}
	return p.f.Close() // closing the last descriptor releases the flock
}

// errLocked is lockFile's answer when another open file holds the lock.
var errLocked = errors.New("locked")

// OpenPart opens (creating it if absent) the part file of shard k of n for appending,
// locked against any other run (a *LockedError names the holder), and returns the
// cells it already holds. A torn last line is cut off, so the cell it belonged to runs
// again. Records of another sweep or another shard, records that contradict their
// cell (CheckRecord), and cells recorded twice are errors: appending to such a file
// would corrupt a merge.
func (s *Sweep) OpenPart(path string, k, n int) (_ *PartFile, _ map[int]bool, retErr error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("sweep: %w", err)
	}
	pf := &PartFile{f: f, path: path}
	switch err := lockFile(f); {
	case errors.Is(err, errLocked):
		f.Close()
		h, herr := readHolder(path)
		return nil, nil, fmt.Errorf("sweep: %w", &LockedError{Path: path, Holder: h, Err: herr})
	case errors.Is(err, ErrNoLocking):
		pf.Unlocked = fmt.Errorf("%s: %w", path, err)
	case err != nil:
		f.Close()
		return nil, nil, fmt.Errorf("sweep: locking %s: %w", path, err)
	default:
		// The holder file only names us to a refused run, which says when it cannot
		// read one: the lock holds without it (a directory we may not write in).
		pf.holder = writeHolder(path) == nil
	}
	defer func() {
		if retErr != nil {
			pf.Close()
		}
	}()
	p, err := ReadPart(f, path)
	if err != nil {
		return nil, nil, fmt.Errorf("sweep: %w", err)
	}
	done := map[int]bool{}
	for j, rec := range p.Records {
		var re *RecordError
		switch cerr := s.CheckRecord(rec); {
		case errors.As(cerr, &re) && re.OtherSweep:
			err = fmt.Errorf("%s:%d: a record of sweep %s, not of this sweep (%s): use another --out", path, p.Line[j], rec.Sweep, s.Fingerprint)
		case cerr != nil:
			err = fmt.Errorf("%s:%d: %w", path, p.Line[j], cerr)
		case rec.Cell%max(n, 1) != k:
			err = fmt.Errorf("%s:%d: cell %d is not in shard %d/%d", path, p.Line[j], rec.Cell, k, n)
		case done[rec.Cell]:
			err = fmt.Errorf("%s:%d: cell %d recorded twice", path, p.Line[j], rec.Cell)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("sweep: %w", err)
		}
		done[rec.Cell] = true
	}
	if p.Torn {
		if err := f.Truncate(p.Valid); err != nil {
			return nil, nil, fmt.Errorf("sweep: cutting the torn last line of %s: %w", path, err)
		}
	}
	return pf, done, nil
}

// MarshalLine is a record as one line of a part file.
func MarshalLine(rec *Record) ([]byte, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
