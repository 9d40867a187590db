//go:build unix

package cputime

import (
	"testing"
	"time"
)

// TestProcessCountsWork spins for a while and checks that the process's
// CPU time grows by about as much, and never runs backwards.
func TestProcessCountsWork(t *testing.T) {
	before := Process()
	end := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(end) {
		x++
	}
	got := Process() - before
	if got < 20*time.Millisecond {
		t.Errorf("50 ms of spinning (%d loops) added %v of CPU time", x, got)
	}
}
