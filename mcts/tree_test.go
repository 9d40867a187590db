package mcts

import (
	"math"
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

func TestSelectPrefersPriorThenValue(t *testing.T) {
	tr := NewTree(game.White)
	tr.Expand(0, game.Black, []game.Point{10, 11, 12}, []float32{0.1, 0.8, 0.1})
	if got := tr.Select(0, nil); got != 2 {
		t.Fatalf("unvisited children: picked %d, want the high-prior child 2", got)
	}
	// Child 2 loses every visit, child 3 wins every visit: value wins out.
	for i := 0; i < 50; i++ {
		tr.Backup(2, 0, game.Black, false)
		tr.Backup(3, 1, game.Black, false)
	}
	if got := tr.Select(0, func(id NodeID) bool { return id == 1 }); got != 3 {
		t.Fatalf("after backups picked %d, want 3", got)
	}
	skipped := tr.Select(0, func(id NodeID) bool { return id != 1 })
	if skipped != 1 {
		t.Fatalf("skip: picked %d, want 1", skipped)
	}
	if tr.Select(0, func(NodeID) bool { return true }) != None {
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
	if got := tr.Select(0, nil); got != 2 {
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
