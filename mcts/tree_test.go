package mcts

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"lifezero/game"
)

func TestSelectPrefersPriorThenValue(t *testing.T) {
	tr := NewTree(game.White)
	tr.Expand(0, game.Black, []game.Point{10, 11, 12}, []float32{0.1, 0.8, 0.1})
	if got := tr.SelectChild(0); got != 2 {
		t.Fatalf("unvisited children: picked %d, want the high-prior child 2", got)
	}
	// Child 2 loses every visit, child 3 wins every visit: value wins out.
	for i := 0; i < 50; i++ {
		tr.Backup(2, 0, game.Black, false)
		tr.Backup(3, 1, game.Black, false)
	}
	if got := tr.selectChild(0, func(_ game.Point, id NodeID) bool { return id == 1 }); got != 3 {
		t.Fatalf("after backups picked %d, want 3", got)
	}
	skipped := tr.selectChild(0, func(_ game.Point, id NodeID) bool { return id != 1 })
	if skipped != 1 {
		t.Fatalf("skip: picked %d, want 1", skipped)
	}
	if tr.selectChild(0, func(game.Point, NodeID) bool { return true }) != None {
		t.Fatal("all skipped: want None")
	}
}

func TestBackupPerspective(t *testing.T) {
	tr := NewTree(game.White)
	tr.Expand(0, game.Black, []game.Point{10}, []float32{1})
	tr.Expand(1, game.White, []game.Point{20}, []float32{1})
	tr.Backup(2, 1, game.Black, false) // a Black win
	if q := tr.Node(1).Q(0); q != 1 {
		t.Errorf("black node Q = %v, want 1", q)
	}
	if q := tr.Node(2).Q(0); q != 0 {
		t.Errorf("white node Q = %v, want 0", q)
	}
	if tr.Node(0).Visits != 1 {
		t.Errorf("root visits %d", tr.Node(0).Visits)
	}
}

func TestVirtualLoss(t *testing.T) {
	tr := NewTree(game.White)
	tr.Expand(0, game.Black, []game.Point{10, 11}, []float32{0.5, 0.5})
	tr.AddVirtualLoss(1)
	if got := tr.SelectChild(0); got != 2 {
		t.Fatalf("virtual loss on child 1: picked %d", got)
	}
	tr.Backup(1, 1, game.Black, true)
	if tr.Node(1).VirtualLoss != 0 || tr.Node(0).VirtualLoss != 0 {
		t.Fatal("virtual loss not removed")
	}
}

func TestDirichletNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	priors := []float32{0.25, 0.25, 0.25, 0.25}
	AddDirichletNoise(priors, 0.03, 0.25, rng)
	sum := 0.0
	for _, p := range priors {
		if p < 0 {
			t.Fatalf("negative prior %v", p)
		}
		sum += float64(p)
	}
	if math.Abs(sum-1) > 1e-5 {
		t.Fatalf("priors sum to %v", sum)
	}
	// Gamma(alpha) has mean alpha: check the sampler on many draws.
	for _, alpha := range []float64{0.03, 0.5, 2.5} {
		mean := 0.0
		const n = 200000
		for i := 0; i < n; i++ {
			mean += gammaSample(alpha, rng)
		}
		mean /= n
		if math.Abs(mean-alpha)/alpha > 0.05 {
			t.Errorf("gamma(%v) mean %v", alpha, mean)
		}
	}
}

func TestArenaAcrossChunks(t *testing.T) {
	tr := NewTree(game.White)
	moves := make([]game.Point, 300)
	priors := make([]float32, 300)
	for i := range moves {
		moves[i] = game.Point(i)
		priors[i] = 1.0 / 300
	}
	// Expand a chain of nodes until the arena spans several chunks.
	id := NodeID(0)
	for tr.Len() < 3*chunkSize {
		tr.Expand(id, game.Black, moves, priors)
		kids := tr.Children(id)
		if len(kids) != 300 {
			t.Fatalf("node %d has %d children", id, len(kids))
		}
		first := kids[0] >> chunkBits
		for i, c := range kids {
			if c>>chunkBits != first {
				t.Fatalf("children of %d straddle chunks", id)
			}
			if n := tr.Node(c); n.Parent != id || n.Move != game.Point(i) {
				t.Fatalf("child %d of %d: parent %d move %d", c, id, n.Parent, n.Move)
			}
		}
		id = kids[len(kids)-1]
	}
	tr.Backup(id, 1, game.Black, false)
	if tr.Node(0).Visits != 1 {
		t.Fatal("backup did not reach the root through the chunks")
	}
}

// TestSubtree re-roots random trees, one across chunk boundaries, and
// checks the copy against the original node by node: same statistics and
// moves, children in the same order, exactly the descendants of the new
// root (counted by walking the original).
func TestSubtree(t *testing.T) {
	for _, tc := range []struct{ fanout, depth int }{{3, 5}, {300, 2}} {
		rng := rand.New(rand.NewPCG(uint64(tc.fanout), 9))
		tr := NewTree(game.White)
		var grow func(id NodeID, depth int)
		grow = func(id NodeID, depth int) {
			if depth == 0 || (depth < tc.depth && rng.IntN(4) == 0) {
				return
			}
			moves := make([]game.Point, tc.fanout)
			priors := make([]float32, tc.fanout)
			for i := range moves {
				moves[i], priors[i] = game.Point(i), rng.Float32()
			}
			tr.Expand(id, game.Black, moves, priors)
			for _, c := range tr.Children(id) {
				if rng.IntN(2) == 0 {
					tr.Backup(c, rng.Float64(), game.Black, false)
				}
				grow(c, depth-1)
			}
		}
		grow(0, tc.depth)
		var count func(id NodeID) int
		count = func(id NodeID) int {
			n := 1
			for _, c := range tr.Children(id) {
				n += count(c)
			}
			return n
		}
		// recycled is reused for every copy, as self-play reuses its trees.
		recycled := NewTree(game.Black)
		for _, id := range append([]NodeID{0}, tr.Children(0)[:2]...) {
			nt, old := tr.Subtree(id)
			old2 := recycled.CopySubtree(tr, id)
			if !slices.Equal(old, old2) {
				t.Fatalf("CopySubtree into a used tree maps ids differently from Subtree")
			}
			for i := range nt.Len() {
				if old[i] != None && *nt.Node(NodeID(i)) != *recycled.Node(NodeID(i)) {
					t.Fatalf("node %d: CopySubtree into a used tree %+v, Subtree %+v", i, *recycled.Node(NodeID(i)), *nt.Node(NodeID(i)))
				}
			}
			if len(old) != nt.Len() {
				t.Fatalf("old has %d ids, tree %d", len(old), nt.Len())
			}
			if nt.Node(0).Parent != None || old[0] != id {
				t.Fatalf("root: parent %d, old %d, want None and %d", nt.Node(0).Parent, old[0], id)
			}
			var walk func(nid NodeID) int
			walk = func(nid NodeID) int {
				a, b := *nt.Node(nid), *tr.Node(old[nid])
				a.Parent, b.Parent, a.FirstChild, b.FirstChild = 0, 0, 0, 0
				if a != b {
					t.Fatalf("node %d (old %d): %+v, want %+v", nid, old[nid], a, b)
				}
				kids, oldKids := nt.Children(nid), tr.Children(old[nid])
				if len(kids) != len(oldKids) {
					t.Fatalf("node %d: %d children, want %d", nid, len(kids), len(oldKids))
				}
				n := 1
				for i, c := range kids {
					if old[c] != oldKids[i] || nt.Node(c).Parent != nid {
						t.Fatalf("child %d of %d: old %d parent %d, want %d and %d", i, nid, old[c], nt.Node(c).Parent, oldKids[i], nid)
					}
					n += walk(c)
				}
				return n
			}
			if got, want := walk(0), count(id); got != want {
				t.Fatalf("subtree of %d has %d nodes, want %d", id, got, want)
			}
			used := 0
			for _, o := range old {
				if o != None {
					used++
				}
			}
			if used != count(id) {
				t.Fatalf("old maps %d ids, want %d", used, count(id))
			}
		}
	}
}
