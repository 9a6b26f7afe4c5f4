// Package workload generates the papers' workloads as scheduling instances, seeded so
// that the same seed always gives the same instance (DESIGN.md, "Layout"). Benchmarks,
// `coraopt bench` and tests draw their instance families from here, so a figure
// measured in one place is about the same instances as in another.
//
// CORAPaper follows the evaluation of cora.txt §III-C: sigmoid utilities (eq. 11) with
// the paper's three completion-time classes.
package workload
