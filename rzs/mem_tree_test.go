package rzs

import (
	"math/rand/v2"
	"testing"
	"unsafe"

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
			c := readBack(t, tree, id, moves, priors)
			if palette := c.pal != nil; palette != (tc.distinct > 0 && tc.distinct < 256) {
				t.Errorf("palette used: %v", palette)
			}
			// The block released with every byte set and written again
			// in the same place: expand must write whatever it reads back.
			ref := tree.node(id).kids
			size := blockSize(c.n, len(c.pal)/4, len(c.words)/8)
			slack := int(tree.data.block(ref, blockHeader)[7])
			block := tree.data.block(ref, size)
			for i := range block {
				block[i] = 0xff
			}
			tree.data.release(ref, size, slack)
			tree.node(id).kids = blockRef{}
			tree.expand(id, game.Black, moves, priors)
			if tree.node(id).kids != ref {
				t.Fatalf("the released block was not reused")
			}
			readBack(t, tree, id, moves, priors)
		})
	}
}

// readBack checks that node id's children block holds moves and priors,
// played by Black, and returns it.
func readBack(t *testing.T, tree *memTree, id int32, moves []game.Point, priors []float32) children {
	t.Helper()
	c, ok := tree.kidsOf(id)
	if !ok || c.n != len(moves) || c.player != game.Black || c.hasPass != (moves[len(moves)-1] == game.Pass) {
		t.Fatalf("block: ok %v, %d children of %v (pass %v), want %d of Black", ok, c.n, c.player, c.hasPass, len(moves))
	}
	got := tree.moves(&c, nil)
	for i := range moves {
		if got[i] != moves[i] || c.priorOf(i) != priors[i] {
			t.Fatalf("child %d: move %v prior %v, want %v %v", i, got[i], c.priorOf(i), moves[i], priors[i])
		}
	}
	return c
}

// TestMemNodeLayout: a record stays 44 bytes (the memory bound counts
// them), the flag bits stay below the player bits they share a byte with,
// and the player reads back as written.
func TestMemNodeLayout(t *testing.T) {
	if size := unsafe.Sizeof(memNode{}); size != 44 {
		t.Errorf("memNode is %d bytes, want 44", size)
	}
	if flagCoarse >= 1<<playerShift {
		t.Errorf("flag bit %#x reaches the player bits from %d", flagCoarse, playerShift)
	}
	for _, c := range []game.Color{game.Black, game.White} {
		n := memNode{flags: flagExpanded | flagCoarse | uint8(c)<<playerShift}
		n.flags &^= flagExpanded
		if n.player() != c || n.flags&flagCoarse == 0 {
			t.Errorf("player %v: read %v, flags %#x", c, n.player(), n.flags)
		}
	}
}
