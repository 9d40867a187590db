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
	root := &sgf.Node{}
	root.Add("FF", "4")
	root.Add("GM", "1")
	root.Add("CA", "UTF-8")
	root.Add("AP", "lifezero")
	root.Add("SZ", fmt.Sprint(pos.Size()))
	root.Add("GN", pr.ID)
	setup(root, pos, "AB", game.Black)
	setup(root, pos, "AW", game.White)
	root.Add("PL", pos.ToMove().String())
	if pts := pointValues(pos, &pr.Crucial); len(pts) > 0 {
		root.Add("TR", pts...)
	}
	if all := pos.AllPoints(); pr.Region != all {
		root.Add("MA", pointValues(pos, &pr.Region)...)
	}
	root.Add("C", fmt.Sprintf("problem %s: %v lives (%v), %v kills (%v); result: %v after %d nodes in %.2fs",
		pr.ID, pr.Living(), pr.Goal[pr.Living()], pr.Killer(), pr.Goal[pr.Killer()], res.Status, res.Nodes, res.Seconds))
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
	n.Add(t.Player.String(), movePoint(pos, t.Move))
	comment := fmt.Sprintf("%v, %d visits", t.Status, t.Visits)
	if t.Zone != nil {
		comment += fmt.Sprintf(", zone of %d points (SQ)", t.Zone.Len())
	}
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

func movePoint(pos *game.Position, m game.Point) string {
	if m == game.Pass {
		return ""
	}
	return pos.PointString(m)
}

func markZone(n *sgf.Node, pos *game.Position, zone *game.PointSet) {
	if zone == nil {
		return
	}
	if pts := pointValues(pos, zone); len(pts) > 0 {
		n.Add("SQ", pts...)
	}
}

func setup(n *sgf.Node, pos *game.Position, id string, c game.Color) {
	var set game.PointSet
	for i := 0; i < pos.Cells(); i++ {
		if pos.At(game.Point(i)) == c {
			set.Add(game.Point(i))
		}
	}
	if pts := pointValues(pos, &set); len(pts) > 0 {
		n.Add(id, pts...)
	}
}

func pointValues(pos *game.Position, set *game.PointSet) []string {
	var out []string
	set.ForEach(func(p game.Point) { out = append(out, pos.PointString(p)) })
	return out
}
