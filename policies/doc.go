// Package policies is the contract between the simulator (package sim) and the
// scheduling policies it runs (DESIGN.md, "Simulator"): the Policy interface, its
// optional interfaces, the read-only View a policy decides from, and the container
// assignment unit of rush.txt §IV that every target-based policy shares. One
// subpackage per scheduler implements it; policies/all maps names to constructors.
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
// # How the ten policies plug in
//
//   - fifo, fair, edf (EDF-P), edf-n, rrh — Policy (Pick per free slot) and, for edf,
//     edf-n and rrh, Rounder to rank the active jobs once per decision instant. These
//     live here (policies/fifo, fair, edf, rrh).
//   - cora, rush — Rounder: at each decision instant compute target containers per
//     job (cora: the FINAL LP or exact CORA over the active jobs' remaining work;
//     rush: WCDE on the completed-task runtimes, then onion peeling and the first slot
//     of the continuous time-slot mapping) and write them into an embedded
//     *ContainerAssignment, whose Pick gives each free container to the runnable job
//     with the largest target − held gap (rush.txt §IV, "Container Assignment").
//   - rds — Ticker with the control interval: each tick solves the receding-horizon QP
//     (rds.txt eq. 3) from progress (View.Done) and the observed capacity
//     (View.CapacityHistory, for the AR predictor) and writes u_j into the embedded
//     ContainerAssignment; rds.txt Alg. 1 (largest Δu first, decremented per assigned
//     slot) is the same unit with Conserving false. An "ideal" variant that knows the
//     future capacity implements TraceAware.
//   - oracle — Clairvoyant (true runtimes of every task) and TraceAware; re-plans with
//     exact remaining work, to show how close an achievable schedule comes to the bound.
//   - woha — Pick per free slot over map and reduce pools (Hadoop-1 workers, two pools):
//     jobs carry Workflow and After (JobInfo.After); the engine holds a job back until
//     the jobs it waits for finish (View.Ready). A workflow's release is its earliest
//     job arrival and its deadline the earliest absolute deadline of its jobs
//     (Workflows gives both); GenerateReqs runs at the workflow's first arrival
//     (Observer sees EventArrival) and AssignTask picks the workflow furthest behind its
//     plan, then the job by HLF/LPF/MPF priority.
//   - rtmr, dc (Deadline Constraint) — Admitter: at each arrival Admit accepts or
//     rejects the job (Alg. I–III on the map/reduce slot-availability vectors, from
//     View.Workers, StageInfo.DataOf and the finished tasks' times); a rejected job never
//     runs and earns workload.UtilityNever. Pick implements the dispatcher (Alg. IV):
//     the Slot names its worker and speed, and the policy may decline a reduce slot to
//     keep it reserved for higher-priority jobs. Observer's EventJobFinish drives the
//     feedback controller (Alg. V–VI) from the job's finished task records.
//     policies/rtmr implements these algorithms behind its own four-event Scheduler;
//     sim/rtmr_test.go drives it through this interface with a thin adapter (Admit →
//     Arrive, Pick → Assign with the Slot's worker, Observe → TaskFinished and
//     JobFinished, StageInfo.DataOf for δ_i) and finds every admitted job on time. A
//     registered "rtmr" still needs worst-case estimates (η, c_m^max, c_r^max), which the
//     workload file does not carry yet.
package policies
