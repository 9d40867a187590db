package gtpengine

import (
	"context"
	"fmt"
	"math"

	"lifezero/game"
	"lifezero/mcts"
	"lifezero/nn"
)

// MCTSPlayer plays by PUCT search (package mcts) with a network: the
// policy gives the priors, the value head the leaf values, and a position
// after two passes is valued by its area score. The root's children are
// the engine's sensible moves; inner nodes also consider the pass. Its
// scores are the log of the root children's visit counts, so the most
// visited move is played.
type MCTSPlayer struct {
	net    *nn.Evaluator
	sims   int
	planes []float32
}

// NewMCTSPlayer returns a search player over weights w that runs sims
// simulations per move.
func NewMCTSPlayer(w *nn.Weights, sims int) (*MCTSPlayer, error) {
	if sims < 1 {
		return nil, fmt.Errorf("gtpengine: %d simulations: want at least 1", sims)
	}
	e, err := nn.NewEvaluator(w)
	if err != nil {
		return nil, fmt.Errorf("gtpengine: %w", err)
	}
	return &MCTSPlayer{net: e, sims: sims, planes: make([]float32, w.Config.InputSize())}, nil
}

// Name returns "mcts<N>".
func (p *MCTSPlayer) Name() string { return fmt.Sprintf("mcts%d", p.sims) }

// CheckSize accepts the network's board size only.
func (p *MCTSPlayer) CheckSize(size int) error { return checkNetSize(p.net, size) }

// Scores runs the search from g's position and writes the log of each
// root move's visits (-Inf for a move never visited).
func (p *MCTSPlayer) Scores(ctx context.Context, g *Game, moves []game.Point, scores []float64) error {
	root := g.Position()
	tree := mcts.NewTree(root.ToMove().Opponent())
	priors, _, err := evaluate(p.net, root, moves, p.planes)
	if err != nil {
		return err
	}
	tree.Expand(0, root.ToMove(), moves, priors)
	var kids []game.Point
	var scratch game.Position // every simulation replays from root on it
	for i := range p.sims {
		if i%32 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		root.CopyTo(&scratch)
		pos := &scratch
		id := mcts.NodeID(0)
		for tree.Node(id).Expanded() {
			c := tree.Select(id, nil)
			if c == mcts.None {
				break
			}
			if err := pos.Play(tree.Node(c).Move); err != nil {
				return fmt.Errorf("gtpengine: search: %w", err) // children are legal moves: cannot happen
			}
			id = c
		}
		var value float64
		if pos.Passes() >= 2 {
			value = areaValue(pos, g.Komi)
		} else {
			kids = append(SensibleMoves(kids[:0], pos), game.Pass)
			pr, v, err := evaluate(p.net, pos, kids, p.planes)
			if err != nil {
				return err
			}
			tree.Expand(id, pos.ToMove(), kids, pr)
			value = float64(1+v) / 2
		}
		tree.Backup(id, value, pos.ToMove(), false)
	}
	for i, c := range tree.Children(0) {
		scores[i] = math.Log(float64(tree.Node(c).Visits))
	}
	return nil
}

// areaValue is the result of a finished game for the side to move: 1 for
// a win by area score, 0 for a loss, 1/2 for a draw.
func areaValue(pos *game.Position, komi float64) float64 {
	s := AreaScore(pos, komi)
	if pos.ToMove() == game.White {
		s = -s
	}
	switch {
	case s > 0:
		return 1
	case s < 0:
		return 0
	}
	return 0.5
}
