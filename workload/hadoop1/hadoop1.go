// Package hadoop1 is the workloads of the Hadoop-1 papers, written as workload files
// for `coraopt simulate`: WOHA's workflows (woha.txt §II, the Workflow its planner
// reads; the random layered DAGs of §V-A, Fig. 2 and the three-workflow experiment of
// §VI-A) and RTMR's workloads I and II (rtmr.txt §V, Tables II–IV). It generates; the
// schedulers (policies/woha, policies/rtmr) read what it writes and are not imported
// here.
package hadoop1
