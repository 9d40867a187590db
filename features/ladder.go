package features

import (
	"math/bits"

	"lifezero/game"
)

// Ladder reading limits. A ladder across a 19x19 board takes about 36 moves
// of each side; the node budget bounds the branching of the attacker's two
// ataris. A read that runs out of either counts as an escape, the cautious
// answer for both sides' features. Over 4000 positions of real 19x19 games
// the largest read took between 512 and 1024 nodes (230 nodes per position
// in all), so the budget is almost never reached. When it is, the answer
// may depend on the order the ataris are tried in, which is the only way
// extraction can differ between a position and its mirror image.
const (
	ladderMaxDepth = 160
	ladderMaxNodes = 2000
)

// ladderReader reads ladders on copies of a board: the attacker keeps
// ataring the target block, the defender extends from atari or captures an
// attacker block that is itself in atari, until the target has three
// liberties (escaped) or is captured. Stones already on the board, such as
// ladder breakers, take part as they are. Boards are values, so a copy is
// the undo.
type ladderReader struct {
	nodes int
}

// defenderDies reports whether the block at t, in atari with its owner to
// move, is captured however it tries to escape.
func (r *ladderReader) defenderDies(b *game.Board, t game.Point) bool {
	r.nodes = 0
	return !r.escapes(b, t, 0)
}

// attackerCaptures reports whether the opponent of the block at t, to move,
// captures it in a ladder (the block has at most two liberties).
func (r *ladderReader) attackerCaptures(b *game.Board, t game.Point) bool {
	r.nodes = 0
	return r.captures(b, t, 0)
}

// escapes: the defender (owner of t) is to move and t is in atari.
func (r *ladderReader) escapes(b *game.Board, t game.Point, depth int) bool {
	r.nodes++
	if r.nodes > ladderMaxNodes || depth > ladderMaxDepth {
		return true
	}
	def := b.At(t)
	libs := b.Liberties(t)
	if libs.Len() != 1 {
		return libs.Len() > 1
	}
	lib := firstPoint(&libs)
	if lib != b.Ko() && surelyEscapes(b, lib, game.NoPoint, game.NoPoint) {
		return true // extending gives three liberties
	}
	// Capture an adjacent attacker block in atari.
	var seen, captures game.PointSet
	b.BlockStones(t, func(s game.Point) {
		for _, q := range b.Neighbors(s) {
			if b.At(q) != def.Opponent() || seen.Has(b.BlockHead(q)) {
				continue
			}
			seen.Add(b.BlockHead(q))
			if b.InAtari(q) {
				ql := b.Liberties(q)
				captures.Add(firstPoint(&ql))
			}
		}
	})
	for x := firstPoint(&captures); x != game.NoPoint; x = firstPoint(&captures) {
		captures.Remove(x)
		if r.tryDefender(b, t, def, x, depth) {
			return true
		}
	}
	return r.tryDefender(b, t, def, lib, depth)
}

// tryDefender plays the defender's move x on a copy and reports whether the
// target then survives the attacker's reply.
func (r *ladderReader) tryDefender(b *game.Board, t game.Point, def game.Color, x game.Point, depth int) bool {
	if !b.Legal(def, x) { // checked first: Play would format an error
		return false
	}
	nb := *b
	if _, err := nb.Play(def, x); err != nil {
		return false
	}
	return !r.captures(&nb, t, depth+1)
}

// captures: the attacker is to move against the block at t.
func (r *ladderReader) captures(b *game.Board, t game.Point, depth int) bool {
	r.nodes++
	if r.nodes > ladderMaxNodes || depth > ladderMaxDepth {
		return false
	}
	def := b.At(t)
	if def != game.Black && def != game.White {
		return true // already captured
	}
	att := def.Opponent()
	libs := b.Liberties(t)
	switch libs.Len() {
	case 0:
		return true
	case 1:
		return b.Legal(att, firstPoint(&libs))
	case 2:
	default:
		return false
	}
	var two [2]game.Point
	k := 0
	libs.ForEach(func(p game.Point) { two[k] = p; k++ })
	// Try first the atari on the roomier liberty, which leaves the
	// defender's extension the fewest liberties: the usual ladder move.
	if extensionRoom(b, two[1]) > extensionRoom(b, two[0]) {
		two[0], two[1] = two[1], two[0]
	}
	for i, x := range two {
		if surelyEscapes(b, two[1-i], x, game.NoPoint) || !b.Legal(att, x) {
			continue
		}
		nb := *b
		if _, err := nb.Play(att, x); err != nil {
			continue
		}
		if !r.escapes(&nb, t, depth+1) {
			return true
		}
	}
	return false
}

// surelyEscapes reports, without playing, that after the attacker's atari
// at x the defender's extension at y (its last liberty) has three
// liberties or more: y's empty neighbours other than x and other than
// occupied, a point about to be played, are a lower bound.
func surelyEscapes(b *game.Board, y, x, occupied game.Point) bool {
	n := 0
	for _, q := range b.Neighbors(y) {
		if q != x && q != occupied && b.At(q) == game.Empty {
			n++
		}
	}
	return n >= 3
}

// extensionRoom counts the empty neighbours of p.
func extensionRoom(b *game.Board, p game.Point) int {
	n := 0
	for _, q := range b.Neighbors(p) {
		if b.At(q) == game.Empty {
			n++
		}
	}
	return n
}

// firstPoint returns the smallest member of s, or NoPoint.
func firstPoint(s *game.PointSet) game.Point {
	for i, w := range s {
		if w != 0 {
			return game.Point(i*64 + bits.TrailingZeros64(w))
		}
	}
	return game.NoPoint
}
