// Package plot draws coraopt's figures with gonum/plot, so that the command line only
// renders what it is handed:
//
//   - the Gantt (allocation) chart of a schedule (`coraopt solve --gantt`): one row per
//     job, one column per slot, cells coloured by job and shaded by the share of
//     capacity held, with a marker at the slot a job's utility names (its deadline or
//     budget) and at its completion;
//   - the figures of a simulated run (`coraopt simulate --plots`, RunFigures): utility
//     CDFs with the bound (cora.txt Fig. 6), Δ = response − deadline boxes per job class
//     (cora.txt Fig. 4), a Gantt of each policy's tasks on the slots (woha.txt Figs.
//     14–19), utilization over time per pool, workflow workspans (woha.txt Fig. 11),
//     and with a bound each policy's sum and minimum of utilities against the sum bound
//     and the lexmax bound's minimum (bounds);
//   - the figures of a merged sweep (`coraopt sweep merge --plots`, SweepFigures):
//     per metric, the mean and 95% confidence interval of each policy on each workload.
//
// Figures a reader compares side by side follow three rules. A policy has one colour
// (and, on lines, one dash pattern) in every figure of a run or a sweep: the colour of
// its position in the run's policy list (PolicyColour), from a palette longer than the
// list of registered policies; the bounds and the capacity have styles no policy has
// (BoundLine for the lexmax bound, SumBoundLine for the sum bound, CapacityLine). Legends stand in a column beside the axes (Figure), never
// over data. Time axes end with the run they show: a Gantt chart at its own run's end,
// a utilization curve where its policy's run ended.
//
// Output format follows the file extension: SVG, PNG, PDF, EPS, JPEG or TIFF for
// SaveGantt; SVG and PNG for the run and sweep figures.
package plot
