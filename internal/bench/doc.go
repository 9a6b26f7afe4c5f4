// Package bench is the benchmark harness behind `coraopt bench`: suites of instances,
// timing of every solver backend and fast path on them, the statistics that compare
// them, and their rendering as a table, CSV or JSON (docs/design.md, "Performance targets").
//
// # Suites
//
// A Case is prepared just before it runs (NetlibSuite reads the Netlib LPs of package
// solvers/netlib with their reference answers; FormulationsSuite and FastpathsSuite
// generate the scheduling models and fast-path inputs from a seed; DirSuite reads a
// directory of MPS/LP models and instance files). A prepared Instance has a model, which
// every backend that solves its class (LP, MIP, QP) runs on, and/or Methods, the fast
// paths (onion peeling, WCDE, the time-slot mapping) that run beside the solvers: the
// max-min TAS MIP is solved by the MIP backends and by onion peeling, whose lowest level
// is the same number.
//
// # Timing
//
// Run times each solver on each case Config.Warmup times untimed, then Config.Repeat
// times, reading a Clock (wall time, plus the process's CPU time as a steadier companion
// on a shared machine) around the solve alone: the model is built and the solver created
// before the clock starts. A run that does not reach a conclusive answer is not
// repeated. Every run gets Config.TimeLimit, as solvers.Options.TimeLimit and as a
// context deadline.
//
// # Judging the answers
//
// A run is conclusive when it proves something: an optimum, infeasibility,
// unboundedness, or (for a method that computes rather than optimizes) a result. A row
// agrees when it is conclusive and consistent with the case's reference answer, or,
// without one, with every other conclusive row of the case: objectives within
// AgreementTol relative (|a − b| ≤ 10⁻⁶·max(1, |a|, |b|)), the same status otherwise
// (infeasible_or_unbounded is consistent with either). A run that did not finish (time
// limit, error) is not in agreement; a lone conclusive row has nothing to agree with
// (Agree is nil). A disagreement is flagged on every row it involves and counted in
// Report.Disagreements, never resolved by majority. Only solved rows (conclusive and
// not disagreeing) compete for the fastest time; Ratio is a row's median over that.
//
// # Summary
//
// Summarize compares the solvers of each class the way Mittelmann's benchmarks do: the
// shifted geometric mean sgm = exp(mean(ln(t_i + s))) − s of each solver's median times
// over the instances every solver of the class attempted, with shift s = 10 ms
// (DefaultShift), an unsolved instance charged the time limit, reported relative to the
// best solver's sgm, together with the number of instances each solved. FitScaling fits
// the empirical growth exponent k of time ∝ N^k by least squares on the log–log scale,
// with its R².
//
// # Go benchmarks
//
// The docs/design.md performance targets are measured by Go benchmarks in the packages that
// own the code (`make bench`); the cross-backend ones (built-in simplex against HiGHS and
// against gonum) are in this package's tests, where the registry supplies whatever
// backends the binary has. Targets lists which benchmark measures which target.
package bench
