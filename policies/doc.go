// Package policies is the contract between the simulator (package sim) and the
// scheduling policies it runs (docs/design.md, "The simulator–policy contract"): the Policy
// interface, its optional hooks (named interfaces, resolved once per run by
// HooksOf), the read-only View a policy decides from, and the container assignment
// unit of rush.txt §IV that every target-based policy shares. One subpackage per
// scheduler implements it; policies/all maps names to constructors.
//
// # The engine's side of the contract
//
// The engine keeps the cluster, the jobs and the true task runtimes. At every decision
// instant — after all events at one time have been applied — it calls StartRound (when
// the policy implements Rounder), then offers the free slots one at a time: pools in
// cluster order, and within a pool the workers in cluster order, each worker as long as
// it has a free slot in the pool and the pool is below its capacity. For each offered
// Slot the policy's Pick names the job whose next task starts there, or declines; a
// declined slot is not offered again in that round (other workers' slots still are).
// The engine starts the lowest-numbered unstarted task of the job's earliest open
// stage on that pool (the current stage, or under slow start the next one). A
// Pick naming a job that has no runnable task in that pool ends the run with an error:
// that is a policy bug, never silently fixed. Tasks are never preempted.
//
// A policy never sees the true runtime of a task that has not finished: View exposes
// finished tasks with their measured times (what an estimator may learn from), running
// tasks with their start times, and each stage's declared runtime distribution when the
// workload gives one (not its explicit runtimes). Only a policy implementing
// Clairvoyant receives an Oracle, and the simulator's output marks it so.
//
// # The hooks
//
// Policy (Name, Pick) is required. Every other hook is an optional interface of this
// package, resolved once per run by HooksOf — the engine (sim) and sim.Measure use
// the resolved Hooks and never assert an interface at the point of use:
//
//   - Rounder.StartRound(ctx, v): once per decision instant, before the Picks.
//   - Observer.Observe(v, e): after every event the engine applies.
//   - Admitter.Admit(v, j): at j's arrival; false rejects j and the jobs waiting for it.
//   - Ticker.Interval, Tick(ctx, v): at 0, Interval, 2·Interval, … while jobs remain.
//   - Clairvoyant.UseOracle(o): once before the run; the output is marked clairvoyant.
//   - TraceAware.UseCapacityTrace(trace): once before the run, the whole capacity trace.
//   - Refuser.Err(): after the run; non-nil means the policy could not model the
//     workload (sim.UnsupportedError; `coraopt simulate` exits 2 with the reason).
//   - Aborter.Aborted(): after every StartRound, Tick and Admit; non-nil ends the run
//     with that error (an external policy whose program broke the protocol).
//   - FallbackCounter.Fallbacks(), Counter.Counts(): copied into the run's metrics
//     (fallbacks, policy_counts).
//
// StartRound and Tick receive the run's context: a policy that solves per decision
// passes it to solve, so cancelling a run (Ctrl-C, a sweep's SIGTERM) stops a solve in
// flight, and the engine ends the run with the context's error.
//
// The registered policies (policies/all) and the hooks each implements; the test
// policies/all.TestHooksTable checks this table against the code:
//
//	policy           hooks
//	cora             Rounder Observer FallbackCounter Counter
//	cora-final       Rounder Observer FallbackCounter Counter
//	cora-paper       Rounder Observer FallbackCounter Counter
//	dc               Observer Admitter Refuser
//	edf              Rounder
//	edf-n            Rounder
//	edf-serial       Rounder
//	fair             -
//	fifo             -
//	fifo-serial      Rounder
//	oozie-edf        Rounder Observer Refuser
//	oozie-fair       Rounder Observer Refuser
//	oozie-fifo       Rounder Observer Refuser
//	oracle           Rounder Observer Clairvoyant FallbackCounter Counter
//	rds              Observer Ticker TraceAware FallbackCounter
//	rds-ideal        Observer Ticker TraceAware FallbackCounter
//	rrh              Rounder
//	rtmr             Observer Admitter Refuser
//	rtmr-fifo        Observer Admitter Refuser
//	rtmr-nofeedback  Observer Admitter Refuser
//	rush             Rounder Observer Refuser FallbackCounter Counter
//	rush-alg3        Rounder Observer Refuser FallbackCounter Counter
//	rush-paper       Rounder Observer Refuser FallbackCounter Counter
//	woha-hlf         Rounder Observer Refuser
//	woha-lpf         Rounder Observer Refuser
//	woha-mpf         Rounder Observer Refuser
//
// # How the policies plug in
//
//   - fifo, fair, edf (EDF-P), edf-n, rrh — Pick per free slot and, for edf, edf-n and
//     rrh, StartRound to rank the active jobs once per decision instant
//     (policies/fifo, fair, edf, rrh).
//   - fifo-serial, edf-serial — rush.txt §V-B's baselines, one job at a time: StartRound
//     names the head (the first ready job by arrival, or by deadline) and Serial's Pick
//     gives it the slots it can use while no other job holds one (policies/fifo, edf).
//   - cora, cora-final, rush, rush-alg3 — StartRound: at each decision instant compute
//     target containers per job (cora: exact CORA or the FINAL LP over the active
//     jobs' remaining work; rush: WCDE on the completed-task runtimes, then onion
//     peeling and the first slot of the continuous time-slot mapping) and write them
//     into an embedded *ContainerAssignment, whose Pick gives each free container to
//     the runnable job with the largest target − held gap (rush.txt §IV, "Container
//     Assignment"). Observe gates re-planning (Config.Interval) and feeds RUSH's
//     estimator; Fallbacks and Counts report plans that failed, plans and skips.
//   - oracle — exact CORA re-planned with every task's true runtime (Clairvoyant), to
//     show how close an achievable schedule comes to the bound. It takes the capacity
//     as constant from now on; it does not read the capacity trace.
//   - rds, rds-ideal — Tick with the control interval: each tick solves the
//     receding-horizon QP (rds.txt eq. 3) from progress (View.Done) and the observed
//     capacity (View.CapacityHistory, for the AR predictor) and writes u_j into the
//     embedded ContainerAssignment; rds.txt Alg. 1 (largest Δu first, decremented per
//     assigned slot; work-conserving by its stopping rule Σu = r_a) is the same unit
//     with Conserving true. Both implement TraceAware; only rds-ideal forecasts from
//     the trace it receives. The §4.3 fast path for short jobs is an Observer of
//     arrivals.
//   - woha-hlf, woha-lpf, woha-mpf, oozie-fifo, oozie-fair, oozie-edf (policies/woha)
//     — StartRound, Observe and Pick per free slot over the map and reduce pools: jobs
//     carry Workflow and After (JobInfo.After); the engine holds a job back until the
//     jobs it waits for finish (View.Ready). A workflow's release is its earliest job
//     arrival and its deadline the earliest absolute deadline of its jobs (a declared
//     workflow gives its deadline to its jobs); the plan is built at the workflow's
//     first arrival (Observer sees EventArrival) from JobInfo.Estimates, and Pick
//     gives the slot to the workflow furthest behind its plan, then the job by
//     HLF/LPF/MPF priority.
//   - rtmr, rtmr-nofeedback, dc (Deadline Constraint), rtmr-fifo (policies/rtmr) —
//     Admit accepts or rejects each job at its arrival (Alg. I–III on the map/reduce
//     slot-availability vectors, from View.Workers, StageInfo.DataOf and
//     JobInfo.Estimates); a rejected job never runs and earns workload.UtilityNever.
//     Pick implements the dispatcher (Alg. IV): the Slot names its worker and speed,
//     and the policy may decline a reduce slot to keep it reserved for
//     higher-priority jobs. Observe's EventTaskFinish and EventJobFinish feed the
//     estimator and the feedback controller (Alg. V–VI).
//   - exec:NAME=CMD (policies/external, not registered) — a program of its own run
//     per simulation, speaking the JSON Lines protocol of docs/protocol.md: Rounder
//     sends a round and takes its decision (slot assignments, or targets written into
//     an embedded ContainerAssignment), Observer collects the events to report,
//     Aborter ends the run when the program misbehaves; Admitter and Ticker only when
//     the program asks for them in its ready.
//
// A policy that cannot model a workload (WOHA without deadlines or estimates, RTMR
// without data sizes or estimates) says so through Refuser; `coraopt simulate` then
// exits 2 with that reason instead of reporting the run.
package policies
