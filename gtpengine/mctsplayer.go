package gtpengine

import (
	"context"
	"fmt"
	"math"

	"lifezero/game"
	"lifezero/mcts"
	"lifezero/nn"
)

// leaf is a position the search wants the network to evaluate. Its state
// is the scratch position of the batch slot it was collected in.
type leaf = mcts.Leaf[*game.Position]

// MCTSPlayer plays by PUCT search (mcts.Search) with a network: the policy
// gives the priors, the value head the leaf values, and a position after
// two passes is valued by its area score. The root's children are the
// engine's sensible moves; inner nodes also consider the pass. Its scores
// are the log of the root children's visit counts, so the most visited
// move is played.
//
// The root's evaluation is not a simulation: a search of N simulations
// makes N descents below the root. A player is used by one goroutine at a
// time (the engine's); it keeps its tree and search from move to move.
type MCTSPlayer struct {
	net   *nn.Evaluator
	sims  int
	batch int
	eval  leafEvaluator
	tree  *mcts.Tree
	core  *mcts.Search[*game.Position]
	// root and komi are the position and komi of the move being searched.
	root *game.Position
	komi float64
	// slots hold one scratch position per leaf of a batch; slot is the
	// one the descent being made starts from.
	slots  []*game.Position
	slot   int
	leaves []*leaf
}

// NewMCTSPlayer returns a search player over weights w that runs sims
// simulations per move, evaluating one leaf at a time.
func NewMCTSPlayer(w *nn.Weights, sims int) (*MCTSPlayer, error) {
	if sims < 1 {
		return nil, fmt.Errorf("gtpengine: %d simulations: want at least 1", sims)
	}
	e, err := nn.NewEvaluator(w)
	if err != nil {
		return nil, fmt.Errorf("gtpengine: %w", err)
	}
	p := &MCTSPlayer{net: e, sims: sims, batch: 1, eval: leafEvaluator{net: e}}
	p.tree = mcts.NewTree(game.White)
	p.core = mcts.NewSearch(p.tree, game.Black, sims+1, mcts.Hooks[*game.Position]{
		Root: p.rootState, Play: play, Judge: p.judge})
	return p, nil
}

// SetBatch sets how many leaves the search gathers, under virtual loss,
// for one network call. At 1 (the default) the search is the plain
// sequential PUCT search; more calls the network less often, on larger
// batches, at the cost of descents that spread out before the values of
// the leaves in flight are known (so other moves for the same seed).
func (p *MCTSPlayer) SetBatch(n int) error {
	if n < 1 {
		return fmt.Errorf("gtpengine: batch of %d leaves: want at least 1", n)
	}
	p.batch = n
	return nil
}

// Name returns "mcts<N>".
func (p *MCTSPlayer) Name() string { return fmt.Sprintf("mcts%d", p.sims) }

// CheckSize accepts the network's board size only.
func (p *MCTSPlayer) CheckSize(size int) error { return checkNetSize(p.net, size) }

// Scores runs the search from g's position and writes the log of each
// root move's visits (-Inf for a move never visited).
func (p *MCTSPlayer) Scores(ctx context.Context, g *Game, moves []game.Point, scores []float64) error {
	p.root, p.komi = g.Position(), g.Komi
	toMove := p.root.ToMove()
	p.tree.Reset(toMove.Opponent())
	// The root's evaluation counts as the search's first simulation.
	p.core.Reset(toMove, p.sims+1)
	p.eval.root, p.eval.rootMoves, p.eval.perspective = p.tree.Root(), moves, toMove
	for i := 0; !p.core.Finished(); i++ {
		if i%32 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		leaves, err := p.collect()
		if err != nil {
			return fmt.Errorf("gtpengine: search: %w", err)
		}
		if err := mcts.Evaluate(&p.eval, leaves); err != nil {
			return err
		}
		if i == 0 {
			p.uncountRoot()
		}
	}
	for i, c := range p.tree.Children(p.tree.Root()) {
		scores[i] = math.Log(float64(p.tree.Node(c).Visits))
	}
	return nil
}

// uncountRoot takes the root's evaluation, which the search backed up as a
// simulation, out of the root's statistics: the first descent then sees
// an unvisited root, as the player's searches always have, so the same
// seed and network keep playing the same moves.
func (p *MCTSPlayer) uncountRoot() {
	root := p.tree.Node(p.tree.Root())
	root.Visits, root.ValueSum = 0, 0
}

// collect gathers up to p.batch leaves, one per slot: each Collect of one
// leaf starts its descents from the slot's scratch position. It stops
// early when the search wants no more or the next descent meets a leaf in
// flight.
func (p *MCTSPlayer) collect() ([]*leaf, error) {
	for len(p.slots) < p.batch {
		p.slots = append(p.slots, new(game.Position))
	}
	leaves := p.leaves[:0]
	for p.slot = 0; p.slot < p.batch; p.slot++ {
		n := len(leaves)
		var err error
		if leaves, err = p.core.Collect(1, leaves); err != nil {
			return nil, err
		}
		if len(leaves) == n {
			break
		}
	}
	p.leaves = leaves
	return leaves, nil
}

// rootState starts a descent: the root position copied into the slot's
// scratch position.
func (p *MCTSPlayer) rootState() *game.Position {
	pos := p.slots[p.slot]
	p.root.CopyTo(pos)
	return pos
}

// play moves a descent on by m.
func play(st **game.Position, m game.Point) error { return (*st).Play(m) }

// judge values a position after two passes by its area score.
func (p *MCTSPlayer) judge(st **game.Position) (float64, bool) {
	pos := *st
	if pos.Passes() < 2 {
		return 0, false
	}
	return forSide(areaValue(pos, p.komi), pos.ToMove(), p.eval.perspective), true
}

// leafEvaluator evaluates a batch of leaves in one network call: each
// leaf's children are the root's moves at the root, else the sensible
// moves and the pass.
type leafEvaluator struct {
	net         *nn.Evaluator
	planes      []float32
	kids        [][]game.Point // per leaf of a batch, its moves
	root        mcts.NodeID
	rootMoves   []game.Point
	perspective game.Color // the side values are backed up for
}

// EvaluateBatch runs the network on the leaves' positions and fills their
// moves, priors and values.
func (e *leafEvaluator) EvaluateBatch(leaves []*leaf) error {
	cfg := e.net.Config()
	in := cfg.InputSize()
	if need := len(leaves) * in; len(e.planes) < need {
		e.planes = make([]float32, need)
	}
	for len(e.kids) < len(leaves) {
		e.kids = append(e.kids, nil)
	}
	for i, lf := range leaves {
		if err := cfg.Encode(lf.State, nil, e.planes[i*in:(i+1)*in]); err != nil {
			return err
		}
	}
	policy, value, _, err := e.net.Forward(e.planes[:len(leaves)*in], len(leaves))
	if err != nil {
		return err
	}
	for i, lf := range leaves {
		pos := lf.State
		moves := e.rootMoves
		if lf.ID != e.root {
			e.kids[i] = append(SensibleMoves(e.kids[i][:0], pos), game.Pass)
			moves = e.kids[i]
		}
		lf.ToMove, lf.Moves = pos.ToMove(), moves
		lf.Priors = nn.MovePriors(&pos.Board, policy[i], moves)
		// float64(1+v)/2 as the player has always computed it: the same
		// network output gives the same value to the bit.
		lf.Value = forSide(float64(1+value[i])/2, pos.ToMove(), e.perspective)
	}
	return nil
}

// forSide turns a value for toMove into one for side. Values are
// multiples of 2^-25 (float32 1+v halved, or an area result), so 1-(1-v)
// is v again: the tree's sums are those of backing v up for toMove.
func forSide(v float64, toMove, side game.Color) float64 {
	if toMove != side {
		return 1 - v
	}
	return v
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
