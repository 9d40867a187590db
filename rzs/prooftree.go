package rzs

import (
	"lifezero/game"
	"lifezero/mcts"
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
	return s.proofNode(0, &budget)
}

func (s *mcSolver) proofNode(id mcts.NodeID, budget *int) *ProofTree {
	*budget--
	n := s.tree.Node(id)
	t := &ProofTree{Move: n.Move, Player: n.Player, Status: s.status[id], Zone: s.zone[id], Visits: n.Visits}
	if *budget <= 0 {
		return t
	}
	for _, c := range s.proofChildren(id) {
		t.Children = append(t.Children, s.proofNode(c, budget))
	}
	return t
}

func (s *mcSolver) proofChildren(id mcts.NodeID) []mcts.NodeID {
	kids := s.tree.Children(id)
	st := s.status[id]
	or := s.isOR(id)
	var out []mcts.NodeID
	switch {
	case st == Unknown:
		if best := s.tree.MostVisited(id); best != mcts.None {
			out = append(out, best)
		}
	case (st == Win) == or: // one child proves it
		for _, c := range kids {
			if s.status[c] == st {
				return append(out, c)
			}
		}
	default: // all searched children are needed
		for _, c := range kids {
			if s.status[c] == st {
				out = append(out, c)
			}
		}
	}
	return out
}
