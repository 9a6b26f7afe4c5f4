// Package external runs a scheduling policy that is a program of its own — in Python,
// or anything that reads and writes JSON Lines — as a policies.Policy: `coraopt simulate
// --policies exec:NAME=CMD` and a sweep file's {"name", "exec", …} entries (issue 30;
// the protocol is docs/protocol.md, its messages package protocol).
//
// A Session starts the program for one simulation, sends it hello (the workload as a
// non-clairvoyant policy may know it: policies.JobInfos) and reads its ready. Its
// Policy is one more implementation of the hooks of package policies: StartRound sends
// a round (the events since the last message, the jobs whose runnable task counts
// changed, the free slots) and takes the decision, checked whole against the round
// before any slot is served; Pick serves the decision's slot assignments in the
// engine's offer order, or the program's standing order, or leaves the slots to an
// embedded policies.ContainerAssignment steered by the decision's targets; Observe
// collects the events the program asked for; Admit and Tick exist only when the
// program asked for them. A program that limits its rounds (ready.wake) is asked only
// after the events it names, and its standing order serves every instant in between,
// which is how an order-based policy gets by with a handful of round trips per run. The engine waits
// for every reply, so simulated time does not pass while the program thinks and the
// run is as deterministic as with a built-in policy.
//
// A program that breaks the protocol, exits, crashes or stays silent past the timeout
// ends the run through policies.Aborter with an *Error naming the round, the simulated
// time and the offending field; Close kills it with its process group if needed and
// always reaps it.
package external
