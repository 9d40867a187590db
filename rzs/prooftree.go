package rzs

import (
	"lifezero/game"
)

// ProofTree is the part of a searched tree that proves its root's status:
// for a win, the winning move at the living side's turns and every searched
// defence at the killer's (defences pruned by a zone are covered by the
// zone of the null move); for a loss, the refutation at the killer's turns
// and every move at the living side's. An unproven root keeps its most
// visited line.
type ProofTree struct {
	Move     game.Point
	Player   game.Color // who played Move
	Status   Status
	Zone     *game.PointSet // relevance zone of a won node
	Visits   int32
	Children []*ProofTree
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
	t := &ProofTree{Move: n.move, Player: n.player, Status: n.status, Zone: zone, Visits: n.visits}
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
