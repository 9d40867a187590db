package selfplay

import (
	"fmt"
	"math/rand/v2"

	"lifezero/game"
	"lifezero/mcts"
	"lifezero/nn"
)

// nodeState is what the search knows of a tree node.
type nodeState uint8

const (
	stNew     nodeState = iota // not reached yet
	stPending                  // queued for evaluation (under virtual loss)
	stInner                    // evaluated and expanded
	stWin                      // the living side has lived here
	stFail                     // the living side has failed here, or the move cap
)

// search is the PUCT search of one move of one game. It is driven from
// outside: simulate descends to a leaf and either backs up a game end at
// once or returns the leaf for evaluation; apply expands an evaluated leaf
// and backs its value up.
type search struct {
	start    Start
	living   game.Color
	root     *game.Position
	standing game.PointSet // crucial stones standing at the root
	tree     *mcts.Tree
	state    []nodeState
	done     int // finished simulations
	pending  int // leaves queued and not applied yet
	sims     int // simulations wanted
	// ftl says whether values are d_w-wins (the root is before move d_w)
	// or plain wins (the game is past d_w without life).
	ftl     bool
	dw      int
	maxMove int
	alpha   float64
	eps     float64
	rng     *rand.Rand
}

// leaf is a position waiting for the network.
type leaf struct {
	s        *search
	id       mcts.NodeID
	pos      *game.Position
	standing game.PointSet
}

// newSearch starts the search of root. tree, if not nil, is a tree no
// longer used, whose memory the search takes over.
func newSearch(start Start, root *game.Position, standing game.PointSet, g *gameParams, rng *rand.Rand, tree *mcts.Tree) *search {
	if tree == nil {
		tree = mcts.NewTree(root.ToMove().Opponent())
	} else {
		tree.Reset(root.ToMove().Opponent())
	}
	return &search{
		start: start, living: start.Problem.Living(), root: root, standing: standing,
		tree: tree, state: []nodeState{stNew},
		sims: g.sims, ftl: root.MoveNumber() < g.dw, dw: g.dw, maxMove: g.maxMove,
		alpha: g.alpha, eps: g.eps, rng: rng,
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
	ids := tree.CopySubtree(old.tree, id)
	state := make([]nodeState, tree.Len())
	for nid, o := range ids {
		if o != mcts.None {
			state[nid] = old.state[o]
		}
	}
	s.tree, s.state = tree, state
	s.done = int(tree.Node(0).Visits)
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

// wantsMore reports whether the search should start another simulation.
func (s *search) wantsMore() bool { return s.done+s.pending < s.sims }

// finished reports whether every simulation has been backed up.
func (s *search) finished() bool { return s.done >= s.sims && s.pending == 0 }

// simulate runs one descent. It returns the leaf to evaluate, or nil when
// the descent ended at a game end (backed up at once) or ran into a leaf
// already queued (collided: nothing was done).
func (s *search) simulate() (lf *leaf, collided bool, err error) {
	pos := s.root.Copy()
	standing := s.standing
	trackCrucial := s.start.Problem.Goal[s.living] == game.GoalLive
	id := mcts.NodeID(0)
	for {
		switch s.state[id] {
		case stWin, stFail:
			s.tree.Backup(id, s.terminalValue(s.state[id], pos), s.living, false)
			s.done++
			return nil, false, nil
		case stPending:
			return nil, true, nil
		case stNew:
			if id != 0 { // the root is judged by the game before searching
				if st := s.judge(pos, &standing); st != stNew {
					s.state[id] = st
					continue
				}
			}
			s.state[id] = stPending
			s.pending++
			s.tree.AddVirtualLoss(id)
			return &leaf{s: s, id: id, pos: pos, standing: standing}, false, nil
		}
		child := s.tree.Select(id, nil)
		if child == mcts.None {
			return nil, false, fmt.Errorf("selfplay: search: expanded node %d has no child", id)
		}
		if err := pos.Play(s.tree.Node(child).Move); err != nil {
			return nil, false, fmt.Errorf("selfplay: search: %w", err)
		}
		if trackCrucial {
			standing = s.start.Problem.Standing(pos, &standing)
		}
		id = child
	}
}

// judge returns stWin or stFail for a position where the game is over, or
// stNew.
func (s *search) judge(pos *game.Position, standing *game.PointSet) nodeState {
	switch s.start.Problem.Judge(pos, standing).Outcome {
	case game.LivingWins:
		return stWin
	case game.LivingFails:
		return stFail
	}
	if pos.MoveNumber() >= s.maxMove {
		return stFail
	}
	return stNew
}

// terminalValue is the living side's result at a game end: a life after
// move d_w is a loss while the search plays for d_w-wins.
func (s *search) terminalValue(st nodeState, pos *game.Position) float64 {
	if st != stWin || (s.ftl && pos.MoveNumber() > s.dw) {
		return 0
	}
	return 1
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

// apply expands an evaluated leaf with the policy restricted to its legal
// moves (noised at the root) and backs up its value.
func (s *search) apply(lf *leaf, policy []float32, v float32, dwin []float32) {
	moves := s.start.legalMoves(lf.pos, nil)
	priors := nn.MovePriors(&lf.pos.Board, policy, moves)
	if lf.id == 0 && s.eps > 0 {
		mcts.AddDirichletNoise(priors, s.alpha, s.eps, s.rng)
	}
	s.tree.Expand(lf.id, lf.pos.ToMove(), moves, priors)
	for len(s.state) < s.tree.Len() {
		s.state = append(s.state, stNew)
	}
	s.state[lf.id] = stInner
	s.tree.Backup(lf.id, s.leafValue(lf.pos, v, dwin), s.living, true)
	s.pending--
	s.done++
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
	weight := func(c mcts.NodeID) float64 {
		if total == 0 {
			return float64(s.tree.Node(c).Prior)
		}
		return float64(s.tree.Node(c).Visits)
	}
	var sum float64
	for _, c := range kids {
		sum += weight(c)
	}
	for _, c := range kids {
		if k := nn.MoveIndex(&s.root.Board, s.tree.Node(c).Move); k >= 0 && k < policySize && sum > 0 {
			policy[k] = float32(weight(c) / sum)
		}
	}
	best := kids[0]
	if sample && sum > 0 {
		r := s.rng.Float64() * sum
		for _, c := range kids {
			best = c
			if r -= weight(c); r < 0 {
				break
			}
		}
	} else {
		for _, c := range kids[1:] {
			bn, cn := s.tree.Node(best), s.tree.Node(c)
			if weight(c) > weight(best) || (weight(c) == weight(best) && cn.Prior > bn.Prior) {
				best = c
			}
		}
	}
	return s.tree.Node(best).Move, policy
}
