package gtpengine

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"lifezero/game"
	"lifezero/mcts"
	"lifezero/nn"
)

// sequentialScores is the PUCT search the player made before it moved onto
// mcts.Search, written out on its own as the test's reference: the root
// expanded first from one network call (not a simulation), then sims
// descents from the root, each evaluating and expanding one leaf (the
// sensible moves and the pass) or valuing a position after two passes by
// its area score, backed up for the side to move there.
func sequentialScores(t *testing.T, net *nn.Evaluator, g *Game, moves []game.Point, sims int) []float64 {
	t.Helper()
	planes := make([]float32, net.Config().InputSize())
	root := g.Position()
	tree := mcts.NewTree(root.ToMove().Opponent())
	priors, _, err := evaluate(net, root, moves, planes)
	if err != nil {
		t.Fatal(err)
	}
	tree.Expand(0, root.ToMove(), moves, priors)
	for range sims {
		pos := root.Copy()
		id := mcts.NodeID(0)
		for tree.Node(id).Expanded() {
			id = tree.SelectChild(id)
			if err := pos.Play(tree.Node(id).Move); err != nil {
				t.Fatal(err)
			}
		}
		var value float64
		if pos.Passes() >= 2 {
			value = areaValue(pos, g.Komi)
		} else {
			kids := append(SensibleMoves(nil, pos), game.Pass)
			pr, v, err := evaluate(net, pos, kids, planes)
			if err != nil {
				t.Fatal(err)
			}
			tree.Expand(id, pos.ToMove(), kids, pr)
			value = float64(1+v) / 2
		}
		tree.Backup(id, value, pos.ToMove(), false)
	}
	scores := make([]float64, len(moves))
	for i, c := range tree.Children(0) {
		scores[i] = math.Log(float64(tree.Node(c).Visits))
	}
	return scores
}

// randomGames returns games of random sensible moves on a 7x7 board, the
// longer ones filled up so that searches meet games ended by two passes,
// one of them after a pass.
func randomGames(t *testing.T) []*Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 1))
	var games []*Game
	for _, n := range []int{0, 1, 8, 20, 35, 60} {
		g, err := NewGame(7, 7.5)
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			pos := g.Position()
			moves := SensibleMoves(nil, pos)
			m := game.Pass
			if len(moves) > 0 {
				m = moves[rng.IntN(len(moves))]
			}
			if err := g.Play(pos.ToMove(), m); err != nil {
				t.Fatal(err)
			}
		}
		games = append(games, g)
	}
	g := games[len(games)-1]
	if err := g.Play(g.Position().ToMove(), game.Pass); err != nil {
		t.Fatal(err)
	}
	return games
}

// TestMCTSPlayerMatchesSequentialSearch: one leaf at a time, the player's
// scores equal the reference search's to the bit, on every position and
// budget, with one player searching all of them in turn (its tree and
// search recycled from move to move).
func TestMCTSPlayerMatchesSequentialSearch(t *testing.T) {
	w := netWeights(t, 7)
	net, err := nn.NewEvaluator(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, sims := range []int{1, 24, 150} {
		p, err := NewMCTSPlayer(w, sims)
		if err != nil {
			t.Fatal(err)
		}
		for gi, g := range randomGames(t) {
			moves := SensibleMoves(nil, g.Position())
			if len(moves) == 0 {
				continue
			}
			want := sequentialScores(t, net, g, moves, sims)
			got := make([]float64, len(moves))
			if err := p.Scores(context.Background(), g, moves, got); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("sims %d, game %d, move %v: score %v, the sequential search's %v",
						sims, gi, moves[i], got[i], want[i])
				}
			}
		}
	}
}

// TestMCTSPlayerBatch: with leaves gathered under virtual loss, every
// simulation still goes through one root move, none is lost or counted
// twice, and the visits spread over several moves.
func TestMCTSPlayerBatch(t *testing.T) {
	const sims = 200
	p, err := NewMCTSPlayer(netWeights(t, 7), sims)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetBatch(0); err == nil {
		t.Fatal("SetBatch(0) accepted")
	}
	for _, batch := range []int{1, 8} {
		if err := p.SetBatch(batch); err != nil {
			t.Fatal(err)
		}
		for gi, g := range randomGames(t) {
			moves := SensibleMoves(nil, g.Position())
			if len(moves) == 0 {
				continue
			}
			scores := make([]float64, len(moves))
			if err := p.Scores(context.Background(), g, moves, scores); err != nil {
				t.Fatal(err)
			}
			total, visited := 0.0, 0
			for _, s := range scores {
				if !math.IsInf(s, -1) {
					total += math.Exp(s)
					visited++
				}
			}
			if math.Round(total) != sims {
				t.Errorf("batch %d, game %d: root moves visited %v times, want %d", batch, gi, total, sims)
			}
			if len(moves) > 1 && visited < 2 {
				t.Errorf("batch %d, game %d: %d of %d root moves visited", batch, gi, visited, len(moves))
			}
		}
	}
}

// TestMCTSPlayerCancel: a cancelled context stops the search with its error.
func TestMCTSPlayerCancel(t *testing.T) {
	p, err := NewMCTSPlayer(netWeights(t, 7), 1000)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGame(7, 7.5)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	moves := SensibleMoves(nil, g.Position())
	if err := p.Scores(ctx, g, moves, make([]float64, len(moves))); err != context.Canceled {
		t.Fatalf("cancelled search: %v, want context.Canceled", err)
	}
}
