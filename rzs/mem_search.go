package rzs

import (
	"lifezero/game"
	"lifezero/mcts"
)

// memTree's records are the nodes of the MCTS form's mcts.Search (through
// searchTree): node ids are record indices, and a child gets its record
// when first selected.

// Root implements mcts.SearchTree.
func (t *memTree) Root() mcts.NodeID { return mcts.NodeID(rootNode) }

// Len implements mcts.SearchTree: the records' arena length (freed records
// are handed out again, see mcSolver.forget).
func (t *memTree) Len() int { return int(t.nodes.n) }

// Move implements mcts.SearchTree.
func (t *memTree) Move(id mcts.NodeID) game.Point { return t.node(int32(id)).move }

// Visits implements mcts.SearchTree.
func (t *memTree) Visits(id mcts.NodeID) int32 { return t.node(int32(id)).visits }

// searchTree is memTree with the solver's selection: the tree mcts.Search
// descends. The skip rule (skipper: the proven children that cannot change
// a node's status, the moves outside an AND node's must-play region) is
// applied here, one direct call per child.
type searchTree struct {
	*memTree
	s *mcSolver
}

var _ mcts.SearchTree = searchTree{}

// SelectChild implements mcts.SearchTree: selectChild with the node's
// skipper, then the chosen child's record, created on its first selection.
func (t searchTree) SelectChild(id mcts.NodeID) mcts.NodeID {
	if t.node(int32(id)).flags&flagCoarse != 0 {
		t.s.refine(int32(id))
	}
	idx, move, _, ok := t.selectChild(int32(id), t.s.skipper(int32(id)))
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
