package rzs

import (
	"fmt"

	"lifezero/game"
)

// ProofTree is the part of a searched tree that proves its root's status:
// for a win, the winning move at the living side's turns and every searched
// defence at the killer's (defences pruned by a zone are covered by the
// zone of the null move); for a loss, the refutation at the killer's turns
// and every move at the living side's. An unproven root keeps its most
// visited line, each of its visited nodes saying where the search stands
// there (Stall).
type ProofTree struct {
	Move     game.Point
	Player   game.Color // who played Move
	Status   Status
	Zone     *game.PointSet // relevance zone of a won node
	Visits   int32
	Stall    *Stall // an unproven, visited node's standing; nil otherwise
	Children []*ProofTree
}

// Stall is where the search stands at an unproven node: what an unproven
// root's line shows of why it is unproven. The living side's mean value
// says whether the search thinks the line lost (in 061, 99.5% of the
// root's visits sat under nodes valued below a quarter for the living
// side: docs/results/tsumego.md, session 34); the counts say whether the
// living side has too many moves to refute (its node is lost only when
// every move is) or the killer too many (Left).
type Stall struct {
	LivingValue float64 // the living side's mean value over the node's visits
	// Expanded is false for a visited leaf whose children the search does
	// not hold: one past the depth limit, or one the memory bound
	// reclaimed. The counts are then 0.
	Expanded bool
	Moves    int // the node's moves, the killer's pass included
	Visited  int // the moves the search has played here
	Refuted  int // the visited moves proven to fail for the side to move
	// Left is, at the killer's nodes, the moves it has still to refute:
	// its must-play region less the refuted moves, the pass counted (0
	// at the living side's nodes).
	Left int
}

// String renders st for a solution file's comment ("" for nil): the
// living side's value, then the moves visited and refuted, and the
// killer's moves left to refute at its nodes.
func (st *Stall) String() string {
	if st == nil {
		return ""
	}
	s := fmt.Sprintf("; living value %.3f", st.LivingValue)
	if !st.Expanded {
		return s + "; children not held (past the depth limit, or reclaimed)"
	}
	s += fmt.Sprintf("; %d of %d moves visited, %d refuted", st.Visited, st.Moves, st.Refuted)
	if st.Left > 0 {
		s += fmt.Sprintf(", %d left to refute", st.Left)
	}
	return s
}

// maxProofNodes bounds the solution tree written out.
const maxProofNodes = 20000

func (s *mcSolver) proofTree() *ProofTree {
	budget := maxProofNodes
	return s.proofNode(rootNode, &budget)
}

func (s *mcSolver) proofNode(id int32, budget *int) *ProofTree {
	*budget--
	n := s.tree.node(id)
	var zone *game.PointSet
	if n.zone != 0 {
		z := s.zones.get(n.zone)
		zone = &z
	}
	t := &ProofTree{Move: n.move, Player: n.player(), Status: n.status, Zone: zone, Visits: n.visits}
	if n.status == Unknown && n.visits > 0 {
		t.Stall = s.stall(id)
	}
	if *budget <= 0 {
		return t
	}
	st := n.status
	or := s.isOR(id)
	switch {
	case st == Unknown:
		_, move, rec, ok := s.tree.mostVisited(id)
		switch {
		case !ok:
		case rec != 0:
			t.Children = append(t.Children, s.proofNode(rec, budget))
		default: // never visited: a bare unproven leaf
			*budget--
			c, _ := s.tree.kidsOf(id)
			t.Children = append(t.Children, &ProofTree{Move: move, Player: c.player, Status: Unknown})
		}
	case (st == Win) == or: // one child proves it
		var first int32
		s.tree.visited(id, func(c int32) {
			if first == 0 && s.status(c) == st {
				first = c
			}
		})
		if first != 0 {
			t.Children = append(t.Children, s.proofNode(first, budget))
		}
	default: // all searched children are needed
		var kids []int32
		s.tree.visited(id, func(c int32) {
			if s.status(c) == st {
				kids = append(kids, c)
			}
		})
		for _, c := range kids {
			t.Children = append(t.Children, s.proofNode(c, budget))
		}
	}
	return t
}

// stall reads where the search stands at the visited, unproven node id.
func (s *mcSolver) stall(id int32) *Stall {
	n := s.tree.node(id)
	or := s.isOR(id)
	st := &Stall{LivingValue: n.q(0), Expanded: n.flags&flagExpanded != 0}
	if or { // n's value is for the killer, who moved into it
		st.LivingValue = 1 - st.LivingValue
	}
	if !st.Expanded {
		return st
	}
	if c, ok := s.tree.kidsOf(id); ok {
		st.Moves = c.n
	}
	s.tree.visited(id, func(r int32) {
		st.Visited++
		if refutes(or, s.status(r)) {
			st.Refuted++
		}
	})
	if !or {
		st.Left, _ = s.skipper(id).remaining(id)
	}
	return st
}
