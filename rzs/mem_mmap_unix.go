//go:build unix

package rzs

import "syscall"

// mapChunk returns n zeroed bytes outside the Go heap (an anonymous
// mapping), so that the solver's arenas neither count towards the garbage
// collector's heap goal (which lets the heap grow to twice its live size)
// nor get scanned; nil if the mapping fails.
func mapChunk(n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	return b
}

func unmapChunk(b []byte) { _ = syscall.Munmap(b) }
