package selfplay

import (
	"slices"
	"testing"
)

// The cache gives back exactly what was put, across block boundaries and
// after being emptied, and a refill reuses its blocks instead of growing.
func TestEvalCacheRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name            string
		max, policy, dw int
	}{
		{"7x7", 500, 50, 36},
		{"19x19", 400, 362, 30},
		{"bigger than a block", 3, slabBlock + 10, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newEvalCache(tc.max)
			output := func(i, n, salt int) []float32 {
				v := make([]float32, n)
				for j := range v {
					v[j] = float32(i*1000 + j*salt)
				}
				return v
			}
			fill := func(round int) {
				for i := range tc.max {
					k := [2]uint64{uint64(round), uint64(i)}
					c.put(k, output(i, tc.policy, 3+round), float32(i), output(i, tc.dw, 7+round))
				}
				for i := range tc.max {
					e, ok := c.get([2]uint64{uint64(round), uint64(i)})
					if !ok || e.value != float32(i) || !slices.Equal(e.policy, output(i, tc.policy, 3+round)) ||
						!slices.Equal(e.dwin, output(i, tc.dw, 7+round)) {
						t.Fatalf("round %d entry %d: got %v (ok %v), want what was put", round, i, e.value, ok)
					}
				}
			}
			fill(0)
			blocks := len(c.blocks)
			// The next put empties the full cache: round 0's entries go, and
			// round 1 fits in the same blocks.
			fill(1)
			if _, ok := c.get([2]uint64{0, 0}); ok {
				t.Error("an entry from before the cache was emptied is still there")
			}
			if len(c.blocks) != blocks {
				t.Errorf("refill grew the cache from %d to %d blocks", blocks, len(c.blocks))
			}
		})
	}
}
