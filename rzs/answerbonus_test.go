package rzs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"lifezero/game"
)

// TestSiblingAnswers checks Options.AnswerBonus on a hand-built tree: the
// killer to move at the root, its first move refuted by the living side's
// second reply. A living node created under the root's second move gets
// that reply's prior raised by the bonus and the priors normalised again;
// the evaluator's slice is left alone; a reply that is not a legal move
// there, an unproven sibling and the sibling itself give nothing.
func TestSiblingAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 1000 {
		pr := randomProblem(rng, 10)
		if pr.Start.ToMove() == pr.Living() {
			continue
		}
		var empty []game.Point
		for _, p := range pr.Region.Points() {
			if pr.Start.At(p) == game.Empty {
				empty = append(empty, p)
			}
		}
		if len(empty) < 4 {
			continue
		}
		opts := Options{AnswerBonus: 1}
		opts.defaults(pr)
		s := newMCTSSolver(pr, opts)
		tr := s.tree
		killer, living := pr.Living().Opponent(), pr.Living()
		tr.expand(rootNode, killer, empty[:2], []float32{0.5, 0.5})
		first := tr.child(rootNode, 0, empty[0])
		second := tr.child(rootNode, 1, empty[1])
		replies := []game.Point{empty[1], empty[2], empty[3]}
		tr.expand(first, living, replies, []float32{0.4, 0.3, 0.3})
		tr.child(first, 0, replies[0])
		answer := tr.child(first, 1, replies[1])
		if got := s.siblingAnswers(second, nil); len(got) != 0 {
			t.Fatalf("answers %v before the sibling is proven, want none", got)
		}
		tr.node(answer).status = Win
		tr.node(first).status = Win
		if got := s.siblingAnswers(second, nil); !slices.Equal(got, []game.Point{replies[1]}) {
			t.Fatalf("answers %v, want [%v]", got, replies[1])
		}
		if got := s.siblingAnswers(first, nil); len(got) != 0 {
			t.Errorf("a node's own reply counted as its sibling's answer: %v", got)
		}
		moves := []game.Point{empty[0], empty[2], empty[3]}
		priors := []float32{0.6, 0.2, 0.2}
		got := s.withAnswers(second, moves, priors)
		want := []float32{0.3, 0.6, 0.1}
		for i := range want {
			if math.Abs(float64(got[i]-want[i])) > 1e-6 {
				t.Fatalf("priors %v, want %v", got, want)
			}
		}
		if !slices.Equal(priors, []float32{0.6, 0.2, 0.2}) {
			t.Errorf("the evaluator's priors changed to %v", priors)
		}
		other := []game.Point{empty[0], empty[3]}
		if got := s.withAnswers(second, other, []float32{0.5, 0.5}); !slices.Equal(got, []float32{0.5, 0.5}) {
			t.Errorf("no answer among the moves, yet priors %v", got)
		}
		return
	}
	t.Fatal("no random problem with the killer to move and four empty points")
}
