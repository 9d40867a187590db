package neteval

import (
	"context"
	"slices"
	"testing"

	"lifezero/game"
	"lifezero/nn"
	"lifezero/rzs"
)

// steer is an rzs.Evaluator that runs the network evaluator and then
// steers the solver down a fixed line (nearly all prior on the line's next
// move), recording the problem view it is given at every position.
type steer struct {
	net   *Evaluator
	next  map[uint64]game.Point // position hash -> the line's move there
	views map[uint64]seen
}

type seen struct {
	pos  *game.Position
	view game.Problem
}

func (s *steer) Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) ([]float32, float32) {
	priors, value := s.net.Evaluate(pos, pr, moves)
	s.views[pos.Hash()] = seen{pos.Copy(), *pr}
	if m, ok := s.next[pos.Hash()]; ok {
		for i := range priors {
			priors[i] = 1e-6
			if moves[i] == m {
				priors[i] = 1
			}
		}
	}
	return priors, value
}

// TestSolverAndSelfPlayEncodeTheSameInput plays a real line on cho19-dev
// problem 073 in which White captures the two-stone block of Black's
// crucial stone T5 and Black plays on T5 again, so the stone standing there
// is no longer crucial. The solver is steered down that line with the
// network evaluator; the planes of the view it hands the evaluator at the
// end must be those self-play encodes for the same game (its standing
// crucial stones followed move by move as selfplay's player does), and must
// differ from the planes of the problem as loaded, where T5 is still
// crucial: the difference the one view removes.
func TestSolverAndSelfPlayEncodeTheSameInput(t *testing.T) {
	pr := loadProblem(t, "cho19-dev", "073")
	e, err := New(randomNet(t, 19, 3), FTL)
	if err != nil {
		t.Fatal(err)
	}
	line := []string{"A1", "T6", "B1", "S6", "C1", "R5", "T5"}
	s := &steer{net: e, next: map[uint64]game.Point{}, views: map[uint64]seen{}}

	// Self-play's side: the game played move by move, the standing crucial
	// stones updated after each move (selfplay/play.go, player.play).
	pos := pr.StartPosition()
	standing := pr.Crucial
	for _, v := range line {
		m, err := pos.ParseGTP(v)
		if err != nil {
			t.Fatal(err)
		}
		s.next[pos.Hash()] = m
		if err := pos.Play(m); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		standing = pr.Standing(pos, &standing)
		if o := pr.Judge(pos, &standing).Outcome; o != game.Undecided {
			t.Fatalf("the line is decided (%v) after %s", o, v)
		}
	}
	t5, _ := pos.ParseGTP("T5")
	if !pr.Crucial.Has(t5) || standing.Has(t5) || pos.At(t5) != game.Black {
		t.Fatalf("T5: crucial %v, standing %v, %v stone: the line does not replay a captured crucial point",
			pr.Crucial.Has(t5), standing.Has(t5), pos.At(t5))
	}
	var view game.Problem
	pr.StandingView(&view, &standing)
	selfPlay := encodeOrFail(t, e.Config(), pos, &view)

	// The solver's side.
	res := rzs.Solve(context.Background(), pr, rzs.Options{Budget: 3 * len(line), Evaluator: s})
	got, ok := s.views[pos.Hash()]
	if !ok {
		t.Fatalf("the solver never evaluated the line's end (%d nodes, %s)", res.Nodes, res.Status)
	}
	if got.pos.Board != pos.Board {
		t.Fatal("the solver's position at the line's end has other stones")
	}
	if got.view.Crucial != standing {
		t.Errorf("the solver's view holds crucial stones %v, self-play's %v",
			got.view.Crucial.Points(), standing.Points())
	}
	solver := encodeOrFail(t, e.Config(), got.pos, &got.view)
	if !slices.Equal(solver, selfPlay) {
		t.Errorf("the solver's network input differs from self-play's in %d of %d floats", diffCount(solver, selfPlay), len(solver))
	}
	if slices.Equal(encodeOrFail(t, e.Config(), pos, pr), selfPlay) {
		t.Error("the problem as loaded encodes as the standing view does: the test position shows no difference")
	}
}

func encodeOrFail(t *testing.T, c nn.Config, pos *game.Position, pr *game.Problem) []float32 {
	t.Helper()
	x := make([]float32, c.InputSize())
	if err := c.Encode(pos, pr, x); err != nil {
		t.Fatal(err)
	}
	return x
}

func diffCount(a, b []float32) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}
