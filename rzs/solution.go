package rzs

import (
	"fmt"

	"lifezero/game"
	"lifezero/sgf"
)

// SolutionSGF renders a solve as an SGF game tree that a Go editor can
// browse: the root holds the problem's start position (AB/AW, PL), its
// crucial stones (TR) and its region (MA), as the problem files write
// them, so the file loads again as the same problem; each node of the proof
// tree is a move, its relevance zone marked with SQ and its status in the
// comment. A depth-first solve keeps no tree: its root zone is marked.
func SolutionSGF(pr *game.Problem, res Result) sgf.Collection {
	pos := pr.StartPosition()
	root := game.NewSGFRoot(pos.Size())
	root.Add("GN", pr.ID)
	game.AddSGFSetup(root, &pos.Board)
	root.Add("PL", pos.ToMove().String())
	if pts := pos.SGFPoints(&pr.Crucial); len(pts) > 0 {
		root.Add("TR", pts...)
	}
	if all := pos.AllPoints(); pr.Region != all {
		root.Add("MA", pos.SGFPoints(&pr.Region)...)
	}
	comment := fmt.Sprintf("problem %s: %v lives (%v), %v kills (%v); result: %v after %d nodes in %.2fs",
		pr.ID, pr.Living(), pr.Goal[pr.Living()], pr.Killer(), pr.Goal[pr.Killer()], res.Status, res.Nodes, res.Seconds)
	if res.Tree != nil {
		comment += res.Tree.Stall.String()
	}
	root.Add("C", comment)
	if res.Tree == nil && res.Status == Win {
		markZone(root, pos, &res.Zone)
	}
	if res.Tree != nil {
		markZone(root, pos, res.Tree.Zone)
		for _, c := range res.Tree.Children {
			root.Children = append(root.Children, solutionNode(pos, c))
		}
	}
	return sgf.Collection{root}
}

func solutionNode(pos *game.Position, t *ProofTree) *sgf.Node {
	n := &sgf.Node{}
	n.Add(t.Player.String(), pos.SGFMove(t.Move))
	comment := fmt.Sprintf("%v, %d visits", t.Status, t.Visits)
	if t.Zone != nil {
		comment += fmt.Sprintf(", zone of %d points (SQ)", t.Zone.Len())
	}
	comment += t.Stall.String()
	n.Add("C", comment)
	next := pos.Copy()
	next.SetToMove(t.Player)
	if err := next.Play(t.Move); err != nil {
		n.Add("C", comment+"; replay failed: "+err.Error())
		return n
	}
	markZone(n, next, t.Zone)
	for _, c := range t.Children {
		n.Children = append(n.Children, solutionNode(next, c))
	}
	return n
}

func markZone(n *sgf.Node, pos *game.Position, zone *game.PointSet) {
	if zone == nil {
		return
	}
	if pts := pos.SGFPoints(zone); len(pts) > 0 {
		n.Add("SQ", pts...)
	}
}
