package rzs

import (
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// TestProofBonusPrefersFewestLeft checks the selection rule of
// Options.ProofBonus on a hand-built root: two living moves with the same
// prior, visits and value, after which the killer has 5 moves (none
// refuted yet) and 2 moves (the rest refuted) left. Without the bonus the
// tie goes to the first; with it the second, whose AND node is nearer
// its proof, is searched. Proven, unexpanded and killer's nodes get no
// bonus.
func TestProofBonusPrefersFewestLeft(t *testing.T) {
	for _, tt := range []struct {
		bonus float64
		want  int
	}{{0, 0}, {0.1, 1}, {1, 1}} {
		s, pts := handBuiltRoot(t)
		s.tree.proofBonus = tt.bonus
		idx, _, _, ok := s.tree.selectChild(rootNode, s.skipper(rootNode))
		if !ok || idx != tt.want {
			t.Errorf("bonus %v: selected child %d (ok %v), want %d", tt.bonus, idx, ok, tt.want)
		}
		first := s.tree.node(rootNode).firstRec
		second := s.tree.node(first).nextSib
		for _, c := range []struct {
			rec  int32
			left int
		}{{first, len(pts)}, {second, 2}} {
			if left, ok := s.skipper(rootNode).remaining(c.rec); !ok || left != c.left {
				t.Errorf("remaining(%d) = %d, %v; want %d", c.rec, left, ok, c.left)
			}
		}
		s.tree.node(second).status = Win
		if _, ok := s.skipper(rootNode).remaining(second); ok {
			t.Errorf("a proven node has moves left")
		}
	}
}

// handBuiltRoot returns a solver whose root (the living side to move) has
// two visited children, alike but for the killer's moves left after them,
// and the killer's moves.
func handBuiltRoot(t *testing.T) (*mcSolver, []game.Point) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	for range 1000 {
		pr := randomProblem(rng, 10)
		if pr.Start.ToMove() != pr.Living() {
			continue
		}
		var empty []game.Point
		for _, p := range pr.Region.Points() {
			if pr.Start.At(p) == game.Empty {
				empty = append(empty, p)
			}
		}
		if len(empty) < 5 {
			continue
		}
		opts := Options{}
		opts.defaults(pr)
		s := newMCTSSolver(pr, opts)
		tr := s.tree
		tr.expand(rootNode, pr.Living(), empty[:2], []float32{0.5, 0.5})
		tr.node(rootNode).flags |= flagExpanded
		tr.node(rootNode).visits = 21
		killer := pr.Living().Opponent()
		for i, m := range empty[:2] {
			c := tr.child(rootNode, i, m)
			n := tr.node(c)
			n.visits, n.valueSum = 10, 5
			tr.expand(c, killer, empty[:5], []float32{0.2, 0.2, 0.2, 0.2, 0.2})
			tr.node(c).flags |= flagExpanded
			if i == 1 {
				a := s.and.alloc()
				*s.and.at(a) = andState{mustPlay: pointSetOf(empty[3:5])} // the pass and 3 moves refuted
				tr.node(c).aux = a
			}
		}
		if !s.isOR(rootNode) {
			t.Fatal("the root is not the living side's node")
		}
		return s, empty[:5]
	}
	t.Fatal("no random problem with the living side to move and 5 empty points")
	return nil, nil
}

func pointSetOf(pts []game.Point) game.PointSet {
	var s game.PointSet
	for _, p := range pts {
		s.Add(p)
	}
	return s
}
