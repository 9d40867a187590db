package datasets

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// maxBufferBytes caps a single buffer allocation while reading. The Arrow
// IPC reader allocates whatever length a file's metadata claims before it
// reads the data, and a corrupt length of terabytes would kill the process
// with an unrecoverable out-of-memory error. Writers must keep every column
// buffer of a record batch below this size (smaller batches do that).
const maxBufferBytes = 4 << 30

// cappedAllocator is a Go allocator that panics (which guard turns into an
// error) instead of attempting absurd allocations.
type cappedAllocator struct {
	memory.GoAllocator
	max int
}

func (a *cappedAllocator) check(size int) {
	if size < 0 || size > a.max {
		panic(fmt.Sprintf("buffer of %d bytes requested (limit %d): corrupt length", size, a.max))
	}
}

func (a *cappedAllocator) Allocate(size int) []byte {
	a.check(size)
	return a.GoAllocator.Allocate(size)
}

func (a *cappedAllocator) Reallocate(size int, b []byte) []byte {
	a.check(size)
	return a.GoAllocator.Reallocate(size, b)
}
