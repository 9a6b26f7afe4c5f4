package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// Sweep is a sweep file with its workloads loaded: the grid, ready to run.
type Sweep struct {
	File
	// Workload holds the loaded workloads, in File.Workloads order.
	Workload []*workload.Workload
	// Fingerprint identifies the grid and everything its records depend on (the
	// workloads' contents, policies and parameters, seeds, bound, slot, metrics, check);
	// every record carries it.
	Fingerprint string
	// Dir is the sweep file's directory, where external policies' programs run.
	Dir string
	// Stderr receives external policies' standard error, prefixed per line; it must
	// be safe for concurrent use (external.SyncWriter). Nil discards it.
	Stderr io.Writer
}

// Load parses the sweep file at path and loads its workloads (files relative to the
// sweep file's directory, generators run). Bad input yields a *sched.ValidationError
// naming the JSON path (a workload file's own problems under workloads[i]): every
// problem at once, the file's and its workloads'.
func Load(path string) (*Sweep, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	f, at, ps, err := parse(data)
	if err != nil {
		return nil, err
	}
	s, hashes := f.resolve(filepath.Dir(path), at, &ps)
	if len(ps) > 0 {
		return nil, &sched.ValidationError{Problems: ps}
	}
	s.Fingerprint = fingerprint(f, hashes)
	return s, nil
}

// Resolve loads f's workloads, reading relative paths from dir.
func (f *File) Resolve(dir string) (*Sweep, error) {
	at := make([]int, len(f.Workloads))
	for i := range at {
		at[i] = i
	}
	var ps problems
	s, hashes := f.resolve(dir, at, &ps)
	if len(ps) > 0 {
		return nil, &sched.ValidationError{Problems: ps}
	}
	s.Fingerprint = fingerprint(f, hashes)
	return s, nil
}

// resolve loads f's workloads, f.Workloads[i] being workloads[at[i]] of the document,
// adding their problems to ps; it returns the sweep without its fingerprint and the
// workloads' hashes.
func (f *File) resolve(dir string, at []int, ps *problems) (*Sweep, []string) {
	s := &Sweep{File: *f, Dir: dir}
	hashes := make([]string, len(f.Workloads))
	for i, spec := range f.Workloads {
		path := fmt.Sprintf("workloads[%d]", at[i])
		w, err := spec.load(dir)
		if err != nil {
			var ve *sched.ValidationError
			if errors.As(err, &ve) {
				for _, p := range ve.Problems {
					ps.add(path, "%s: %s", spec.Label(), p.String())
				}
			} else {
				ps.add(path, "%v", err)
			}
			continue
		}
		var buf bytes.Buffer
		if err := workload.Encode(&buf, w); err != nil {
			ps.add(path, "%v", err)
			continue
		}
		sum := sha256.Sum256(buf.Bytes())
		hashes[i] = hex.EncodeToString(sum[:])
		s.Workload = append(s.Workload, w)
	}
	return s, hashes
}

func (w WorkloadSpec) load(dir string) (*workload.Workload, error) {
	switch w.Family {
	case "":
		p := w.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return workload.DecodeFile(p)
	}
	// The generator coraopt gen runs for the same family and options.
	reg, err := workload.NewRegistry(workload.Families()...)
	if err != nil {
		return nil, err
	}
	fam, ok := reg.Family(w.Family)
	if !ok || fam.Generate == nil {
		return nil, fmt.Errorf("unknown family %q", w.Family)
	}
	args := workload.DefaultArgs()
	args.Jobs, args.Seed, args.BudgetRatio = w.Jobs, w.Seed, w.BudgetRatio
	return fam.Generate(args)
}

// fingerprint hashes what the records depend on. The sweep's name and the workloads'
// paths are left out of the results but not of the labels records carry, so they are in.
func fingerprint(f *File, workloadHashes []string) string {
	type pol struct {
		Name   string         `json:"name"`
		Params map[string]any `json:"params,omitempty"`
		Exec   string         `json:"exec,omitempty"`
	}
	type wl struct {
		Label  string `json:"label"`
		SHA256 string `json:"sha256"`
	}
	doc := struct {
		Version   int      `json:"version"`
		Workloads []wl     `json:"workloads"`
		Policies  []pol    `json:"policies"`
		Seeds     []uint64 `json:"seeds"`
		Bound     bool     `json:"bound"`
		Slot      float64  `json:"slot"`
		Metrics   []string `json:"metrics"`
		Check     bool     `json:"check"`
	}{Version: 1, Seeds: f.Seeds, Bound: f.Bound, Slot: f.Slot, Metrics: f.Metrics, Check: f.Check}
	for i, w := range f.Workloads {
		doc.Workloads = append(doc.Workloads, wl{w.Label(), workloadHashes[i]})
	}
	for _, p := range f.Policies {
		doc.Policies = append(doc.Policies, pol{p.Name, p.Params, p.Exec})
	}
	data, err := json.Marshal(doc)
	if err != nil {
		panic(fmt.Sprintf("sweep: fingerprint: %v", err)) // plain values only: cannot fail
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// Cell is one point of the grid.
type Cell struct {
	Index                    int
	Workload, Policy, SeedAt int // indices into the sweep file's lists
}

// NumCells is the grid's size: workloads × policies × seeds.
func (s *Sweep) NumCells() int { return len(s.Workloads) * len(s.Policies) * len(s.Seeds) }

// Cell returns cell i in the documented order: i = (w·P + p)·S + s.
func (s *Sweep) Cell(i int) Cell {
	S, P := len(s.Seeds), len(s.Policies)
	return Cell{Index: i, SeedAt: i % S, Policy: (i / S) % P, Workload: i / (S * P)}
}

// ShardCells lists the cells of shard k of n (i mod n = k), ascending.
func (s *Sweep) ShardCells(k, n int) []int {
	var out []int
	for i := k; i < s.NumCells(); i += n {
		out = append(out, i)
	}
	return out
}
