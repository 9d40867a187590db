package neteval

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"lifezero/game"
	"lifezero/rzs"
)

// TestEvaluateBatchMatchesOne: a batch through one forward pass gives each
// position what Evaluate gives it alone, on positions of a real problem
// with both sides to move.
func TestEvaluateBatchMatchesOne(t *testing.T) {
	pr := loadProblem(t, "killall7x7", "01")
	e, err := New(randomNet(t, 7, 5), FTL)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []rzs.EvalRequest
	pos := pr.StartPosition()
	for range 6 {
		moves := pos.LegalMoves(nil, &pr.Region)
		reqs = append(reqs, rzs.EvalRequest{Pos: pos.Copy(), Problem: pr, Moves: append(moves, game.Pass)})
		if err := pos.Play(moves[len(moves)/2]); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.EvaluateBatch(reqs); err != nil {
		t.Fatal(err)
	}
	for i, r := range reqs {
		priors, value := e.Evaluate(r.Pos, r.Problem, r.Moves)
		if math.Abs(float64(value-r.Value)) > 1e-5 {
			t.Errorf("position %d: batch value %v, alone %v", i, r.Value, value)
		}
		for j := range priors {
			if math.Abs(float64(priors[j]-r.Priors[j])) > 1e-5 {
				t.Fatalf("position %d, move %v: batch prior %v, alone %v", i, r.Moves[j], r.Priors[j], priors[j])
			}
		}
	}
}

// TestSolveWithNetworkBatches: the solver evaluating 8 leaves a pass
// through the network agrees with the exhaustive reference solver on small
// kill-all positions (a real problem's start filled in by random moves).
func TestSolveWithNetworkBatches(t *testing.T) {
	start := loadProblem(t, "killall7x7", "13")
	e, err := New(randomNet(t, 7, 3), FTL)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	proved := 0
	for tries := 0; proved < 3 && tries < 60; tries++ {
		pr := *start
		pos := pr.StartPosition()
		for len(pos.LegalMoves(nil, &pr.Region)) > 7 {
			moves := pos.LegalMoves(nil, &pr.Region)
			if err := pos.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		var none game.PointSet
		if pr.Judge(pos, &none).Outcome != game.Undecided {
			continue
		}
		pos.ClearHistory()
		pr.Start = pos
		ref, err := rzs.NewReference(&pr, 200_000).Solve(pr.StartPosition(), pr.Crucial)
		if err != nil {
			continue // beyond the reference's budget
		}
		res := rzs.Solve(context.Background(), &pr, rzs.Options{Evaluator: e, Budget: 200_000, Batch: 8})
		if res.Status == rzs.Unknown {
			continue
		}
		proved++
		if res.Status != ref {
			t.Fatalf("try %d: batched solve proved %v, the reference %v", tries, res.Status, ref)
		}
	}
	if proved == 0 {
		t.Fatal("no position proven: nothing was compared")
	}
}
