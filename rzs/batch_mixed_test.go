package rzs

import (
	"slices"
	"testing"

	"lifezero/game"
)

// batchPositions returns requests for n positions of a real problem, the
// start and the lines after it, with both sides to move.
func batchPositions(t *testing.T, pr *game.Problem, n int) []EvalRequest {
	t.Helper()
	var reqs []EvalRequest
	pos := pr.StartPosition()
	for range n {
		moves := pos.LegalMoves(nil, &pr.Region)
		reqs = append(reqs, EvalRequest{Pos: pos.Copy(), Problem: pr, Moves: append(slices.Clone(moves), game.Pass)})
		if err := pos.Play(moves[len(moves)/3]); err != nil {
			t.Fatal(err)
		}
	}
	return reqs
}

// TestWrappersPassBatches: Mixed and Learned hand a batch whole to the
// part that takes batches (one call, every position) and give each
// position exactly what Evaluate gives it alone.
func TestWrappersPassBatches(t *testing.T) {
	pr := sharedProblem(t, "killall7x7", "01")
	for _, c := range []struct {
		name string
		// wrap builds the evaluator around rec, the part that takes
		// batches.
		wrap func(rec *batchRecorder) Evaluator
	}{
		{"mixed-value", func(r *batchRecorder) Evaluator { return Mixed{Base: LDB(), Other: r, Value: true} }},
		{"mixed-priors", func(r *batchRecorder) Evaluator { return Mixed{Base: LDB(), Other: r, Priors: true} }},
		{"mixed-both", func(r *batchRecorder) Evaluator { return Mixed{Base: LDB(), Other: r, Priors: true, Value: true} }},
		{"mixed-batch-base", func(r *batchRecorder) Evaluator { return Mixed{Base: r, Other: LDB(), Priors: true, Value: true} }},
		{"learned", func(r *batchRecorder) Evaluator { return Learned{Base: r, Ranker: noiseRanker{}, Weight: 3} }},
		{"learned-replace", func(r *batchRecorder) Evaluator { return Learned{Base: r, Ranker: noiseRanker{}, Replace: true} }},
		{"learned-mixed", func(r *batchRecorder) Evaluator {
			return Learned{Base: Mixed{Base: LDB(), Other: r, Priors: true, Value: true}, Ranker: noiseRanker{}}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Heuristic is not LDB: a mix of the two differs from either.
			rec := &batchRecorder{Evaluator: Heuristic{}}
			e := c.wrap(rec)
			be, ok := e.(BatchEvaluator)
			if !ok {
				t.Fatalf("%T is not a BatchEvaluator", e)
			}
			reqs := batchPositions(t, pr, 7)
			if err := be.EvaluateBatch(reqs); err != nil {
				t.Fatal(err)
			}
			if rec.calls != 1 || rec.leaves != len(reqs) {
				t.Fatalf("the batch part got %d leaves in %d calls, want %d in one", rec.leaves, rec.calls, len(reqs))
			}
			checkBatchAsAlone(t, e, reqs)
			// Evaluate went position by position: the recorder counts
			// only batches.
			if rec.calls != 1 {
				t.Fatalf("Evaluate went through the batch call")
			}
		})
	}
}

// TestWrappersWithoutBatchPart: wrappers of plain evaluators still take
// batches, position by position, with Evaluate's answers.
func TestWrappersWithoutBatchPart(t *testing.T) {
	pr := sharedProblem(t, "killall7x7", "01")
	for _, e := range []BatchEvaluator{
		Mixed{Base: LDB(), Other: Heuristic{}, Priors: true, Value: true},
		Learned{Base: LDB(), Ranker: noiseRanker{}},
	} {
		reqs := batchPositions(t, pr, 5)
		if err := e.EvaluateBatch(reqs); err != nil {
			t.Fatal(err)
		}
		for i, r := range reqs {
			priors, value := e.Evaluate(r.Pos, r.Problem, r.Moves)
			if value != r.Value || !slices.Equal(priors, r.Priors) {
				t.Fatalf("%T position %d: batch value %v priors %v, alone %v %v", e, i, r.Value, r.Priors, value, priors)
			}
		}
	}
}

// checkBatchAsAlone checks that each request of an evaluated batch holds
// exactly what e.Evaluate gives its position alone.
func checkBatchAsAlone(t *testing.T, e Evaluator, reqs []EvalRequest) {
	t.Helper()
	for i, r := range reqs {
		priors, value := e.Evaluate(r.Pos, r.Problem, r.Moves)
		if value != r.Value || !slices.Equal(priors, r.Priors) {
			t.Fatalf("position %d: batch value %v priors %v, alone %v %v", i, r.Value, r.Priors, value, priors)
		}
	}
}
