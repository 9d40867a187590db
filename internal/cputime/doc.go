// Package cputime reads the CPU time the process has used, for benchmarks
// and measurements that report it beside wall time: on a shared machine
// the wall time of a piece of work depends on the load, its CPU time much
// less.
package cputime
