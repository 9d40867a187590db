package mcts

import (
	"errors"
	"fmt"

	"lifezero/game"
)

// SearchTree is the tree a Search descends. *Tree is one; a caller with
// its own node layout (the solver's memory-bounded tree) can be another.
// Ids are whatever the tree hands out: Search keeps its per-node state in a
// slice indexed by them, sized by Len.
type SearchTree interface {
	// Root returns the root's id.
	Root() NodeID
	// Len returns one more than the largest id in use.
	Len() int
	// Move returns the move that leads to id.
	Move(id NodeID) game.Point
	// Visits returns the visits backed up through id.
	Visits(id NodeID) int32
	// SelectChild returns the child of an expanded node to descend to, or
	// None when it has none to offer: the highest PUCT score among the
	// children the tree lets be selected (a solver's tree passes over
	// those it has proven or pruned). A tree that gives children ids only
	// when first selected creates the id of the one chosen.
	SelectChild(id NodeID) NodeID
	// Expand creates id's children, played by player, with their priors.
	Expand(id NodeID, player game.Color, moves []game.Point, priors []float32)
	// AddVirtualLoss marks the path from id to the root as in flight.
	AddVirtualLoss(id NodeID)
	// Backup adds value (in [0,1] for forPlayer) from id to the root,
	// taking back one virtual loss per node where withVirtual.
	Backup(id NodeID, value float64, forPlayer game.Color, withVirtual bool)
}

// Status is what a Search knows of a node.
type Status uint8

const (
	Unreached Status = iota // not reached by a descent yet
	Pending                 // a leaf waiting for its evaluation, under virtual loss
	Inner                   // evaluated and expanded
	Terminal                // a game end: its value is fixed and backed up at each visit
)

// Hooks are the game-specific parts of a search over states S (a position
// and whatever else a descent carries).
type Hooks[S any] struct {
	// Root returns the state at the root, one the descent may change.
	Root func() S
	// Play advances st along the edge to a child by its move.
	Play func(st *S, m game.Point) error
	// Judge, if not nil, is asked at a node reached for the first time
	// (never the root: the caller judges the root before searching). It
	// returns the node's value, for the search's perspective, when the
	// game has ended there; the node then keeps that value.
	Judge func(st *S) (value float64, terminal bool)
	// Decided, if not nil, is asked at each expanded node below the root
	// before a child is selected there: a solver's pattern table may prove
	// a node already searched. A decided node becomes a game end with that
	// value; its subtree is kept but no longer entered.
	Decided func(id NodeID, st *S) (value float64, decided bool)
	// RootPriors, if not nil, changes the root's priors before they are
	// stored: self-play mixes in Dirichlet noise there.
	RootPriors func(priors []float32)
}

// Leaf is a node a Search wants evaluated: its id and state, and the
// results an Evaluator fills in.
type Leaf[S any] struct {
	ID    NodeID
	State S
	// ToMove is the side to move at the leaf, the player of its children.
	ToMove game.Color
	// Moves are the children to create and Priors their priors (the Search
	// keeps its own copy of neither slice's contents beyond the tree's).
	Moves  []game.Point
	Priors []float32
	// Value is the leaf's value in [0,1] for the search's perspective.
	Value float64
	// Terminal, set by an evaluator that finds the game decided at the
	// leaf (a solver's proof, a transposition table's answer), makes the
	// leaf a game end: it is not expanded, and Value is backed up at each
	// later visit as for a Judge's game end.
	Terminal bool

	search *Search[S]
}

// Evaluator evaluates leaves in batches: it fills every leaf's ToMove,
// Moves, Priors and Value (or Value and Terminal). The leaves may come from
// many searches (self-play gathers them across the games of a chunk), so a
// network sees one batch.
type Evaluator[S any] interface {
	EvaluateBatch(leaves []*Leaf[S]) error
}

// Evaluate runs ev on the leaves and applies each result to its search, in
// the leaves' order: expanding the leaf and backing its value up. The
// leaves are the searches' again afterwards (see Apply).
func Evaluate[S any](ev Evaluator[S], leaves []*Leaf[S]) error {
	if len(leaves) == 0 {
		return nil
	}
	if err := ev.EvaluateBatch(leaves); err != nil {
		return err
	}
	for _, lf := range leaves {
		lf.search.Apply(lf)
	}
	return nil
}

// Search is a PUCT search driven from outside: Collect descends to leaves
// (backing up game ends at once) and returns those to evaluate under
// virtual loss; Evaluate (or Apply, per leaf) expands them and backs their
// values up. Values are kept for one side, the perspective, as the tree's
// Backup takes them.
type Search[S any] struct {
	tree        SearchTree
	hooks       Hooks[S]
	perspective game.Color
	sims        int // simulations wanted
	done        int // simulations backed up
	pending     int // leaves returned and not applied yet
	status      []Status
	value       []float64 // the value of a Terminal node
	// free holds leaves to reuse: those of descents that returned none,
	// and applied ones (a leaf belongs to its search again once applied).
	free []*Leaf[S]
}

// NewSearch returns a search of tree (holding at least its root) for sims
// simulations, with values for perspective.
func NewSearch[S any](tree SearchTree, perspective game.Color, sims int, hooks Hooks[S]) *Search[S] {
	s := &Search[S]{tree: tree, hooks: hooks, perspective: perspective, sims: sims}
	s.grow()
	return s
}

// Reset starts a new search of s's tree, which the caller has emptied to a
// root alone (Tree.Reset), keeping the memory of the per-node state: a
// self-play game recycles its searches from move to move. The hooks stay.
func (s *Search[S]) Reset(perspective game.Color, sims int) {
	s.perspective, s.sims, s.done, s.pending = perspective, sims, 0, 0
	s.status, s.value = s.status[:0], s.value[:0]
	s.grow()
}

// Forget makes the search treat id as never reached: a tree that frees
// nodes (a memory bound dropping a subtree, the node itself unexpanded)
// and hands their ids out again calls it for each, so that a reused id
// does not keep the old node's state. No leaf may be in flight.
func (s *Search[S]) Forget(id NodeID) {
	if int(id) < len(s.status) {
		s.status[id], s.value[id] = Unreached, 0
	}
}

// Status returns what the search knows of node id.
func (s *Search[S]) Status(id NodeID) Status {
	if int(id) >= len(s.status) {
		return Unreached
	}
	return s.status[id]
}

// Done returns the number of simulations backed up.
func (s *Search[S]) Done() int { return s.done }

// WantsMore reports whether the search should start another simulation.
func (s *Search[S]) WantsMore() bool { return s.done+s.pending < s.sims }

// Finished reports whether every simulation wanted has been backed up.
func (s *Search[S]) Finished() bool { return s.done >= s.sims && s.pending == 0 }

// Inherit takes over the node states of old for a tree that is now a copy
// of part of old's: ids[i] is the id in old's tree of node i (None for
// none), as Tree.CopySubtree returns. The visits already at the root
// count as simulations done. The search must have no leaves in flight.
func (s *Search[S]) Inherit(old *Search[S], ids []NodeID) {
	s.status, s.value = s.status[:0], s.value[:0]
	s.grow()
	for nid, o := range ids {
		if o != None && int(o) < len(old.status) {
			s.status[nid], s.value[nid] = old.status[o], old.value[o]
		}
	}
	s.done = int(s.tree.Visits(s.tree.Root()))
}

// grow sizes the per-node state to the tree.
func (s *Search[S]) grow() {
	for len(s.status) < s.tree.Len() {
		s.status = append(s.status, Unreached)
		s.value = append(s.value, 0)
	}
}

// ErrNoChild is a descent that met an expanded node with nothing to
// select: every child skipped (at the root, a solver has nothing left to
// search), or an evaluation that gave a leaf no moves.
var ErrNoChild = errors.New("expanded node has no selectable child")

// Simulate runs one descent from the root. It returns the leaf to evaluate
// (its path under virtual loss), or nil when the descent ended at a game
// end, backed up at once, or collided with a leaf already pending
// (collided: nothing was done).
func (s *Search[S]) Simulate() (lf *Leaf[S], collided bool, err error) {
	// The descent's state lives in the leaf it may become: the hooks take
	// its address, which would move a local to the heap at every descent.
	// A descent that returns no leaf leaves it for the next.
	if k := len(s.free); k > 0 {
		lf = s.free[k-1]
	} else {
		lf = &Leaf[S]{search: s}
		s.free = append(s.free, lf)
	}
	lf.State = s.hooks.Root()
	st := &lf.State
	root := s.tree.Root()
	id := root
	for {
		switch s.status[id] {
		case Terminal:
			s.tree.Backup(id, s.value[id], s.perspective, false)
			s.done++
			return nil, false, nil
		case Pending:
			return nil, true, nil
		case Unreached:
			if id != root && s.hooks.Judge != nil {
				if v, over := s.hooks.Judge(st); over {
					s.status[id], s.value[id] = Terminal, v
					continue
				}
			}
			s.status[id] = Pending
			s.pending++
			s.tree.AddVirtualLoss(id)
			lf.ID = id
			s.free = s.free[:len(s.free)-1]
			return lf, false, nil
		}
		if id != root && s.hooks.Decided != nil {
			if v, ok := s.hooks.Decided(id, st); ok {
				s.status[id], s.value[id] = Terminal, v
				continue
			}
		}
		child := s.tree.SelectChild(id)
		if child == None {
			return nil, false, fmt.Errorf("mcts: search: node %d: %w", id, ErrNoChild)
		}
		if err := s.hooks.Play(st, s.tree.Move(child)); err != nil {
			return nil, false, fmt.Errorf("mcts: search: %w", err)
		}
		s.grow() // a tree that creates ids on selection has a new one
		id = child
	}
}

// Collect runs simulations until max leaves are queued (appended to dst),
// the search wants no more, a descent collides with a pending leaf (the
// rest of the tree waits for the queued leaves) or 4·max+simulations
// descents were tried (game ends count as tries, so a search whose every
// line ends keeps moving).
func (s *Search[S]) Collect(max int, dst []*Leaf[S]) ([]*Leaf[S], error) {
	queued := 0
	for tries := 0; queued < max && s.WantsMore() && tries < 4*max+s.sims; tries++ {
		lf, collided, err := s.Simulate()
		if err != nil {
			return dst, err
		}
		if collided {
			break
		}
		if lf != nil {
			dst = append(dst, lf)
			queued++
		}
	}
	return dst, nil
}

// Apply expands an evaluated leaf with its moves and priors (passed through
// RootPriors at the root), or marks it a game end when the evaluator found
// it Terminal, and backs its value up. The leaf then goes back to the
// search for a later descent: the caller must not use it afterwards.
func (s *Search[S]) Apply(lf *Leaf[S]) {
	switch {
	case lf.Terminal:
		s.status[lf.ID], s.value[lf.ID] = Terminal, lf.Value
	default:
		if lf.ID == s.tree.Root() && s.hooks.RootPriors != nil {
			s.hooks.RootPriors(lf.Priors)
		}
		s.tree.Expand(lf.ID, lf.ToMove, lf.Moves, lf.Priors)
		s.grow()
		s.status[lf.ID] = Inner
	}
	s.tree.Backup(lf.ID, lf.Value, s.perspective, true)
	s.pending--
	s.done++
	*lf = Leaf[S]{search: s} // drop the state's and the moves' references
	s.free = append(s.free, lf)
}

// Bytes returns the memory of the search's per-node state (beside the
// tree's own), for a caller that bounds its memory.
func (s *Search[S]) Bytes() int64 {
	return int64(cap(s.status)) + 8*int64(cap(s.value))
}

// Tree is a SearchTree.
var _ SearchTree = (*Tree)(nil)
