// Package sweep owns coraopt's grids of simulation runs (docs/design.md, "Data flow"):
// a sweep — workloads × policies (with parameters) × seeds read from a sweep file, run
// cell by cell on a worker pool, sharded by cell index for job arrays (Slurm,
// Kubernetes Indexed Jobs), written as JSON Lines that resume after a kill, and merged
// into per policy × workload aggregates that do not depend on how the grid was cut —
// and the replications `coraopt simulate` runs (Replicate): one workload's policies ×
// consecutive seeds, in memory, with one bound per seed. Both run on one pool
// (internal/workpool), name policies one way (PolicySpec: a registered policy with
// parameters or an external program) and summarize seeds with one statistic (Stat).
//
// The papers evaluate exactly such grids (cora.txt §III-C, rush.txt §V, rds.txt §6);
// a cell is one `coraopt simulate` run (sim.Measure), optionally scored against the
// offline bound (sim.Bound) of its own trace.
//
// # Cell order
//
// With W workloads, P policies and S seeds, in the order the sweep file lists them, cell
// i is workload w, policy p, seed s with i = (w·P + p)·S + s: seeds vary fastest, then
// policies, then workloads. Shard K of N holds the cells with i mod N = K. Appending a
// seed, a policy or a workload renumbers cells, so a sweep file's fingerprint (every
// record carries it) changes with anything that changes the grid or its results, and
// resuming or merging refuses records of another sweep. Both also check each record's
// workload, policy, parameters and seed against the cell its index names
// (Sweep.CheckRecord), since merge groups records by those fields.
//
// # One writer per part
//
// OpenPart holds an exclusive flock on the part file until PartFile.Close (the kernel
// drops it when the process dies) and names the holder in a file beside it, so a second
// run on the same part is refused with the holder's PID (LockedError) instead of
// interleaving its lines. Each record is one write to a file opened with O_APPEND.
//
// # Determinism
//
// A record holds the cell's parameters and metrics, which depend only on the workload,
// the policy and its parameters, and the seed; wall-clock figures (run time, decision
// times) are kept under "timing" keys only. Run writes a shard's records in cell order
// whatever the number of workers, and Merge orders cells and groups by cell index, so
// one unsharded run and any set of shards merge to the same bytes outside "timing".
//
// # Replications
//
// Replicate runs every policy under seeds s, s+1, …, s+R−1 of one workload, then each
// seed's bound over a horizon past the slowest of that seed's runs (one bound shared by
// the seed's policies, where a sweep cell computes its own), and summarizes each
// policy over the seeds (PolicySummary). Its result is in seed and policy order
// whatever the number of workers. A bound that cannot be had leaves the runs standing
// and says why (SeedRuns.BoundErr: *sim.SlotTooShortError, *BoundStoppedError, or the
// failure); an interrupt (ctx ends) or an external policy that fails returns the runs
// that finished, marked Interrupted. Errors name policies and seeds, never flags: the
// command line words them (`--policies edf, seed 3: …`) and picks the exit code.
// Replicate lives here rather than in sim because it builds policies by name (sim
// imports only the contract package policies, never policies/all or
// policies/external) and shares this package's pool, policy form and statistic.
//
// # The bound
//
// With "bound": true each cell computes the offline bound of its own seed's trace with a
// horizon reaching past its own run (sim.Bound with until = the run's makespan) and
// reports the run's gap to it. A cell needs no other cell, so shards share nothing; the
// bound of a shorter horizon is never looser, and it is a proven bound for that run.
package sweep
