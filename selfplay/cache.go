package selfplay

import (
	"encoding/binary"
	"hash/maphash"
	"math"
)

// evalCache keeps the network's outputs for encoded positions a chunk has
// already evaluated: transpositions inside a search, the same positions in
// later searches of a game and in other games of the chunk. Keys are two
// independent 64-bit hashes of the encoded planes (a collision needs both
// to agree: about 2⁻¹²⁸ a pair), so the key covers everything the network
// sees, move number and crucial stones included. With the packed kernels a
// position's outputs do not depend on its batch, so a hit returns the bits
// a fresh evaluation would.
type evalCache struct {
	seeds   [2]maphash.Seed
	entries map[[2]uint64]cachedEval
	max     int    // entries kept before the cache is emptied
	buf     []byte // the planes as bytes, for hashing
	// blocks hold the entries' outputs one after another, so that a put
	// does not allocate once they have grown; emptying the cache starts
	// them over (blocks[cur] is the one being filled), as nothing keeps an
	// entry's slices past the batch that got it. Fixed-size blocks rather
	// than one growing slice: append's moves would keep every outgrown
	// array alive under the entries pointing into it, several times the
	// cache's size (about 100 MB a full cache on 19x19).
	blocks [][]float32
	cur    int
}

// slabBlock is the floats of one block of the cache's outputs (256 KiB).
const slabBlock = 1 << 16

type cachedEval struct {
	policy, dwin []float32
	value        float32
}

// newEvalCache returns a cache of at most max entries, or nil (no cache)
// when max is 0.
func newEvalCache(max int) *evalCache {
	if max <= 0 {
		return nil
	}
	return &evalCache{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		entries: make(map[[2]uint64]cachedEval), max: max}
}

// key hashes encoded planes.
func (c *evalCache) key(planes []float32) [2]uint64 {
	c.buf = c.buf[:0]
	for _, v := range planes {
		c.buf = binary.LittleEndian.AppendUint32(c.buf, math.Float32bits(v))
	}
	return [2]uint64{maphash.Bytes(c.seeds[0], c.buf), maphash.Bytes(c.seeds[1], c.buf)}
}

func (c *evalCache) get(k [2]uint64) (cachedEval, bool) {
	e, ok := c.entries[k]
	return e, ok
}

// put stores copies of one position's outputs. A full cache is emptied
// first: the positions of the current searches come back soon enough.
// The slices that get returns stay valid until then (the blocks are written
// over afterwards), so a batch reads its hits before it puts its new
// positions.
func (c *evalCache) put(k [2]uint64, policy []float32, value float32, dwin []float32) {
	if len(c.entries) >= c.max {
		clear(c.entries)
		for i := range c.blocks {
			c.blocks[i] = c.blocks[i][:0]
		}
		c.cur = 0
	}
	b := c.block(len(policy) + len(dwin))
	n := len(b)
	b = append(append(b, policy...), dwin...)
	c.blocks[c.cur] = b
	m, end := n+len(policy), len(b)
	c.entries[k] = cachedEval{policy: b[n:m:m], value: value, dwin: b[m:end:end]}
}

// block returns the block to write need floats into: the current one, or
// the first after it with room (made when there is none). A block never
// grows past its capacity, so entries' slices stay where they are.
func (c *evalCache) block(need int) []float32 {
	for c.cur < len(c.blocks) {
		if b := c.blocks[c.cur]; cap(b)-len(b) >= need {
			return b
		}
		c.cur++
	}
	c.blocks = append(c.blocks, make([]float32, 0, max(slabBlock, need)))
	return c.blocks[c.cur]
}
