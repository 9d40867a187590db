package selfplay

import (
	"math/rand/v2"
	"testing"

	"lifezero/game"
	"lifezero/mcts"
)

// Every search backs up exactly the simulations it was asked for, whether
// its leaves are evaluated one at a time or several under virtual loss, and
// leaves no virtual loss behind.
func TestSearchCountsSimulations(t *testing.T) {
	ka, err := KillAll(7)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, 7)
	net := UniformNet{Config: cfg}
	for _, leaves := range []int{1, 3, 8} {
		pos := ka.Problem.StartPosition()
		params := gameParams{sims: 50, dw: 40, maxMove: 98, alpha: 0.03, eps: 0.25}
		s := newSearch(ka, pos, ka.Problem.Crucial, &params, rand.New(rand.NewPCG(1, 2)), nil)
		p := &player{opts: &Options{LeavesPerGame: leaves, Net: net, CacheEntries: 64}, cfg: cfg}
		bt := p.newBatcher(1)
		for rounds := 0; !s.core.Finished(); rounds++ {
			if rounds > 1000 {
				t.Fatalf("leaves=%d: search did not finish", leaves)
			}
			batch, err := p.collect(s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(batch) > leaves {
				t.Fatalf("leaves=%d: %d leaves queued in one round", leaves, len(batch))
			}
			if err := p.evaluate(batch, bt); err != nil {
				t.Fatal(err)
			}
		}
		root := s.tree.Node(0)
		if int(root.Visits) != params.sims || s.core.Done() != params.sims {
			t.Errorf("leaves=%d: root has %d visits, %d simulations done, want %d", leaves, root.Visits, s.core.Done(), params.sims)
		}
		for id := range s.tree.Len() {
			if vl := s.tree.Node(mcts.NodeID(id)).VirtualLoss; vl != 0 {
				t.Fatalf("leaves=%d: node %d keeps virtual loss %d", leaves, id, vl)
			}
		}
		// At move 0 only Black's stones are candidates: no pass in the
		// handicap opening.
		for _, c := range s.tree.Children(0) {
			if s.tree.Node(c).Move == game.Pass {
				t.Fatalf("leaves=%d: pass is a candidate of the opening move", leaves)
			}
		}
	}
}
