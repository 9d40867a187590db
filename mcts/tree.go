package mcts

import (
	"math"

	"lifezero/game"
)

// NodeID indexes a node in a Tree. The root is 0.
type NodeID int32

// None is the NodeID of no node (the root's parent).
const None NodeID = -1

// Node is one tree node: the move that leads to it, its children (a
// contiguous run of the arena), its prior and its statistics. Values are
// kept from the point of view of Player, the side that played Move. The
// fields are sized to keep a node at 32 bytes: a 19x19 search creates a
// child per legal move at every expansion.
type Node struct {
	Move        game.Point
	Player      game.Color
	NumChildren int16
	Parent      NodeID
	FirstChild  NodeID
	Prior       float32
	Visits      int32
	VirtualLoss int32
	ValueSum    float32 // sum of backed-up values in [0,1] for Player
}

// Expanded reports whether the node's children have been created.
func (n *Node) Expanded() bool { return n.FirstChild != None }

// chunkBits sets the arena's chunk size: nodes live in fixed chunks of
// 2^chunkBits so that growing the tree never moves existing nodes (a single
// growing slice spent most of a large search copying itself).
const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
)

// Tree is an arena of nodes. The zero Tree is not usable; call NewTree.
type Tree struct {
	chunks [][]Node
	n      int // ids in use, including the unused tails of chunks
}

// NewTree returns a tree holding only a root whose move was played by
// lastMover (the opponent of the side to move at the root).
func NewTree(lastMover game.Color) *Tree {
	t := &Tree{}
	t.Reset(lastMover)
	return t
}

// Reset empties the tree to a root alone, as NewTree makes, keeping its
// first chunk: a search per move in self-play then reuses the 2 MB of
// nodes instead of allocating (and clearing) a fresh chunk.
func (t *Tree) Reset(lastMover game.Color) {
	t.clear()
	t.alloc(1)
	*t.Node(0) = Node{Move: game.NoPoint, Player: lastMover, Parent: None, FirstChild: None, Prior: 1}
}

// clear drops every node, keeping the first chunk's memory.
func (t *Tree) clear() {
	clear(t.chunks[min(1, len(t.chunks)):]) // let the GC have the rest
	t.chunks = t.chunks[:min(1, len(t.chunks))]
	t.n = 0
}

// alloc reserves k consecutive ids within one chunk and returns the first.
func (t *Tree) alloc(k int) NodeID {
	if t.n+k > len(t.chunks)*chunkSize {
		t.n = len(t.chunks) * chunkSize // children never straddle chunks
		t.chunks = append(t.chunks, make([]Node, chunkSize))
	}
	first := t.n
	t.n += k
	return NodeID(first)
}

// Node returns the node with the given id.
func (t *Tree) Node(id NodeID) *Node { return &t.chunks[id>>chunkBits][id&(chunkSize-1)] }

// Root returns the root's id, 0.
func (t *Tree) Root() NodeID { return 0 }

// Move returns the move that leads to id.
func (t *Tree) Move(id NodeID) game.Point { return t.Node(id).Move }

// Visits returns the visits backed up through id.
func (t *Tree) Visits(id NodeID) int32 { return t.Node(id).Visits }

// Len returns one more than the largest id in use: slices indexed by NodeID
// need this length.
func (t *Tree) Len() int { return t.n }

// Children returns the ids of the children of id, in creation order.
func (t *Tree) Children(id NodeID) []NodeID {
	n := t.Node(id)
	if !n.Expanded() {
		return nil
	}
	out := make([]NodeID, n.NumChildren)
	for i := range out {
		out[i] = n.FirstChild + NodeID(i)
	}
	return out
}

// Expand creates one child per move, with the given priors, played by
// player. It does nothing to an already expanded node.
func (t *Tree) Expand(id NodeID, player game.Color, moves []game.Point, priors []float32) {
	if t.Node(id).Expanded() || len(moves) == 0 {
		return
	}
	first := t.alloc(len(moves))
	kids := t.chunks[first>>chunkBits][first&(chunkSize-1) : int(first&(chunkSize-1))+len(moves)]
	for i, m := range moves {
		kids[i] = Node{Move: m, Player: player, Parent: id, FirstChild: None, Prior: priors[i]}
	}
	n := t.Node(id)
	n.FirstChild = first
	n.NumChildren = int16(len(moves))
}

// Exploration returns AlphaZero's growing exploration constant
// c(N) = log((1 + N + 19652) / 19652) + 1.25 scaled as in the reference
// solver (base 1.5 in place of 1.25).
func Exploration(parentVisits int32) float64 {
	return math.Log((1+float64(parentVisits)+19652)/19652) + 1.5
}

// Q returns the mean value of a node for its Player, counting virtual losses
// as losses; an unvisited node gets fpu.
func (n *Node) Q(fpu float64) float64 {
	v := n.Visits + n.VirtualLoss
	if v == 0 {
		return fpu
	}
	return float64(n.ValueSum) / float64(v)
}

// SelectChild returns the child of id with the highest PUCT score, or
// None when id has no children.
func (t *Tree) SelectChild(id NodeID) NodeID { return t.selectChild(id, nil) }

// selectChild is SelectChild passing over the children for which skip (if
// not nil) is true: what a solver's tree does with the children it has
// proven or pruned, which the search's tests do with a *Tree (skipTree).
func (t *Tree) selectChild(id NodeID, skip func(move game.Point, child NodeID) bool) NodeID {
	parent := t.Node(id)
	if !parent.Expanded() {
		return None
	}
	pv := parent.Visits + parent.VirtualLoss
	c := Exploration(pv) * math.Sqrt(float64(pv)+1)
	// First-play urgency: an unvisited child is valued like its parent from
	// the mover's side, so well-valued moves are widened first.
	fpu := 1 - parent.Q(0.5)
	best, bestScore := None, math.Inf(-1)
	kids := t.chunks[parent.FirstChild>>chunkBits][parent.FirstChild&(chunkSize-1):]
	for i := range int(parent.NumChildren) {
		cid := parent.FirstChild + NodeID(i)
		ch := &kids[i]
		if skip != nil && skip(ch.Move, cid) {
			continue
		}
		score := ch.Q(fpu) + c*float64(ch.Prior)/float64(1+ch.Visits+ch.VirtualLoss)
		if score > bestScore {
			best, bestScore = cid, score
		}
	}
	return best
}

// AddVirtualLoss marks the path from id to the root as being evaluated, so
// parallel descents spread out.
func (t *Tree) AddVirtualLoss(id NodeID) {
	for ; id != None; id = t.Node(id).Parent {
		t.Node(id).VirtualLoss++
	}
}

// Backup adds value (in [0,1], for the side given by forPlayer) to every
// node from id up to the root, removing one virtual loss where withVirtual.
func (t *Tree) Backup(id NodeID, value float64, forPlayer game.Color, withVirtual bool) {
	for ; id != None; id = t.Node(id).Parent {
		n := t.Node(id)
		n.Visits++
		if withVirtual && n.VirtualLoss > 0 {
			n.VirtualLoss--
		}
		if n.Player == forPlayer {
			n.ValueSum += float32(value)
		} else {
			n.ValueSum += float32(1 - value)
		}
	}
}

// MostVisited returns the child of id with the most visits (None if none).
func (t *Tree) MostVisited(id NodeID) NodeID {
	best, most := None, int32(-1)
	for _, c := range t.Children(id) {
		if v := t.Node(c).Visits; v > most {
			best, most = c, v
		}
	}
	return best
}

// Subtree returns a new tree holding a copy of the subtree under id, with
// id as its root (parent None, statistics kept), and old, the id in t of
// each node of the new tree (None for ids the new tree does not use). A
// self-play game re-roots its search tree this way after a move, so the
// next search starts from the visits already below that move.
func (t *Tree) Subtree(id NodeID) (nt *Tree, old []NodeID) {
	nt = &Tree{}
	return nt, nt.CopySubtree(t, id)
}

// CopySubtree makes t (emptied first, its memory kept) a copy of the
// subtree of from under id, as Subtree does, and returns old. t and from
// must be different trees.
func (t *Tree) CopySubtree(from *Tree, id NodeID) (old []NodeID) {
	t.clear()
	t.alloc(1)
	root := *from.Node(id)
	root.Parent = None
	*t.Node(0) = root
	old = []NodeID{id}
	// Breadth first: each copied node's children are copied as one run.
	for q := []NodeID{0}; len(q) > 0; q = q[1:] {
		nid := q[0]
		n := t.Node(nid)
		if !n.Expanded() {
			continue
		}
		srcFirst, k := n.FirstChild, NodeID(n.NumChildren)
		first := t.alloc(int(k))
		t.Node(nid).FirstChild = first
		for i := range k {
			c := *from.Node(srcFirst + i)
			c.Parent = nid
			*t.Node(first + i) = c
			for NodeID(len(old)) < first+i {
				old = append(old, None)
			}
			old = append(old, srcFirst+i)
			q = append(q, first+i)
		}
	}
	for len(old) < t.Len() {
		old = append(old, None)
	}
	return old
}

// Child returns the child of id reached by move m, or None.
func (t *Tree) Child(id NodeID, m game.Point) NodeID {
	n := t.Node(id)
	if !n.Expanded() {
		return None
	}
	for i := range NodeID(n.NumChildren) {
		if t.Node(n.FirstChild+i).Move == m {
			return n.FirstChild + i
		}
	}
	return None
}
