package features

import "lifezero/game"

// blockInfo is what extraction needs of one block, computed once per
// position.
type blockInfo struct {
	head  game.Point
	color game.Color
	size  int
	nlibs int
	libs  game.PointSet
	// nextToNewAtari marks an opponent block that touches an own block the
	// last move put in atari (capturing it answers that atari).
	nextToNewAtari bool
	// The ladder verdict is read on demand and cached: for an opponent
	// block in atari, whether it dies even with its owner to move; for an
	// own two-liberty block, whether the opponent to move ladders it.
	ladderRead bool
	ladderDead bool
}

// analysis is the per-position state of one extraction: blocks, distance
// maps, the validated history and the boards that ladder reads start from.
// It lives in Moves, so an Extractor stays read-only and can be shared.
type analysis struct {
	pos     *game.Position
	geo     *geometry
	me, opp game.Color

	blockAt  [game.MaxCells]int16 // block index, valid at block heads
	blocks   []blockInfo
	ownAtari []int // indices of own blocks in atari

	closeOwn, closeOpp [game.MaxCells]uint8
	cfgLast, cfgOwn    [game.MaxCells]uint8

	last, ownPrev game.Point // on-board points or NoPoint
	lastPass      bool
	lastHead      game.Point // head of the last move's block, or NoPoint
	koOnBoard     bool

	shapes shapeGrid // the board for shape walks, when the set has shapes

	queue  []game.Point
	reader ladderReader
	// noLadders is the extractor's Config.NoLadders.
	noLadders bool

	// base is the position's board with the ko point cleared, for reads
	// where the opponent moves first; after is the board after the move
	// being extracted. Both are filled on demand.
	base, after           game.Board
	baseReady, afterReady bool
	afterMove             game.Point
}

// noDistance marks a point with no stone of the colour on the board.
const noDistance = 255

func (a *analysis) reset(g *geometry, pos *game.Position, h History) {
	a.pos, a.geo = pos, g
	a.me = pos.ToMove()
	a.opp = a.me.Opponent()
	a.baseReady, a.afterReady = false, false
	a.koOnBoard = pos.Ko() != game.NoPoint
	a.last, a.ownPrev, a.lastHead = game.NoPoint, game.NoPoint, game.NoPoint
	a.lastPass = h.Last == game.Pass
	if pos.OnBoard(h.Last) {
		a.last = h.Last
		if c := pos.At(h.Last); c == game.Black || c == game.White {
			a.lastHead = pos.BlockHead(h.Last)
		}
	}
	if pos.OnBoard(h.OwnPrev) {
		a.ownPrev = h.OwnPrev
	}
	a.findBlocks()
	a.closest(&a.closeOwn, a.me)
	a.closest(&a.closeOpp, a.opp)
	if a.last != game.NoPoint {
		a.cfg(&a.cfgLast, a.last)
	}
	if a.ownPrev != game.NoPoint {
		a.cfg(&a.cfgOwn, a.ownPrev)
	}
}

// findBlocks lists the blocks with their liberties and marks the opponent
// blocks next to own blocks that the last move put in atari.
func (a *analysis) findBlocks() {
	pos := a.pos
	a.blocks = a.blocks[:0]
	a.ownAtari = a.ownAtari[:0]
	for i := 0; i < pos.Cells(); i++ {
		p := game.Point(i)
		c := pos.At(p)
		if (c != game.Black && c != game.White) || pos.BlockHead(p) != p {
			continue
		}
		libs := pos.Liberties(p)
		a.blockAt[p] = int16(len(a.blocks))
		n := libs.Len()
		a.blocks = append(a.blocks, blockInfo{head: p, color: c, size: pos.BlockSize(p), nlibs: n, libs: libs})
		if c == a.me && n == 1 {
			a.ownAtari = append(a.ownAtari, len(a.blocks)-1)
		}
	}
	for _, i := range a.ownAtari {
		if !a.touchesLast(a.blocks[i].head) {
			continue
		}
		pos.BlockStones(a.blocks[i].head, func(s game.Point) {
			for _, q := range pos.Neighbors(s) {
				if pos.At(q) == a.opp {
					a.block(q).nextToNewAtari = true
				}
			}
		})
	}
}

// touchesLast reports whether the last move is a stone next to the block at
// head: a block in atari that touches it was put in atari by it.
func (a *analysis) touchesLast(head game.Point) bool {
	if a.lastHead == game.NoPoint {
		return false
	}
	for _, q := range a.pos.Neighbors(a.last) {
		if a.pos.At(q) == a.me && a.pos.BlockHead(q) == head {
			return true
		}
	}
	return false
}

// block returns the info of the block at stone p.
func (a *analysis) block(p game.Point) *blockInfo {
	return &a.blocks[a.blockAt[a.pos.BlockHead(p)]]
}

// closest fills dst with the distance dx+dy+max(dx,dy) from each point to
// the closest stone of colour c (noDistance when there is none, capped
// below it). The metric is the 2-3 chamfer distance (2 per straight step,
// 3 per diagonal step), so two raster passes compute it exactly.
func (a *analysis) closest(dst *[game.MaxCells]uint8, c game.Color) {
	const inf = 1000
	pos, g := a.pos, a.geo
	n := g.size
	w := n + 2
	var grid [(game.MaxSize + 2) * (game.MaxSize + 2)]int16
	for i := range grid[:w*w] {
		grid[i] = inf
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if pos.At(pos.Point(x, y)) == c {
				grid[(y+1)*w+x+1] = 0
			}
		}
	}
	// Each pass takes a row's three neighbours in the row before it first,
	// which no point of the row waits on, and then the one before it in the
	// row, a chain of one addition: the same minimum as one loop over all
	// four, at half the time (the chain of four was the whole cost).
	for y := 1; y <= n; y++ {
		row, prev := grid[y*w:y*w+w], grid[(y-1)*w:y*w]
		for x := 1; x <= n; x++ {
			row[x] = min(row[x], prev[x]+2, min(prev[x-1], prev[x+1])+3)
		}
		for x := 1; x <= n; x++ {
			row[x] = min(row[x], row[x-1]+2)
		}
	}
	for y := n; y >= 1; y-- {
		row, next := grid[y*w:y*w+w], grid[(y+1)*w:(y+2)*w]
		for x := n; x >= 1; x-- {
			row[x] = min(row[x], next[x]+2, min(next[x-1], next[x+1])+3)
		}
		for x := n; x >= 1; x-- {
			row[x] = min(row[x], row[x+1]+2)
		}
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			dst[pos.Point(x, y)] = uint8(min(grid[(y+1)*w+x+1], noDistance))
		}
	}
}

// cfgCap is the largest common-fate-graph distance told apart.
const cfgCap = 4

// cfg fills dst with the common-fate-graph distance from the point from
// (its whole block when it is a stone), capped at cfgCap: every block is
// one node, every empty point another, and adjacent nodes are one apart.
func (a *analysis) cfg(dst *[game.MaxCells]uint8, from game.Point) {
	pos := a.pos
	for i := 0; i < pos.Cells(); i++ {
		dst[i] = cfgCap
	}
	q := a.queue[:0]
	visit := func(p game.Point, d uint8) {
		if c := pos.At(p); c == game.Black || c == game.White {
			pos.BlockStones(p, func(s game.Point) {
				dst[s] = d
				q = append(q, s)
			})
			return
		}
		dst[p] = d
		q = append(q, p)
	}
	visit(from, 0)
	for i := 0; i < len(q); i++ {
		d := dst[q[i]]
		if d+1 >= cfgCap {
			continue
		}
		for _, n := range pos.Neighbors(q[i]) {
			if dst[n] == cfgCap && pos.At(n) != game.Border {
				visit(n, d+1)
			}
		}
	}
	a.queue = q
}

// baseBoard returns the position's board with the ko point cleared, so
// that the opponent may move first in a read.
func (a *analysis) baseBoard() *game.Board {
	if !a.baseReady {
		a.base = a.pos.Board
		_, _ = a.base.Play(a.me, game.Pass) // a pass only clears the ko point
		a.baseReady = true
	}
	return &a.base
}

// afterBoard returns the board after the side to move plays the legal
// move m.
func (a *analysis) afterBoard(m game.Point) *game.Board {
	if !a.afterReady || a.afterMove != m {
		a.after = a.pos.Board
		_, _ = a.after.Play(a.me, m) // m is legal
		a.afterReady, a.afterMove = true, m
	}
	return &a.after
}

// ladderDead returns the cached ladder verdict of block bi (see blockInfo).
func (a *analysis) ladderDead(bi *blockInfo) bool {
	if !bi.ladderRead {
		b := a.baseBoard()
		if bi.color == a.opp {
			bi.ladderDead = a.defenderDies(b, bi.head)
		} else {
			bi.ladderDead = a.attackerCaptures(b, bi.head)
		}
		bi.ladderRead = true
	}
	return bi.ladderDead
}

// attackerCaptures reads whether the attacker, to move on b, captures the
// block at p in a ladder; with Config.NoLadders nothing is read and the
// block escapes.
func (a *analysis) attackerCaptures(b *game.Board, p game.Point) bool {
	return !a.noLadders && a.reader.attackerCaptures(b, p)
}

// defenderDies reads whether the block at h, its owner to move on b, dies
// in a ladder; with Config.NoLadders nothing is read and it escapes.
func (a *analysis) defenderDies(b *game.Board, h game.Point) bool {
	return !a.noLadders && a.reader.defenderDies(b, h)
}
