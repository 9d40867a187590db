package gtpengine

import (
	"lifezero/game"
)

// SensibleMoves appends to dst the moves the engine lets a player choose
// from for the side to move of pos: the legal moves (under positional
// superko for the mover, so that generated moves never repeat a position)
// that neither fill one of the mover's eyes nor put the mover's own block
// in atari without capturing. An empty result means the engine passes.
func SensibleMoves(dst []game.Point, pos *game.Position) []game.Point {
	me := pos.ToMove()
	q := pos.Copy()
	q.SetKoRule(me, game.PositionalSuperko)
	uca := pos.Benson(me)
	for _, m := range q.LegalMoves(nil, nil) {
		if pos.OwnEye(me, m) || inOwnVitalRegion(&pos.Board, me, &uca.Vital, m) || pos.SelfAtari(me, m) {
			continue
		}
		dst = append(dst, m)
	}
	return dst
}

// inOwnVitalRegion reports whether p lies in a vital region of c's
// unconditionally alive blocks (vital holds those regions) that holds no
// opponent stone: a point c already owns for good, where a move only
// risks the blocks' life. Regions with opponent stones are left open, so
// that c may still capture them.
func inOwnVitalRegion(b *game.Board, c game.Color, vital *game.PointSet, p game.Point) bool {
	if !vital.Has(p) {
		return false
	}
	var seen game.PointSet
	stack := []game.Point{p}
	seen.Add(p)
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b.At(q) == c.Opponent() {
			return false
		}
		for _, r := range b.Neighbors(q) {
			if col := b.At(r); col != c && col != game.Border && !seen.Has(r) && vital.Has(r) {
				seen.Add(r)
				stack = append(stack, r)
			}
		}
	}
	return true
}

// AreaScore returns Black's area minus White's area minus komi by the
// Tromp-Taylor rules: a point counts for a colour when it holds one of its
// stones or is empty and reaches stones of that colour only.
func AreaScore(pos *game.Position, komi float64) float64 {
	black, white := 0, 0
	var seen game.PointSet
	all := pos.AllPoints()
	all.ForEach(func(p game.Point) {
		switch pos.At(p) {
		case game.Black:
			black++
			return
		case game.White:
			white++
			return
		}
		if seen.Has(p) {
			return
		}
		size, reaches := emptyRegion(&pos.Board, p, &seen)
		switch reaches {
		case 1 << game.Black:
			black += size
		case 1 << game.White:
			white += size
		}
	})
	return float64(black-white) - komi
}

// emptyRegion floods the empty region of p, marking it in seen, and
// returns its size and a bit set of the colours it reaches (1<<Black,
// 1<<White).
func emptyRegion(b *game.Board, p game.Point, seen *game.PointSet) (size int, reaches int) {
	stack := []game.Point{p}
	seen.Add(p)
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		size++
		for _, r := range b.Neighbors(q) {
			switch col := b.At(r); col {
			case game.Black, game.White:
				reaches |= 1 << col
			case game.Empty:
				if !seen.Has(r) {
					seen.Add(r)
					stack = append(stack, r)
				}
			}
		}
	}
	return size, reaches
}

// FormatScore writes a score (Black's lead) the GTP way: "B+3.5", "W+0.5"
// or "0".
func FormatScore(s float64) string {
	switch {
	case s > 0:
		return "B+" + trimFloat(s)
	case s < 0:
		return "W+" + trimFloat(-s)
	}
	return "0"
}

// Lost reports whether colour c has lost whatever happens: the opponent's
// unconditionally alive stones and the points of their vital regions
// (Benson's algorithm) that hold no stone of c are the opponent's at the
// end of any game, and c cannot outscore them with every other point of
// the board and komi.
func Lost(pos *game.Position, c game.Color, komi float64) bool {
	opp := pos.Benson(c.Opponent())
	sure := opp.Alive.Len()
	opp.Vital.ForEach(func(p game.Point) {
		if pos.At(p) != c {
			sure++
		}
	})
	best := float64(pos.Size()*pos.Size() - 2*sure) // c's lead with every other point
	if c == game.Black {
		return best-komi < 0
	}
	return best+komi < 0
}
