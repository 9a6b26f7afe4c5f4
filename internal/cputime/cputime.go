// Package cputime reads the CPU time this process has used (user + system). Benchmarks
// and `coraopt bench` report it next to wall time because on a shared machine the wall
// clock also counts the time other processes held the cores, while CPU time varies far
// less. Where the platform cannot say, Process returns 0 and callers omit the figure.
package cputime
