package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/coraopt/coraopt/internal/workpool"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// Record is one cell's line in a part file (JSON Lines). Everything but Timing is a
// function of the sweep's fingerprint and the cell index.
type Record struct {
	Sweep    string     `json:"sweep"` // the sweep's fingerprint
	Cell     int        `json:"cell"`
	Cells    int        `json:"cells"` // the grid's size
	Workload string     `json:"workload"`
	Policy   string     `json:"policy"`
	Params   all.Params `json:"params,omitempty"`
	Seed     uint64     `json:"seed"`
	// Metrics are the kept sim.Metrics keys (the sweep file's "metrics") with the bytes
	// `coraopt simulate -o json` prints for them.
	Metrics map[string]json.RawMessage `json:"metrics,omitempty"`
	Bound   *BoundSummary              `json:"bound,omitempty"`
	// Error is why the cell has no metrics: a run that cannot finish, a broken
	// invariant, a bound too large. Such a cell is done (rerunning it fails the same way)
	// and Merge reports it.
	Error  string  `json:"error,omitempty"`
	Timing *Timing `json:"timing,omitempty"`
}

// BoundSummary is the cell's offline bound (the full vector is in the run's vs_bound
// comparison, not repeated here).
type BoundSummary struct {
	// MinUtility and SumUtility are the lexmax bound's minimum and the sum of its
	// vector; SumBound bounds a run's sum (sim.BoundResult).
	MinUtility  float64 `json:"min_utility"`
	SumUtility  float64 `json:"sum_utility"`
	SumBound    float64 `json:"sum_bound"`
	Slots       int     `json:"slots"`
	SlotSeconds float64 `json:"slot_seconds"`
	Exact       bool    `json:"exact"`
}

// Timing holds a cell's wall-clock figures: the run's, the bound's and the policy's
// decision times.
type Timing struct {
	WallSeconds        float64 `json:"wall_seconds"`
	BoundSeconds       float64 `json:"bound_seconds,omitempty"`
	DecisionMeanMicros float64 `json:"decision_mean_us"`
	DecisionP99Micros  float64 `json:"decision_p99_us"`
	DecisionMaxMicros  float64 `json:"decision_max_us"`
}

// Label is the record's policy label (PolicySpec.Label).
func (r *Record) Label() string { return PolicySpec{Name: r.Policy, Params: r.Params}.Label() }

// RunCell runs cell i: the policy on the workload under the seed (sim.Measure), then the
// bound when the sweep asks for it. A failure of the run is recorded in Record.Error; an
// error is returned only when ctx ends, and then the record must not be kept.
func (s *Sweep) RunCell(ctx context.Context, i int) (*Record, error) {
	c := s.Cell(i)
	ws, ps, seed := s.Workloads[c.Workload], s.Policies[c.Policy], s.Seeds[c.SeedAt]
	rec := &Record{Sweep: s.Fingerprint, Cell: i, Cells: s.NumCells(), Workload: ws.Label(), Policy: ps.Name, Params: ps.Params, Seed: seed}
	w := s.Workload[c.Workload]
	started := time.Now()
	m, err := s.measure(ctx, ps, w, seed)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		rec.Error = err.Error()
		return rec, nil
	}
	rec.Timing = &Timing{WallSeconds: time.Since(started).Seconds()}
	if m.Timing != nil {
		rec.Timing.DecisionMeanMicros, rec.Timing.DecisionP99Micros, rec.Timing.DecisionMaxMicros =
			m.Timing.DecisionMeanMicros, m.Timing.DecisionP99Micros, m.Timing.DecisionMaxMicros
	}
	if s.Bound {
		bs := time.Now()
		b, err := sim.Bound(ctx, w, seed, s.Slot, m.Makespan)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			rec.Error = "bound: " + err.Error()
			return rec, nil
		}
		rec.Timing.BoundSeconds = time.Since(bs).Seconds()
		m.CompareToBound(b, 1e-12)
		rec.Bound = &BoundSummary{MinUtility: b.MinUtility, SumUtility: b.SumUtility, SumBound: b.SumBound, Slots: b.Slots, SlotSeconds: b.SlotSeconds, Exact: b.Exact}
	}
	rec.Metrics, err = keep(m, s.Metrics)
	if err != nil {
		return nil, fmt.Errorf("sweep: cell %d: %w", i, err)
	}
	return rec, nil
}

// measure runs ps on w under seed: a registered policy, or an external one's program
// started for this run in the sweep file's directory (policies/external).
func (s *Sweep) measure(ctx context.Context, ps PolicySpec, w *workload.Workload, seed uint64) (*sim.Metrics, error) {
	var m *sim.Metrics
	err := ps.With(ctx, w, s.Dir, s.Stderr, func(pol policies.Policy) error {
		var err error
		m, err = sim.Measure(ctx, w, pol, seed, s.Check)
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// With calls run with a fresh policy of p for one run on w: a registered one built with
// its parameters, or an external one's program, started in dir (empty: ours) for the
// run and reaped after it, its standard error going to stderr (nil discards it) with
// each line prefixed by the policy's name.
func (p PolicySpec) With(ctx context.Context, w *workload.Workload, dir string, stderr io.Writer, run func(policies.Policy) error) error {
	if p.Exec == "" {
		pol, err := all.NewWithParams(p.Name, p.Params)
		if err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
		return run(pol)
	}
	argv, err := external.SplitCommand(p.Exec)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	c := external.Command{Name: p.Name, Argv: argv, Dir: dir, Params: map[string]any(p.Params), Timeout: p.Timeout}
	return external.With(ctx, c, w, external.Options{Stderr: stderr}, run)
}

// keep marshals m and keeps the named keys, with the bytes encoding/json gives them.
func keep(m *sim.Metrics, names []string) (map[string]json.RawMessage, error) {
	t := m.Timing
	m.Timing = nil
	data, err := json.Marshal(m)
	m.Timing = t
	if err != nil {
		return nil, err
	}
	var full map[string]json.RawMessage
	if err := json.Unmarshal(data, &full); err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(names))
	for _, k := range names {
		if v, ok := full[k]; ok {
			out[k] = v
		}
	}
	return out, nil
}

// RunOptions select and drive the cells Run runs.
type RunOptions struct {
	// Shard K of Shards (i mod Shards = K); Shards 0 means 1.
	Shard, Shards int
	// Workers run cells in parallel (default GOMAXPROCS).
	Workers int
	// Done are the cells already recorded: Run skips them (resuming).
	Done map[int]bool
	// Progress, if set, is called once per finished cell, from one goroutine at a time.
	Progress func()
}

// Pending lists the cells of the shard not in opt.Done, ascending.
func (s *Sweep) Pending(opt RunOptions) []int {
	var out []int
	for _, i := range s.ShardCells(opt.Shard, max(opt.Shards, 1)) {
		if !opt.Done[i] {
			out = append(out, i)
		}
	}
	return out
}

// Run runs the pending cells of the shard on a pool of workers (internal/workpool, the
// pool Replicate runs `coraopt simulate`'s replications on) and hands each record to
// emit in cell order, whatever the number of workers, as soon as every earlier pending
// cell has been emitted. When ctx ends Run stops starting cells, emits the finished prefix, and returns
// ctx's error; a record is never emitted for an interrupted cell. An error from emit
// stops the run and is returned. A panic in a cell stops the run too and comes back as
// a *workpool.PanicError (a bug: the command line exits 3 on it).
func (s *Sweep) Run(ctx context.Context, opt RunOptions, emit func(*Record) error) error {
	if opt.Shards < 0 || opt.Shard < 0 || (opt.Shards > 0 && opt.Shard >= opt.Shards) {
		return fmt.Errorf("sweep: shard %d of %d: want 0 <= K < N", opt.Shard, opt.Shards)
	}
	cells := s.Pending(opt)
	err := workpool.Run(ctx, len(cells), workpool.Options{Workers: opt.Workers, Progress: opt.Progress},
		func(ctx context.Context, k int) (*Record, error) { return s.RunCell(ctx, cells[k]) },
		func(_ int, rec *Record) error { return emit(rec) })
	var pe *workpool.PanicError
	if errors.As(err, &pe) {
		pe.Task = cells[pe.Task] // the cell, not its place among the pending ones
		return fmt.Errorf("sweep: cell %d: %w", pe.Task, pe)
	}
	return err
}
