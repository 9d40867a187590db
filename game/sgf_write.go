package game

import (
	"strconv"

	"lifezero/sgf"
)

// NewSGFRoot returns the root node every SGF file lifezero writes starts
// with: FF[4] GM[1] CA[UTF-8] AP[lifezero] SZ[size]. Self-play games,
// match games and solutions add their own properties after these.
func NewSGFRoot(size int) *sgf.Node {
	root := &sgf.Node{}
	root.Add("FF", "4")
	root.Add("GM", "1")
	root.Add("CA", "UTF-8")
	root.Add("AP", "lifezero")
	root.Add("SZ", strconv.Itoa(size))
	return root
}

// AddSGFSetup adds the stones on b to n as AB and AW, each only when there
// are stones of that colour (as SetupPosition reads them back), and
// reports whether there were any.
func AddSGFSetup(n *sgf.Node, b *Board) bool {
	var black, white PointSet
	all := b.AllPoints()
	all.ForEach(func(p Point) {
		switch b.At(p) {
		case Black:
			black.Add(p)
		case White:
			white.Add(p)
		}
	})
	ab, aw := b.SGFPoints(&black), b.SGFPoints(&white)
	if len(ab) > 0 {
		n.Add("AB", ab...)
	}
	if len(aw) > 0 {
		n.Add("AW", aw...)
	}
	return len(ab)+len(aw) > 0
}

// SGFMove returns the SGF value of move m on b: its point, or "" for a pass
// (B[] or W[]).
func (b *Board) SGFMove(m Point) string {
	if m == Pass {
		return ""
	}
	return b.PointString(m)
}

// SGFPoints returns the SGF values of the points of set, in point order.
func (b *Board) SGFPoints(set *PointSet) []string {
	var out []string
	set.ForEach(func(p Point) { out = append(out, b.PointString(p)) })
	return out
}
