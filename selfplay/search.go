package selfplay

import (
	"math/rand/v2"

	"lifezero/game"
	"lifezero/mcts"
	"lifezero/nn"
)

// state is where a descent of a game's search stands: the position and
// the crucial stones still standing there.
type state struct {
	s        *search
	pos      *game.Position
	standing game.PointSet
}

// leaf is a position waiting for the network.
type leaf = mcts.Leaf[state]

// search is the PUCT search of one move of one game: mcts.Search over the
// game's tree, with the game's rules as its hooks. It is driven from
// outside: collect gathers its leaves, the batcher evaluates them (with
// other games' leaves) and mcts.Evaluate expands them and backs them up.
type search struct {
	start    Start
	living   game.Color
	root     *game.Position
	standing game.PointSet // crucial stones standing at the root
	tree     *mcts.Tree
	core     *mcts.Search[state]
	// trackCrucial says whether the living side's goal is to keep its
	// crucial stones, so a descent follows which still stand.
	trackCrucial bool
	// ftl says whether values are d_w-wins (the root is before move d_w)
	// or plain wins (the game is past d_w without life).
	ftl     bool
	dw      int
	maxMove int
	alpha   float64
	eps     float64
	rng     *rand.Rand
	weights []float64 // choose's per-child weights, kept for the next move
	// slots are the scratch positions of the leaves one collect gathers,
	// slot the one being gathered: a descent copies the root into its
	// leaf's slot. A leaf's position is read until its batch is
	// evaluated, which comes before the search's next collect.
	slots []*game.Position
	slot  int
}

// newSearch starts the search of root. spare, if not nil, is a search no
// longer used, whose tree and per-node memory the new one takes over.
func newSearch(start Start, root *game.Position, standing game.PointSet, g *gameParams, rng *rand.Rand, spare *search) *search {
	pr := start.Problem
	s := spare
	if s == nil {
		s = &search{}
	}
	*s = search{
		start: start, living: pr.Living(), root: root, standing: standing, tree: s.tree, core: s.core, weights: s.weights, slots: s.slots,
		trackCrucial: pr.Goal[pr.Living()] == game.GoalLive,
		ftl:          root.MoveNumber() < g.dw, dw: g.dw, maxMove: g.maxMove,
		alpha: g.alpha, eps: g.eps, rng: rng,
	}
	if s.tree == nil {
		s.tree = mcts.NewTree(root.ToMove().Opponent())
		s.core = mcts.NewSearch(s.tree, s.living, g.sims, mcts.Hooks[state]{
			Root: s.rootState, Play: s.play, Judge: s.judge, RootPriors: s.noise})
		return s
	}
	s.tree.Reset(root.ToMove().Opponent())
	s.core.Reset(s.living, g.sims)
	return s
}

// noise mixes Dirichlet noise into the root's priors (none at weight 0).
func (s *search) noise(priors []float32) {
	if s.eps > 0 {
		mcts.AddDirichletNoise(priors, s.alpha, s.eps, s.rng)
	}
}

// adopt makes a copy of the subtree of old below node id (the current
// position, evaluated there) this search's tree, when both value leaves
// alike (both before d_w or both after). The visits already there count as
// simulations done; the root's priors get fresh Dirichlet noise, as a new
// root's do. old's tree is not used by s afterwards.
func (s *search) adopt(old *search, id mcts.NodeID) {
	if old.ftl != s.ftl || old.dw != s.dw {
		return
	}
	tree := s.tree
	s.core.Inherit(old.core, tree.CopySubtree(old.tree, id))
	root := tree.Node(0)
	if s.eps > 0 && root.NumChildren > 0 {
		priors := make([]float32, root.NumChildren)
		for i := range priors {
			priors[i] = tree.Node(root.FirstChild + mcts.NodeID(i)).Prior
		}
		mcts.AddDirichletNoise(priors, s.alpha, s.eps, s.rng)
		for i, p := range priors {
			tree.Node(root.FirstChild + mcts.NodeID(i)).Prior = p
		}
	}
}

// rootState is a descent's start: the root position, copied into the
// slot of the leaf being gathered (whose superko history storage it
// reuses, so that the descent's moves append to it in place).
func (s *search) rootState() state {
	pos := s.slots[s.slot]
	s.root.CopyTo(pos)
	return state{s: s, pos: pos, standing: s.standing}
}

// play moves a descent on by m.
func (s *search) play(st *state, m game.Point) error {
	if err := st.pos.Play(m); err != nil {
		return err
	}
	if s.trackCrucial {
		st.standing = s.start.Problem.Standing(st.pos, &st.standing)
	}
	return nil
}

// judge returns the living side's result where the game is over (a life,
// a failure, or the move cap, which counts as a failure): a life after
// move d_w is a loss while the search plays for d_w-wins.
func (s *search) judge(st *state) (value float64, over bool) {
	switch s.start.Problem.Judge(st.pos, &st.standing).Outcome {
	case game.LivingWins:
		if s.ftl && st.pos.MoveNumber() > s.dw {
			return 0, true
		}
		return 1, true
	case game.LivingFails:
		return 0, true
	}
	return 0, st.pos.MoveNumber() >= s.maxMove
}

// leafValue is the living side's expected result at an evaluated leaf: the
// d-win probability for the moves left until d_w, or, past d_w, the value
// head seen from the living side.
func (s *search) leafValue(pos *game.Position, v float32, dwin []float32) float64 {
	if s.ftl {
		r := s.dw - pos.MoveNumber()
		if r < 1 || len(dwin) == 0 {
			return 0
		}
		return mcts.Clamp01(float64(dwin[min(r, len(dwin))-1]))
	}
	return mcts.LivingValue(float64(v), pos.ToMove(), s.living)
}

// fill sets an evaluated leaf's moves (the legal moves at its position),
// their priors from the network's policy, and its value. The moves and
// priors are appended to the batcher's arenas: the leaves of one batch
// share them, and the next batch may reuse them, since applying a leaf
// copies its moves and priors into the tree.
func (bt *batcher) fill(lf *leaf, policy []float32, v float32, dwin []float32) {
	s, pos := lf.State.s, lf.State.pos
	n := len(bt.moves)
	// legalMoves writes in place while the arena has room; growing it copies.
	bt.moves = append(bt.moves[:n], s.start.legalMoves(pos, bt.moves[n:])...)
	lf.ToMove = pos.ToMove()
	lf.Moves = bt.moves[n:len(bt.moves):len(bt.moves)]
	k := len(bt.priors)
	bt.priors = nn.AppendMovePriors(bt.priors, &pos.Board, policy, lf.Moves)
	lf.Priors = bt.priors[k:len(bt.priors):len(bt.priors)]
	lf.Value = s.leafValue(pos, v, dwin)
}

// choose picks the move to play after the search: in proportion to the
// root's visit counts when sample is set (temperature 1), else the most
// visited (ties to the higher prior). It also returns the policy target:
// the visit counts over the N²+1 moves, normalised.
func (s *search) choose(sample bool, policySize int) (game.Point, []float32) {
	policy := make([]float32, policySize)
	kids := s.tree.Children(0)
	total := 0
	for _, c := range kids {
		total += int(s.tree.Node(c).Visits)
	}
	weights := s.weights[:0]
	for _, c := range kids {
		if total == 0 {
			weights = append(weights, float64(s.tree.Node(c).Prior))
		} else {
			weights = append(weights, float64(s.tree.Node(c).Visits))
		}
	}
	s.weights = weights
	var sum float64
	for _, w := range weights {
		sum += w
	}
	for i, c := range kids {
		if k := nn.MoveIndex(&s.root.Board, s.tree.Node(c).Move); k >= 0 && k < policySize && sum > 0 {
			policy[k] = float32(weights[i] / sum)
		}
	}
	best := -1
	if sample {
		best = mcts.DrawWeighted(s.rng, weights) // -1 when nothing has weight
	}
	if best < 0 {
		best = 0
		for i := 1; i < len(kids); i++ {
			bp, cp := s.tree.Node(kids[best]).Prior, s.tree.Node(kids[i]).Prior
			if weights[i] > weights[best] || (weights[i] == weights[best] && cp > bp) {
				best = i
			}
		}
	}
	return s.tree.Node(kids[best]).Move, policy
}
