//go:build !unix

package rzs

// mapChunk has no mapping to give outside unix: arenas use the Go heap.
func mapChunk(int) []byte { return nil }

func unmapChunk([]byte) {}
