package tsumego

import (
	"fmt"

	"lifezero/game"
)

// The life-and-death feature groups, as offsets from LD's base id. Each
// group is exclusive: a move has at most one id of each.
const (
	// region: the connected empty region the move lands in, by size
	// (1..6, 7-12, open: 13 or more) and by who encloses it (the colours of
	// the stones next to it, relative to the mover: none, own, opponent,
	// both). A region of one colour is eye space; the mover taking a point
	// of the opponent's reduces it, a point of its own spends or shapes it.
	ldRegion      = 0
	regionSizes   = 8
	regionEnclose = 4
	// vital: the move is the vital point of an enclosed region of 3 to 7
	// points (the one point with the most neighbours inside the region,
	// at least two), by encloser (own, opponent, both) and size (3-4, 5-7).
	ldVital = ldRegion + regionSizes*regionEnclose
	// libs: liberties of the mover's block after the move (1..4, 5+), or
	// capture when the move captures (its liberties then grow in ways this
	// count does not follow).
	ldLibs = ldVital + 3*2
	// oppLibs: the fewest liberties of an opponent block next to the move,
	// after it (1: atari, 2, 3, 4+), when it captures none.
	ldOppLibs = ldLibs + 6
	// ownWeak: the fewest liberties of an own block next to the move,
	// before it (1, 2, 3+): a move that defends a short block.
	ldOwnWeak = ldOppLibs + 4
	// NumLD is the number of life-and-death feature ids.
	NumLD = ldOwnWeak + 3
)

// maxRegion bounds the flood of a move's empty region: beyond it the region
// is open (not eye space of any size the groups tell apart).
const maxRegion = 12

// LD computes the life-and-death features; its ids are Base..Base+NumLD-1,
// placed after another feature set's ids.
type LD struct {
	Base int32
}

// Names returns the names of the ids, in id order.
func (l LD) Names() []string {
	names := make([]string, NumLD)
	sizes := []string{"1", "2", "3", "4", "5", "6", "7-12", "open"}
	enc := []string{"none", "own", "opp", "both"}
	for s := range regionSizes {
		for e := range regionEnclose {
			names[ldRegion+s*regionEnclose+e] = fmt.Sprintf("ld_region:%s:%s", sizes[s], enc[e])
		}
	}
	for e := range 3 {
		for s, size := range []string{"3-4", "5-7"} {
			names[ldVital+e*2+s] = fmt.Sprintf("ld_vital:%s:%s", enc[e+1], size)
		}
	}
	for i, v := range []string{"1", "2", "3", "4", "5+", "capture"} {
		names[ldLibs+i] = "ld_libs:" + v
	}
	for i, v := range []string{"1", "2", "3", "4+"} {
		names[ldOppLibs+i] = "ld_opp_libs:" + v
	}
	for i, v := range []string{"1", "2", "3+"} {
		names[ldOwnWeak+i] = "ld_own_weak:" + v
	}
	return names
}

// Append appends the ids of move m (an empty on-board point) for the side
// to move of pos to dst.
func (l LD) Append(pos *game.Position, m game.Point, dst []int32) []int32 {
	return l.appendMove(pos, m, &pos.Board, dst)
}

// appendMove is Append reading the liberties of the blocks next to m from
// libs, a source for pos.
func (l LD) appendMove(pos *game.Position, m game.Point, libs libertySource, dst []int32) []int32 {
	b := &pos.Board
	me := pos.ToMove()
	var rs regionScan
	rs.flood(b, m, me)
	dst = append(dst, l.Base+ldRegion+int32(rs.sizeBucket()*regionEnclose+rs.encloser))
	if rs.vital(b, m) && rs.encloser > 0 {
		big := 0
		if rs.n >= 5 {
			big = 1
		}
		dst = append(dst, l.Base+ldVital+int32((rs.encloser-1)*2+big))
	}
	return l.appendLiberties(b, m, me, libs, dst)
}

// appendLiberties adds the libs, oppLibs and ownWeak groups.
func (l LD) appendLiberties(b *game.Board, m game.Point, me game.Color, source libertySource, dst []int32) []int32 {
	var libs game.PointSet
	capture := false
	oppMin, ownMin := 1<<30, 1<<30
	var seen [4]game.Point
	for i, n := range b.Neighbors(m) {
		switch c := b.At(n); c {
		case game.Empty:
			libs.Add(n)
		case me, me.Opponent():
			h := b.BlockHead(n)
			seen[i] = h
			if repeats(seen[:i], h) {
				continue
			}
			nl := source.Liberties(h)
			count := nl.Len()
			if c == me {
				ownMin = min(ownMin, count)
				libs = libs.Union(nl)
				continue
			}
			if count == 1 {
				capture = true
			}
			oppMin = min(oppMin, count-1)
		}
	}
	libs.Remove(m)
	if capture {
		dst = append(dst, l.Base+ldLibs+5)
	} else {
		dst = append(dst, l.Base+ldLibs+int32(min(max(libs.Len(), 1), 5)-1))
		if oppMin < 1<<30 {
			dst = append(dst, l.Base+ldOppLibs+int32(min(oppMin, 4)-1))
		}
	}
	if ownMin < 1<<30 {
		dst = append(dst, l.Base+ldOwnWeak+int32(min(ownMin, 3)-1))
	}
	return dst
}

// libertySource gives the liberties of the block at a stone of the
// position being featurised: the board itself, or the 9-dan features'
// analysis of it (features.Moves), which has walked every block already.
// A tsumego's walls are long blocks, and walking one again for each of the
// hundred moves beside it was a tenth of a solve's time.
type libertySource interface {
	Liberties(stone game.Point) game.PointSet
}

func repeats(heads []game.Point, h game.Point) bool {
	for _, x := range heads {
		if x == h {
			return true
		}
	}
	return false
}

// regionScan is the flood of one empty region, up to maxRegion+1 points.
type regionScan struct {
	pts      [maxRegion + 1]game.Point
	n        int
	open     bool
	encloser int // 0 none, 1 own, 2 opponent, 3 both
}

func (rs *regionScan) flood(b *game.Board, m game.Point, me game.Color) {
	var seen game.PointSet
	rs.pts[0], rs.n = m, 1
	seen.Add(m)
	for i := 0; i < rs.n; i++ {
		for _, n := range b.Neighbors(rs.pts[i]) {
			switch c := b.At(n); {
			case c == game.Empty:
				if seen.Has(n) {
					continue
				}
				if rs.n == len(rs.pts) {
					rs.open = true
					return
				}
				seen.Add(n)
				rs.pts[rs.n] = n
				rs.n++
			case c == me:
				rs.encloser |= 1
			case c == me.Opponent():
				rs.encloser |= 2
			}
		}
	}
}

func (rs *regionScan) sizeBucket() int {
	switch {
	case rs.open:
		return 7
	case rs.n >= 7:
		return 6
	default:
		return rs.n - 1
	}
}

// vital reports whether m has more neighbours inside a closed region of 3
// to 7 points than any other point of it, and at least two: the one point
// that splits the space (a straight four or a square four has none).
func (rs *regionScan) vital(b *game.Board, m game.Point) bool {
	if rs.open || rs.n < 3 || rs.n > 7 {
		return false
	}
	inside := func(p game.Point) int {
		k := 0
		for _, n := range b.Neighbors(p) {
			for _, q := range rs.pts[:rs.n] {
				if q == n {
					k++
				}
			}
		}
		return k
	}
	mine := inside(m)
	if mine < 2 {
		return false
	}
	for _, p := range rs.pts[1:rs.n] {
		if inside(p) >= mine {
			return false
		}
	}
	return true
}
