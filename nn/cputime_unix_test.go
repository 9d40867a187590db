//go:build unix

package nn

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used: on a
// shared machine, CPU per op varies less than wall time per op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
