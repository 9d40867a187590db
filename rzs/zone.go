package rzs

import "lifezero/game"

// A zone is a game.PointSet. The functions here grow zones so that the
// paper's consistent-replay (CR) conditions hold on the position they are
// computed for; they only ever add points (property ZZ-1 needs the parent's
// zone to contain the children's).

// closeBlocks adds the whole block of every stone in z: zones never cut a
// block, so a block's liberties and captures are judged on all its stones.
func closeBlocks(pos *game.Position, z *game.PointSet) bool {
	changed := false
	z.ForEach(func(p game.Point) {
		if c := pos.At(p); c == game.Black || c == game.White {
			pos.BlockStones(p, func(q game.Point) {
				if !z.Has(q) {
					z.Add(q)
					changed = true
				}
			})
		}
	})
	return changed
}

// addBlock adds the block at p to z.
func addBlock(pos *game.Position, z *game.PointSet, p game.Point) {
	pos.BlockStones(p, z.Add)
}

// dl1 applies DL-1: every block in z must have a liberty in z; a block with
// none gets its first liberty added. It reports whether z grew.
func dl1(pos *game.Position, z *game.PointSet) bool {
	changed := false
	forEachBlockIn(pos, z, func(head game.Point) {
		libs := pos.Liberties(head)
		if libs.Intersects(z) {
			return
		}
		if pts := libs.Points(); len(pts) > 0 {
			z.Add(pts[0])
			changed = true
		}
	})
	return changed
}

// forEachBlockIn calls f once for the head of every block with a stone in z.
func forEachBlockIn(pos *game.Position, z *game.PointSet, f func(head game.Point)) {
	var seen game.PointSet
	z.ForEach(func(p game.Point) {
		if c := pos.At(p); c != game.Black && c != game.White {
			return
		}
		h := pos.BlockHead(p)
		if !seen.Has(h) {
			seen.Add(h)
			f(h)
		}
	})
}

// adjacentBlocks calls f for the head of every block of colour c next to
// any point of pts, once each.
func adjacentBlocks(pos *game.Position, pts *game.PointSet, c game.Color, f func(head game.Point)) {
	var seen game.PointSet
	pts.ForEach(func(p game.Point) {
		for _, q := range pos.Neighbors(p) {
			if pos.At(q) != c {
				continue
			}
			if h := pos.BlockHead(q); !seen.Has(h) {
				seen.Add(h)
				f(h)
			}
		}
	})
}

// DilateOR returns the zone of an OR node (the living side to move) that
// wins by move m with child zone child. before is the node's position and
// after the child's. Per the appendix: the move joins the zone; if it
// captures, the captured blocks and the living blocks around them join too
// (so the capture replays); then DL-1 and block closure on both positions
// (so m is legal and captures the same in every position with the same
// zone pattern: CR-3), to a fixed point.
func DilateOR(before, after *game.Position, m game.Point, child game.PointSet) game.PointSet {
	z := child
	if m != game.Pass {
		z.Add(m)
		mover := before.ToMove()
		var single game.PointSet
		single.Add(m)
		adjacentBlocks(before, &single, mover.Opponent(), func(h game.Point) {
			libs := before.Liberties(h)
			if libs.Len() == 1 && libs.Has(m) { // captured by m
				blk := before.BlockSet(h)
				z = z.Union(blk)
				adjacentBlocks(before, &blk, mover, func(own game.Point) { addBlock(before, &z, own) })
			}
		})
	}
	for {
		changed := closeBlocks(before, &z)
		changed = dl1(before, &z) || changed
		changed = closeBlocks(after, &z) || changed
		changed = dl1(after, &z) || changed
		if !changed {
			return z
		}
	}
}

// DilateAND returns the zone of an AND node (the killer to move) whose
// children's zones unite to union. region is where moves may be played and
// living the living side. Per the appendix, to a fixed point:
//   - block closure and DL-1;
//   - CR-1 (suicide rule): for every point g of the zone where the killer
//     may not play because it would be suicide, the killer blocks next to g
//     and the living blocks around them and around g join, so g stays
//     suicide in every position with the same zone pattern;
//   - CR-2 (border rule): every living block of the zone with two or more
//     liberties gets two of them in the zone; one with a single liberty
//     brings in the killer blocks around it, so a killer move outside the
//     zone can never capture it, and a move inside captures the same.
func DilateAND(pos *game.Position, union game.PointSet, region *game.PointSet, living game.Color) game.PointSet {
	z := union
	killer := living.Opponent()
	for {
		changed := closeBlocks(pos, &z)
		changed = dl1(pos, &z) || changed
		changed = suicideRule(pos, &z, region, killer) || changed
		changed = borderRule(pos, &z, living) || changed
		if !changed {
			return z
		}
	}
}

// suicideRule is CR-1 for suicide (see DilateAND).
func suicideRule(pos *game.Position, z *game.PointSet, region *game.PointSet, killer game.Color) bool {
	before := *z
	living := killer.Opponent()
	z.ForEach(func(g game.Point) {
		if pos.At(g) != game.Empty || !region.Has(g) || pos.Board.Legal(killer, g) || g == pos.Ko() {
			return
		}
		var around game.PointSet
		around.Add(g)
		var killerBlocks game.PointSet
		adjacentBlocks(pos, &around, killer, func(h game.Point) {
			blk := pos.BlockSet(h)
			killerBlocks = killerBlocks.Union(blk)
		})
		*z = z.Union(killerBlocks)
		around = around.Union(killerBlocks)
		adjacentBlocks(pos, &around, living, func(h game.Point) { addBlock(pos, z, h) })
	})
	return *z != before
}

// borderRule is CR-2 (see DilateAND).
func borderRule(pos *game.Position, z *game.PointSet, living game.Color) bool {
	before := *z
	forEachBlockIn(pos, z, func(h game.Point) {
		if pos.At(h) != living {
			return
		}
		libs := pos.Liberties(h)
		if libs.Len() == 1 {
			blk := pos.BlockSet(h)
			adjacentBlocks(pos, &blk, living.Opponent(), func(k game.Point) { addBlock(pos, z, k) })
			*z = z.Union(libs)
			return
		}
		inZone := libs.Intersect(*z)
		for _, l := range libs.Points() {
			if inZone.Len() >= 2 {
				break
			}
			if !inZone.Has(l) {
				inZone.Add(l)
				z.Add(l)
			}
		}
	})
	return *z != before
}

// changedPoints returns the points whose contents differ between two
// positions of the same board: the move and the stones it captured.
func changedPoints(a, b *game.Position) game.PointSet {
	var s game.PointSet
	for i := 0; i < a.Cells(); i++ {
		p := game.Point(i)
		if a.At(p) != b.At(p) {
			s.Add(p)
		}
	}
	return s
}

// isNullMove reports whether a defender move that changed the points
// changed leaves the child's zone pattern as it was: only then does every
// sibling move outside the zone reach the same zone pattern, which is what
// pruning those siblings relies on. (The paper's test m ∉ z' misses a move
// outside the zone that captures stones inside it.)
func isNullMove(changed, childZone *game.PointSet) bool {
	return !changed.Intersects(childZone)
}

// nullReply reports whether the killer's move from before to after is a
// null move for the living side's win with zone (isNullMove on the points
// it changed).
func nullReply(before, after *game.Position, zone *game.PointSet) bool {
	changed := changedPoints(before, after)
	return isNullMove(&changed, zone)
}
