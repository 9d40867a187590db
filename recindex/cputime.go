package recindex

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used,
// or 0 when it cannot be read. Measure takes it around each search: on a
// shared machine the wall time of a query depends on the load, its CPU
// time much less.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
