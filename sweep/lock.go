package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// A part file has one writer at a time. OpenPart takes an exclusive advisory lock
// (flock) on the part file itself, held until PartFile.Close or the process's end (the
// kernel drops it then, even after SIGKILL, so a killed run leaves no stale lock), and
// records who holds it in a holder file beside it (the part's name plus ".lock"), which
// a refused run reads to name the holder. The holder file is informative only: the
// lock is the flock, so a holder file left by a killed run is simply overwritten.

// holderSuffix names the holder file: part.jsonl → part.jsonl.lock.
const holderSuffix = ".lock"

// Holder is who holds a part file's lock, as its holder file records it.
type Holder struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host"`
	Since time.Time `json:"since"`
}

func (h Holder) String() string {
	s := "PID " + strconv.Itoa(h.PID)
	if h.Host != "" {
		s += " on " + h.Host
	}
	if !h.Since.IsZero() {
		s += ", since " + h.Since.Format(time.RFC3339)
	}
	return s
}

// LockedError is a part file another run is writing: two runs appending to one part
// would interleave their lines and lose cells.
type LockedError struct {
	Path string
	// Holder is nil when the holder file could not be read (the holder has only just
	// taken the lock, or the file was removed by hand); Err says why.
	Holder *Holder
	Err    error
}

func (e *LockedError) Error() string {
	who := "another run"
	if e.Holder != nil {
		who = "another run (" + e.Holder.String() + ")"
	} else if e.Err != nil {
		who = fmt.Sprintf("another run (its PID is unknown: %v)", e.Err)
	}
	return fmt.Sprintf("%s is being written by %s: two runs on one part would corrupt it; wait for that run to end or stop it, or use another --out", e.Path, who)
}

// ErrNoLocking reports a part file opened without a lock because the file system does
// not support flock (some NFS and Lustre mounts): nothing then stops a second run.
var ErrNoLocking = errors.New("the file system does not support locking")

// writeHolder records this process as the holder of path's lock, replacing the holder
// file by a rename so that a reader sees a whole record or none.
func writeHolder(path string) error {
	host, _ := os.Hostname()
	data, err := json.Marshal(Holder{PID: os.Getpid(), Host: host, Since: time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s%s.%d.tmp", path, holderSuffix, os.Getpid())
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path+holderSuffix); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// readHolder reads path's holder file.
func readHolder(path string) (*Holder, error) {
	data, err := os.ReadFile(path + holderSuffix)
	if err != nil {
		return nil, err
	}
	var h Holder
	if err := json.Unmarshal(data, &h); err != nil || h.PID <= 0 {
		return nil, fmt.Errorf("%s does not name a process", path+holderSuffix)
	}
	return &h, nil
}
