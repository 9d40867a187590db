package rzs

import (
	"fmt"
	"math"
	"testing"

	"lifezero/game"
	"lifezero/mcts"
)

// TestSelectChildMatchesFullScan checks selectChild, which scores the
// unvisited children as one through the nextKid cache, against the full
// scan it replaced (scanSelect: every child scored in child order), at
// every expanded node of real searches as they grow: a 7x7 kill-all and a
// 19x19 problem, with and without the FPU reduction and the proof bonus,
// with leaves in flight, and under a memory bound that reclaims. A
// stale cache (a child visited, refuted or pruned from the must-play
// region, or priors refined under it) makes the two choose differently.
func TestSelectChildMatchesFullScan(t *testing.T) {
	for i, tt := range []struct {
		set, id string
		opts    Options
		budget  int
		reclaim bool // the memory bound must reclaim during the search
	}{
		{"killall7x7", "01", Options{}, 3000, false},
		{"killall7x7", "02", Options{FPUReduction: 0.3, ProofBonus: 0.1}, 3000, false},
		{"cho19-dev", "043", Options{ProofBonus: 0.1, DepthDiscount: 0.9, Safety: true}, 1500, false},
		{"cho19-dev", "005", Options{FPUReduction: 0.3, MaxMemory: 5 << 20, MemorySolverOnly: true}, 8000, true},
		// Four leaves in flight: virtual losses, and records not yet
		// backed up (no visits) that tie with unvisited children.
		{"cho19-dev", "043", Options{Batch: 4, ProofBonus: 0.1, FPUReduction: 0.3}, 1500, false},
	} {
		t.Run(fmt.Sprintf("%d-%s-%s", i, tt.set, tt.id), func(t *testing.T) {
			opts := tt.opts
			opts.Budget = tt.budget
			s := testSolver(sharedProblem(t, tt.set, tt.id), opts)
			batch := max(opts.Batch, 1)
			if batch > 1 {
				s.tree.virtual = make(map[int32]int32) // as runSearch does
			}
			compared := 0
			for step := 0; s.status(rootNode) == Unknown && s.nodes < s.opts.Budget; step++ {
				if s.mem.due(s.nodes) && s.checkMemory() != "" {
					break
				}
				if !s.step(batch) {
					break
				}
				if step%40 == 0 {
					compared += compareSelections(t, s)
				}
			}
			compared += compareSelections(t, s)
			if tt.reclaim && s.mem.reclaims == 0 {
				t.Fatalf("no reclaim under the bound in %d nodes", s.nodes)
			}
			if compared < 1000 {
				t.Fatalf("only %d selections compared after %d nodes", compared, s.nodes)
			}
			t.Logf("%d selections compared over %d nodes (%d reclaims)", compared, s.nodes, s.mem.reclaims)
		})
	}
}

// testSolver returns a solver of pr under opts (with their defaults),
// ready to step as run would search.
func testSolver(pr *game.Problem, opts Options) *mcSolver {
	opts.defaults(pr)
	s := newMCTSSolver(pr, opts)
	s.search = mcts.NewSearch(searchTree{s.tree, s}, s.living, 0, s.searchHooks())
	return s
}

// compareSelections compares selectChild with scanSelect at every expanded
// node under the root and returns how many it compared.
func compareSelections(t *testing.T, s *mcSolver) int {
	t.Helper()
	n := 0
	stack := []int32{rootNode}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s.tree.visited(id, func(c int32) { stack = append(stack, c) })
		if _, has := s.tree.kidsOf(id); !has || s.status(id) != Unknown {
			continue
		}
		wi, wm, wr, wok := scanSelect(s.tree, id, s.skipper(id))
		gi, gm, gr, gok := s.tree.selectChild(id, s.skipper(id))
		if gi != wi || gm != wm || gr != wr || gok != wok {
			t.Fatalf("node %d: selectChild = %d %v %d %v, the full scan %d %v %d %v", id, gi, gm, gr, gok, wi, wm, wr, wok)
		}
		n++
	}
	return n
}

// scanSelect is selectChild as a scan of every child in child order, the
// reference: the PUCT score of each unskipped child, the first best kept.
func scanSelect(t *memTree, id int32, skip skipper) (idx int, move game.Point, rec int32, ok bool) {
	parent := t.node(id)
	c, has := t.kidsOf(id)
	if !has {
		return 0, game.NoPoint, 0, false
	}
	cexp, fpu, fewest := t.selectionTerms(id, &c, skip)
	moves := t.moves(&c, nil)
	best, bestScore := -1, math.Inf(-1)
	var bestRec int32
	r, at := parent.firstRec, t.childIndex(parent.firstRec)
	visited := 0
	for i, m := range moves {
		var rn *memNode
		cur := int32(0)
		if i == at {
			cur = r
			rn = t.node(r)
			r = rn.nextSib
			at = t.childIndex(r)
			visited++
		}
		if skip.skip(m, cur) {
			continue
		}
		var score float64
		if rn != nil {
			visits, q := t.stats(rn, cur, fpu)
			score = q + cexp*float64(c.priorOf(i))/float64(1+visits)
			if fewest > 0 && t.left[visited-1] > 0 {
				score += t.proofBonus * float64(fewest) / float64(t.left[visited-1])
			}
		} else {
			score = fpu + cexp*float64(c.priorOf(i))/float64(1)
		}
		if score > bestScore {
			best, bestScore, bestRec = i, score, cur
		}
	}
	if best < 0 {
		return 0, game.NoPoint, 0, false
	}
	return best, moves[best], bestRec, true
}

// childIndex is the child index of record r, -1 for none (r = 0).
func (t *memTree) childIndex(r int32) int {
	if r == 0 {
		return -1
	}
	return int(t.node(r).childIdx)
}

// TestMoveAt checks moveAt against the decoded move list of every expanded
// node of a small search.
func TestMoveAt(t *testing.T) {
	s := testSolver(sharedProblem(t, "killall7x7", "01"), Options{Budget: 500})
	for s.status(rootNode) == Unknown && s.nodes < s.opts.Budget && s.step(1) {
	}
	checked := 0
	for id := rootNode; id < int32(s.tree.nodes.n); id++ {
		c, has := s.tree.kidsOf(id)
		if !has {
			continue
		}
		for i, m := range s.tree.moves(&c, nil) {
			if got := s.tree.moveAt(&c, i); got != m {
				t.Fatalf("node %d child %d: moveAt %v, want %v", id, i, got, m)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no expanded node")
	}
}

// TestSelectChildAfterNewChildren: a node whose children block is written
// again (refine's new priors, or a reclaimed node expanded anew) selects
// as the full scan does, not by the unvisited child cached for the old
// block. The priors are written reversed, so the old candidate is rarely
// the new one.
func TestSelectChildAfterNewChildren(t *testing.T) {
	s := testSolver(sharedProblem(t, "cho19-dev", "043"), Options{Budget: 1500})
	for s.status(rootNode) == Unknown && s.nodes < s.opts.Budget && s.step(1) {
	}
	moved := 0
	for id := rootNode; id < s.tree.nodes.n; id++ {
		n := s.tree.node(id)
		c, has := s.tree.kidsOf(id)
		if !has || n.nextKid == 0 || n.nextKid == noneUnvisited || n.status != Unknown {
			continue
		}
		old := int(n.nextKid) - 1
		moves := s.tree.moves(&c, nil)
		priors := make([]float32, len(moves))
		for i := range moves {
			priors[len(moves)-1-i] = c.priorOf(i)
		}
		player := c.player
		s.freeKids(id)
		s.tree.expand(id, player, moves, priors)
		wi, _, _, _ := scanSelect(s.tree, id, s.skipper(id))
		gi, _, _, _ := s.tree.selectChild(id, s.skipper(id))
		if gi != wi {
			t.Fatalf("node %d: selected child %d after new priors, the full scan %d (the old block's candidate %d)", id, gi, wi, old)
		}
		if wi != old {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no node whose new priors move the choice")
	}
	t.Logf("%d nodes chose another child after new priors", moved)

	// Priors so small that every unvisited child scores fpu exactly: the
	// first in child order, not the highest prior, is the full scan's.
	c, _ := s.tree.kidsOf(rootNode)
	moves := s.tree.moves(&c, nil)
	tiny := make([]float32, len(moves))
	for i := range tiny {
		tiny[i] = 1e-30 * float32(i+1)
	}
	player := c.player
	s.freeKids(rootNode)
	s.tree.expand(rootNode, player, moves, tiny)
	wi, _, _, _ := scanSelect(s.tree, rootNode, s.skipper(rootNode))
	gi, _, _, _ := s.tree.selectChild(rootNode, s.skipper(rootNode))
	if gi != wi || wi != 0 {
		t.Fatalf("priors below the rounding of fpu: selected child %d, the full scan %d (want 0)", gi, wi)
	}
}
