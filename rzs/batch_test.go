package rzs

import (
	"context"
	"testing"

	"lifezero/game"
)

// batchRecorder is a BatchEvaluator over a base evaluator that records the
// batches it is given, as a network evaluator would receive them.
type batchRecorder struct {
	Evaluator
	calls, leaves, most int
}

func (b *batchRecorder) EvaluateBatch(reqs []EvalRequest) error {
	b.calls++
	b.leaves += len(reqs)
	b.most = max(b.most, len(reqs))
	for i := range reqs {
		r := &reqs[i]
		r.Priors, r.Value = b.Evaluate(r.Pos, r.Problem, r.Moves)
	}
	return nil
}

// TestBatchProvesSharedProblems solves real problems evaluating eight
// leaves at once (under virtual loss) and checks each proof against the
// file's winner and the one-leaf search: batching changes the order of the
// search, never what it proves. It also checks that the evaluator was
// handed batches, with a batch evaluator and with a plain one.
func TestBatchProvesSharedProblems(t *testing.T) {
	forSharedProofs(t, func(t *testing.T, pr *game.Problem, seq Result) {
		rec := &batchRecorder{Evaluator: LDB()}
		for _, eval := range []Evaluator{rec, LDB()} {
			res := Solve(context.Background(), pr, Options{Budget: 200000, Evaluator: eval, Batch: 8})
			if res.Status != seq.Status {
				t.Fatalf("batch 8 (%T): %v in %d nodes, one leaf: %v in %d nodes", eval, res.Status, res.Nodes, seq.Status, seq.Nodes)
			}
			if want := pr.Winner == pr.Living(); (res.Status == Win) != want {
				t.Fatalf("batch 8 proves %v, the file's winner is %v", res.Status, pr.Winner)
			}
			if res.FirstMove == game.NoPoint {
				t.Fatalf("batch 8 proved %v without a first move", res.Status)
			}
			t.Logf("%s: one leaf %d nodes, batch 8 (%T) %d nodes", pr.ID, seq.Nodes, eval, res.Nodes)
		}
		if rec.most < 2 {
			t.Fatalf("batch evaluator got %d leaves in %d calls (at most %d at once), want batches of more than one", rec.leaves, rec.calls, rec.most)
		}
		t.Logf("%s: %d leaves in %d batch calls (mean %.1f, most %d)", pr.ID, rec.leaves, rec.calls, float64(rec.leaves)/float64(rec.calls), rec.most)
	})
}

// cancelAfter is an evaluator that cancels a context at its n-th call.
type cancelAfter struct {
	Evaluator
	n, calls int
	cancel   context.CancelFunc
}

func (c *cancelAfter) Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) ([]float32, float32) {
	if c.calls++; c.calls == c.n {
		c.cancel()
	}
	return c.Evaluator.Evaluate(pos, pr, moves)
}

// TestCancelStopsBatchedSearch checks that a cancelled context stops the
// MCTS form within the 256 nodes between two checks (and a step's leaves),
// also when a step settles several nodes at once.
func TestCancelStopsBatchedSearch(t *testing.T) {
	pr := sharedProblem(t, "killall7x7", "01")
	const at = 1000
	for _, batch := range []int{1, 8} {
		ctx, cancel := context.WithCancel(context.Background())
		res := Solve(ctx, pr, Options{Budget: 200000, Evaluator: &cancelAfter{Evaluator: LDB(), n: at, cancel: cancel}, Batch: batch})
		cancel()
		if !res.Aborted || res.Status != Unknown || res.Nodes < at || res.Nodes > at+256+batch {
			t.Errorf("batch %d: cancelled at evaluation %d: %v after %d nodes (aborted %v), want unknown within %d nodes", batch, at, res.Status, res.Nodes, res.Aborted, at+256+batch)
		}
	}
}
