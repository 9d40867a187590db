package rzs

import (
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// TestChildrenBlockRoundTrip expands nodes with priors of few distinct
// values (stored as a palette), of 255 and 256 distinct values (the
// palette's limit) and of all-distinct values (stored raw), and reads back
// every child's move and prior exactly.
func TestChildrenBlockRoundTrip(t *testing.T) {
	b, err := game.NewBoard(19)
	if err != nil {
		t.Fatal(err)
	}
	region := b.AllPoints()
	all := region.Points()
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name     string
		kids     int
		distinct int // 0: every prior its own value
		pass     bool
	}{
		{"one value", 40, 1, false},
		{"few values and the pass", 120, 7, true},
		{"255 values", 361, 255, false},
		{"256 values", 361, 256, true},
		{"all distinct", 300, 0, false},
	}
	tree := newMemTree(&region, b.Cells(), game.White, 0)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			moves := append([]game.Point(nil), all[:tc.kids]...)
			if tc.pass {
				moves = append(moves, game.Pass)
			}
			priors := make([]float32, len(moves))
			for i := range priors {
				switch {
				case tc.distinct == 0:
					priors[i] = rng.Float32()
				case i < tc.distinct:
					priors[i] = float32(i+1) / 1000 // every value appears
				default:
					priors[i] = float32(rng.IntN(tc.distinct)+1) / 1000
				}
			}
			id := tree.nodes.alloc()
			*tree.node(id) = memNode{move: game.NoPoint}
			tree.expand(id, game.Black, moves, priors)
			c, ok := tree.kidsOf(id)
			if !ok || c.n != len(moves) || c.player != game.Black {
				t.Fatalf("block: ok %v, %d children of %v, want %d of Black", ok, c.n, c.player, len(moves))
			}
			got := tree.moves(&c, nil)
			for i := range moves {
				if got[i] != moves[i] || c.priorOf(i) != priors[i] {
					t.Fatalf("child %d: move %v prior %v, want %v %v", i, got[i], c.priorOf(i), moves[i], priors[i])
				}
			}
			if palette := c.pal != nil; palette != (tc.distinct > 0 && tc.distinct < 256) {
				t.Errorf("palette used: %v", palette)
			}
		})
	}
}
