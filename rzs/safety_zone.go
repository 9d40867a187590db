package rzs

import (
	"slices"

	"lifezero/game"
)

// This file finds the zone of safeLife's local game (see safety.go): the
// regions of the living colour, the closure of small regions and living
// blocks around a block, and the connection points between its blocks.

// safetyRegions numbers the regions of a board for the living colour:
// maximal connected sets of points not of that colour.
type safetyRegions struct {
	living   game.Color
	n        int
	regionOf [game.MaxCells]int16 // region number plus one; 0 for the living colour's stones and the border
	size     [game.MaxCells]int16
}

// find floods the regions of b for living.
func (rs *safetyRegions) find(b *game.Board, living game.Color) {
	rs.living = living
	var stack [game.MaxCells]game.Point
	for i := 0; i < b.Cells(); i++ {
		p := game.Point(i)
		if rs.regionOf[p] != 0 || !rs.inRegion(b, p) {
			continue
		}
		rs.n++
		id := int16(rs.n)
		rs.regionOf[p] = id
		stack[0] = p
		for top := 1; top > 0; {
			top--
			q := stack[top]
			rs.size[id]++
			for _, n := range b.Neighbors(q) {
				if rs.regionOf[n] == 0 && rs.inRegion(b, n) {
					rs.regionOf[n] = id
					stack[top] = n
					top++
				}
			}
		}
	}
}

// inRegion reports whether p is a point of some region: on the board and
// not a living stone.
func (rs *safetyRegions) inRegion(b *game.Board, p game.Point) bool {
	c := b.At(p)
	return c == game.Empty || c == rs.living.Opponent()
}

// closure grows Z from the living block at p: it takes every small region
// next to a block taken and every living block next to a region taken,
// until nothing more joins. With links it also takes every living block
// one empty point away from a block taken, so that two blocks with an eye
// each may be joined by connection points. It returns Z, the sizes of its regions, and
// false when Z has more regions than the search could take.
func (rs *safetyRegions) closure(b *game.Board, p game.Point, links bool) (game.PointSet, []int, bool) {
	var z game.PointSet
	var taken [game.MaxCells]bool
	var sizes []int
	// queue holds the points of Z in the order they joined; each is
	// examined once for the regions and blocks next to it.
	var queue [game.MaxCells]game.Point
	n := 0
	push := func(q game.Point) {
		z.Add(q)
		queue[n] = q
		n++
	}
	b.BlockStones(p, push)
	for i := 0; i < n; i++ {
		q := queue[i]
		stone := b.At(q) == rs.living
		for _, m := range b.Neighbors(q) {
			switch {
			case z.Has(m):
			case b.At(m) == rs.living: // a block next to a region of Z
				b.BlockStones(m, push)
			case stone && rs.regionOf[m] != 0: // a region next to a block of Z
				id := rs.regionOf[m]
				if links && b.At(m) == game.Empty && rs.size[id] > safetyMaxRegion {
					// an empty point of a large region: the living blocks
					// it touches join Z (it may become a connection point)
					for _, l := range b.Neighbors(m) {
						if b.At(l) == rs.living && !z.Has(l) {
							b.BlockStones(l, push)
						}
					}
				}
				if taken[id] || rs.size[id] > safetyMaxRegion {
					continue
				}
				taken[id] = true
				if sizes = append(sizes, int(rs.size[id])); len(sizes) > safetyMaxEmpties {
					return z, sizes, false
				}
				for k := 0; k < b.Cells(); k++ {
					if rs.regionOf[k] == id {
						push(game.Point(k))
					}
				}
			}
		}
	}
	return z, sizes, true
}

// connections returns the empty points outside z's regions that join two
// of its blocks (every living stone next to them in z): the living
// side's connection and the killer's cut are then moves of the local game,
// where groups of two blocks with an eye each would otherwise never live.
func (rs *safetyRegions) connections(b *game.Board, z *game.PointSet) game.PointSet {
	var add game.PointSet
	for i := 0; i < b.Cells(); i++ {
		p := game.Point(i)
		if z.Has(p) || b.At(p) != game.Empty {
			continue
		}
		var heads [4]game.Point
		n, outside := 0, false
		for _, q := range b.Neighbors(p) {
			if b.At(q) != rs.living {
				continue
			}
			if !z.Has(q) {
				outside = true
				break
			}
			h := b.BlockHead(q)
			if !slices.Contains(heads[:n], h) {
				heads[n] = h
				n++
			}
		}
		if !outside && n >= 2 {
			add.Add(p)
		}
	}
	return add
}
