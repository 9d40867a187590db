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
	// slab holds the entries' outputs one after another, so that a put
	// does not allocate once it has grown; emptying the cache starts it
	// over, as nothing keeps an entry's slices past the batch that got it.
	slab []float32
}

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
// The slices that get returns stay valid until then (the slab is written
// over afterwards), so a batch reads its hits before it puts its new
// positions.
func (c *evalCache) put(k [2]uint64, policy []float32, value float32, dwin []float32) {
	if len(c.entries) >= c.max {
		clear(c.entries)
		c.slab = c.slab[:0]
	}
	n := len(c.slab)
	c.slab = append(append(c.slab, policy...), dwin...)
	m, end := n+len(policy), len(c.slab)
	c.entries[k] = cachedEval{policy: c.slab[n:m:m], value: value, dwin: c.slab[m:end:end]}
}
