package rzs_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"lifezero/game"
	"lifezero/internal/testdata"
	"lifezero/neteval"
	"lifezero/nn"
	"lifezero/rzs"
)

// These tests mix a real network (random weights of the smallest preset,
// as package neteval's tests build it) with the built-in evaluator, as
// "lifezero solve --net W --net-with ldb" does.

func smallNet(t *testing.T, board int, seed uint64) *neteval.Evaluator {
	t.Helper()
	c, err := nn.Preset(nn.Preset2x16, board)
	if err != nil {
		t.Fatal(err)
	}
	w, err := nn.NewWeights(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	e, err := neteval.New(w, neteval.FTL)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func loadShared(t *testing.T, set, id string) *game.Problem {
	t.Helper()
	pr, err := game.LoadProblem(testdata.Path(t, "problems", set, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// netCounter counts the batches a network evaluator is handed.
type netCounter struct {
	*neteval.Evaluator
	calls, leaves, most int
}

func (n *netCounter) EvaluateBatch(reqs []rzs.EvalRequest) error {
	n.calls++
	n.leaves += len(reqs)
	n.most = max(n.most, len(reqs))
	return n.Evaluator.EvaluateBatch(reqs)
}

// TestMixedNetworkBatch: Mixed over LDB and a network takes a batch in one
// forward pass and gives each position exactly what Evaluate gives it,
// for every mix and for Learned on top.
func TestMixedNetworkBatch(t *testing.T) {
	pr := loadShared(t, "killall7x7", "01")
	for _, c := range []struct {
		name string
		wrap func(net rzs.Evaluator) rzs.BatchEvaluator
	}{
		{"value", func(n rzs.Evaluator) rzs.BatchEvaluator { return rzs.Mixed{Base: rzs.LDB(), Other: n, Value: true} }},
		{"priors", func(n rzs.Evaluator) rzs.BatchEvaluator { return rzs.Mixed{Base: rzs.LDB(), Other: n, Priors: true} }},
		{"both", func(n rzs.Evaluator) rzs.BatchEvaluator {
			return rzs.Mixed{Base: rzs.LDB(), Other: n, Priors: true, Value: true}
		}},
		{"learned-over-both", func(n rzs.Evaluator) rzs.BatchEvaluator {
			return rzs.Learned{Base: rzs.Mixed{Base: rzs.LDB(), Other: n, Priors: true, Value: true}, Ranker: centreRanker{}}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			net := &netCounter{Evaluator: smallNet(t, 7, 5)}
			e := c.wrap(net)
			var reqs []rzs.EvalRequest
			pos := pr.StartPosition()
			for range 6 {
				moves := pos.LegalMoves(nil, &pr.Region)
				reqs = append(reqs, rzs.EvalRequest{Pos: pos.Copy(), Problem: pr, Moves: append(slices.Clone(moves), game.Pass)})
				if err := pos.Play(moves[len(moves)/2]); err != nil {
					t.Fatal(err)
				}
			}
			if err := e.EvaluateBatch(reqs); err != nil {
				t.Fatal(err)
			}
			if net.calls != 1 || net.leaves != len(reqs) {
				t.Fatalf("the network got %d positions in %d batches, want %d in one", net.leaves, net.calls, len(reqs))
			}
			rzs.CheckBatchAsAlone(t, e, reqs)
		})
	}
}

// centreRanker scores a move by its closeness to the board's centre: a
// ranker with an opinion, independent of the network's.
type centreRanker struct{}

func (centreRanker) Rank(pos *game.Position, moves []game.Point, scores []float64) error {
	c := float64(pos.Size()-1) / 2
	for i, m := range moves {
		if m == game.Pass {
			continue
		}
		x, y := pos.XY(m)
		scores[i] = -((float64(x)-c)*(float64(x)-c) + (float64(y)-c)*(float64(y)-c))
	}
	return nil
}

// TestMixedNetworkBatchedSolve: the solver evaluating 8 leaves a step
// through Mixed (LDB with a network, each mix in turn) agrees with the
// exhaustive reference on the soundness tests' random positions, and the
// network got its leaves in batches.
func TestMixedNetworkBatchedSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	want := 60
	if testing.Short() {
		want = 20
	}
	nets := map[int]*netCounter{6: {Evaluator: smallNet(t, 6, 3)}, 7: {Evaluator: smallNet(t, 7, 3)}}
	compared, unknown, skipped, wins, nodes := 0, 0, 0, 0, 0
	for tries := 0; compared < want && tries < 10*want; tries++ {
		pr := rzs.RandomProblem(rng, 10)
		ref, err := rzs.NewReference(pr, 200_000).Solve(pr.StartPosition(), pr.Crucial)
		if err != nil {
			skipped++
			continue
		}
		if ref == rzs.Loss && rng.IntN(3) > 0 {
			continue // keep wins and losses about even
		}
		net := nets[pr.Start.Size()]
		mix := []rzs.Mixed{
			{Base: rzs.LDB(), Other: net, Value: true},
			{Base: rzs.LDB(), Other: net, Priors: true},
			{Base: rzs.LDB(), Other: net, Priors: true, Value: true},
		}[compared%3]
		res := rzs.Solve(context.Background(), pr, rzs.Options{Evaluator: mix, Budget: 200_000, Batch: 8})
		compared++
		nodes += res.Nodes
		switch {
		case res.Status == rzs.Unknown:
			unknown++
		case res.Status != ref:
			t.Fatalf("priors %v value %v: batched solve proved %v, the reference %v:\n%v\nliving %v crucial %v",
				mix.Priors, mix.Value, res.Status, ref, pr.Start, pr.Living(), pr.Crucial.Points())
		case res.Status == rzs.Win:
			wins++
		}
	}
	if compared < want || unknown > compared/10 {
		t.Fatalf("%d positions compared (%d unproven), want %d mostly proven", compared, unknown, want)
	}
	if wins == 0 || wins == compared-unknown {
		t.Fatalf("%d wins of %d proven: want both outcomes", wins, compared-unknown)
	}
	most := max(nets[6].most, nets[7].most)
	if most < 2 {
		t.Fatalf("the networks got at most %d positions at once, want batches", most)
	}
	t.Logf("%d positions agree with the reference (%d wins, %d unproven, %d over the reference's budget) in %d nodes; networks' batches: 6x6 %d in %d calls, 7x7 %d in %d calls (most %d)",
		compared, wins, unknown, skipped, nodes, nets[6].leaves, nets[6].calls, nets[7].leaves, nets[7].calls, most)
}
