package rzs

import (
	"lifezero/game"
	"lifezero/mcts"
)

// memTree is the tree mcts.Search descends in the sequential MCTS form:
// node ids are record indices, and a child gets its record when first
// selected.
var _ mcts.SearchTree = (*memTree)(nil)

// Root implements mcts.SearchTree.
func (t *memTree) Root() mcts.NodeID { return mcts.NodeID(rootNode) }

// Len implements mcts.SearchTree: the records' arena length (freed records
// are handed out again, see mcSolver.forget).
func (t *memTree) Len() int { return int(t.nodes.n) }

// Move implements mcts.SearchTree.
func (t *memTree) Move(id mcts.NodeID) game.Point { return t.node(int32(id)).move }

// Visits implements mcts.SearchTree.
func (t *memTree) Visits(id mcts.NodeID) int32 { return t.node(int32(id)).visits }

// SelectChild implements mcts.SearchTree: selectChild, then the chosen
// child's record, created on its first selection. skip gets mcts.None for
// a child without a record.
func (t *memTree) SelectChild(id mcts.NodeID, skip func(game.Point, mcts.NodeID) bool) mcts.NodeID {
	var sk func(game.Point, int32) bool
	if skip != nil {
		sk = func(m game.Point, rec int32) bool {
			c := mcts.None
			if rec != 0 {
				c = mcts.NodeID(rec)
			}
			return skip(m, c)
		}
	}
	idx, move, _, ok := t.selectChild(int32(id), sk)
	if !ok {
		t.selected = 0
		return mcts.None
	}
	t.selected = t.child(int32(id), idx, move)
	return mcts.NodeID(t.selected)
}

// Expand implements mcts.SearchTree. The solver expands its leaves itself
// while it settles them (createChildren), before their proofs, and hands
// the search no moves; a non-empty call stores the children as expand does.
func (t *memTree) Expand(id mcts.NodeID, player game.Color, moves []game.Point, priors []float32) {
	t.expand(int32(id), player, moves, priors)
}

// AddVirtualLoss implements mcts.SearchTree: a virtual loss on every record
// of the path, when the solver evaluates several leaves at once (virtual
// set); nothing for one leaf at a time.
func (t *memTree) AddVirtualLoss(id mcts.NodeID) {
	if t.virtual == nil {
		return
	}
	for r := int32(id); r != 0; r = t.node(r).parent {
		t.visit(r)
	}
}

// Backup implements mcts.SearchTree.
func (t *memTree) Backup(id mcts.NodeID, value float64, forPlayer game.Color, withVirtual bool) {
	if withVirtual && t.virtual != nil {
		for r := int32(id); r != 0; r = t.node(r).parent {
			t.unvisitOne(r)
		}
	}
	t.backup(int32(id), value, forPlayer)
}
