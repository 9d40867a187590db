package recindex

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortByRef against a comparison sort: the same candidates, refs ascending,
// for refs needing one to four radix passes and for empty input.
func TestSortByRef(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		n      int
		maxRef uint64
	}{{0, 1}, {1, 1}, {1000, 200}, {5000, 70_000}, {5000, 9_400_000}, {3000, 1 << 31}} {
		a := make([]uint64, tc.n)
		for i := range a {
			a[i] = r.Uint64N(tc.maxRef)<<32 | uint64(r.Uint32())
		}
		want := slices.Clone(a)
		slices.SortStableFunc(want, func(x, y uint64) int { return int(x>>32) - int(y>>32) })
		got, spare := sortByRef(slices.Clone(a), nil)
		if !slices.Equal(got, want) {
			t.Errorf("n %d, refs below %d: not sorted stably by ref", tc.n, tc.maxRef)
		}
		if len(spare) != 0 {
			t.Errorf("n %d: spare buffer has length %d", tc.n, len(spare))
		}
	}
}
