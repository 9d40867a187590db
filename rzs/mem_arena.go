package rzs

import (
	"runtime"
	"unsafe"

	"lifezero/game"
)

// This file holds the solver's storage: arenas of fixed chunks with no
// pointers in them, so that a search of millions of nodes costs the garbage
// collector nothing to scan and growing never copies what is stored, and
// whose sizes the memory bound (mem_bound.go) can count cheaply.

// arenaChunkBytes is the most bytes of an arena chunk: small enough that
// one new chunk moves the memory count little, large enough to keep the
// number of mappings low (a few thousand for a solve of many GB).
const arenaChunkBytes = 256 << 10

// arena is a growable array of T in fixed chunks, with a free list. Index 0
// is reserved (it means "none"). T must hold no pointers: the chunks live
// outside the Go heap where they can (see mapChunk).
type arena[T any] struct {
	chunks [][]T
	n      int32
	free   []int32
	mapped *mappings
	bits   uint // items per chunk: 1<<bits
}

func newArena[T any]() *arena[T] {
	var zero T
	a := &arena[T]{mapped: newMappings()}
	for a.bits = 4; unsafe.Sizeof(zero)<<(a.bits+1) <= arenaChunkBytes; a.bits++ {
	}
	addUnmapCleanup(a, a.mapped)
	a.alloc() // index 0: none
	return a
}

// mappings are the chunks an arena mapped outside the Go heap; they are
// unmapped when the arena becomes unreachable.
type mappings struct{ chunks [][]byte }

func newMappings() *mappings { return &mappings{} }

func (m *mappings) chunk(n int) []byte {
	b := mapChunk(n)
	if b == nil {
		return make([]byte, n)
	}
	m.chunks = append(m.chunks, b)
	return b
}

func (m *mappings) unmap() {
	for _, b := range m.chunks {
		unmapChunk(b)
	}
	m.chunks = nil
}

// addUnmapCleanup unmaps m's chunks once owner is unreachable.
func addUnmapCleanup[O any](owner *O, m *mappings) {
	runtime.AddCleanup(owner, func(m *mappings) { m.unmap() }, m)
}

// newChunk returns a zeroed chunk of 1<<a.bits items.
func (a *arena[T]) newChunk() []T {
	var zero T
	size := int(unsafe.Sizeof(zero)) << a.bits
	b := a.mapped.chunk(size)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), 1<<a.bits)
}

// alloc returns the index of a zeroed item.
func (a *arena[T]) alloc() int32 {
	if k := len(a.free); k > 0 {
		i := a.free[k-1]
		a.free = a.free[:k-1]
		var zero T
		*a.at(i) = zero
		return i
	}
	if int(a.n) == len(a.chunks)<<a.bits {
		a.chunks = append(a.chunks, a.newChunk())
	}
	i := a.n
	a.n++
	return i
}

// release puts item i back for reuse.
func (a *arena[T]) release(i int32) {
	if i > 0 {
		a.free = append(a.free, i)
	}
}

func (a *arena[T]) at(i int32) *T {
	return &a.chunks[i>>a.bits][i&(1<<a.bits-1)]
}

// live returns the number of items in use.
func (a *arena[T]) live() int { return int(a.n) - 1 - len(a.free) }

// bytes returns the memory the arena holds.
func (a *arena[T]) bytes() int64 {
	var zero T
	return int64(len(a.chunks))<<a.bits*int64(unsafe.Sizeof(zero)) + int64(cap(a.free))*4
}

// zoneArena stores relevance zones (7 words each on 19x19); the nodes and
// the transposition table refer to them by index and share them.
type zoneArena struct{ a *arena[game.PointSet] }

func newZoneArena() *zoneArena { return &zoneArena{newArena[game.PointSet]()} }

// add stores z and returns its reference (never 0).
func (z *zoneArena) add(p game.PointSet) int32 {
	i := z.a.alloc()
	*z.a.at(i) = p
	return i
}

// get returns the zone of reference i (the empty set for 0).
func (z *zoneArena) get(i int32) game.PointSet {
	if i == 0 {
		return game.PointSet{}
	}
	return *z.a.at(i)
}

// byteChunk is the default size of a byteArena chunk; a block never
// straddles two.
const byteChunk = 1 << 20

// byteChunkFor returns the chunk size for a memory bound: about 1/64 of it
// (so that a new chunk moves the count little), between 64 KiB and 4 MiB
// (so that a large bound needs few mappings).
func byteChunkFor(bound int64) int {
	if bound <= 0 {
		return byteChunk
	}
	c := 64 << 10
	for c < 4<<20 && int64(c)*2*64 <= bound {
		c *= 2
	}
	return c
}

// blockAlign rounds block sizes so that freed blocks fit more requests.
const blockAlign = 16

// byteArena holds variable-sized blocks of bytes, addressed by (chunk, offset).
// Freed blocks are kept in free lists by size.
type byteArena struct {
	mapped *mappings
	chunk  int // chunk size (0: byteChunk)
	chunks [][]byte
	used   int // bytes used in the last chunk
	free   map[int][]blockRef
	inUse  int64
}

// blockRef addresses a block: chunk is 1-based (0 means none).
type blockRef struct{ chunk, off uint32 }

// blockSlack is how many classes (of blockAlign bytes) larger than asked a
// freed block may be and still be reused.
const blockSlack = 4

// alloc returns a block of at least n bytes and how many blockAlign units
// larger than n's class it is (the caller passes it back to release).
func (b *byteArena) alloc(n int) (blockRef, int) {
	n = (n + blockAlign - 1) &^ (blockAlign - 1)
	if b.chunk == 0 {
		b.chunk = byteChunk
	}
	for slack := 0; slack <= blockSlack; slack++ {
		size := n + slack*blockAlign
		if l := b.free[size]; len(l) > 0 {
			r := l[len(l)-1]
			b.free[size] = l[:len(l)-1]
			b.inUse += int64(size)
			return r, slack
		}
	}
	if len(b.chunks) == 0 || b.used+n > b.chunk {
		if b.mapped == nil {
			b.mapped = newMappings()
			addUnmapCleanup(b, b.mapped)
		}
		b.chunks = append(b.chunks, b.mapped.chunk(b.chunk))
		b.used = 0
	}
	r := blockRef{uint32(len(b.chunks)), uint32(b.used)}
	b.used += n
	b.inUse += int64(n)
	return r, 0
}

// release frees a block of n bytes given with slack.
func (b *byteArena) release(r blockRef, n, slack int) {
	n = (n+blockAlign-1)&^(blockAlign-1) + slack*blockAlign
	if r.chunk == 0 {
		return
	}
	if b.free == nil {
		b.free = map[int][]blockRef{}
	}
	b.free[n] = append(b.free[n], r)
	b.inUse -= int64(n)
}

func (b *byteArena) block(r blockRef, n int) []byte {
	return b.chunks[r.chunk-1][r.off : int(r.off)+n : int(r.off)+n]
}

func (b *byteArena) bytes() int64 { return int64(len(b.chunks)) * int64(b.chunk) }
