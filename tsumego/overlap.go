package tsumego

import "lifezero/game"

// Contains reports whether every stone of p's position appears, under one
// of the eight board symmetries and either colouring, and shifted along any
// edge it does not touch, at the same place in pos (a board of the same
// size): whether a training problem is, or sits inside, a position to be
// measured. Training on such a problem would
// preload that position's answer, which the solver must never be given.
func Contains(pos *game.Position, p Problem) bool {
	a, b := &p.Position.Board, &pos.Board
	if a.Size() != b.Size() {
		return false
	}
	var stones []game.Point
	for y := range a.Size() {
		for x := range a.Size() {
			if c := a.At(a.Point(x, y)); c == game.Black || c == game.White {
				stones = append(stones, a.Point(x, y))
			}
		}
	}
	if len(stones) == 0 {
		return false
	}
	n := a.Size()
	for s := game.Symmetry(0); s < 8; s++ {
		minX, minY, maxX, maxY := n, n, -1, -1
		for _, p := range stones {
			x, y := b.XY(b.Transform(s, p))
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
		}
		// A stone on an edge pins the shift across that edge: the edge is
		// part of the shape.
		dxs, dys := shifts(minX, maxX, n), shifts(minY, maxY, n)
		for _, dx := range dxs {
			for _, dy := range dys {
				for _, swap := range []bool{false, true} {
					if containsUnder(a, b, stones, s, dx, dy, swap) {
						return true
					}
				}
			}
		}
	}
	return false
}

// shifts lists the offsets that keep [lo, hi] on a board of side n, only 0
// when the span touches an edge.
func shifts(lo, hi, n int) []int {
	if lo == 0 || hi == n-1 {
		return []int{0}
	}
	var out []int
	for d := -lo; hi+d < n; d++ {
		if lo+d > 0 && hi+d < n-1 {
			out = append(out, d)
		}
	}
	return out
}

func containsUnder(a, b *game.Board, stones []game.Point, s game.Symmetry, dx, dy int, swap bool) bool {
	for _, p := range stones {
		want := a.At(p)
		if swap {
			want = want.Opponent()
		}
		x, y := b.XY(b.Transform(s, p))
		if b.At(b.Point(x+dx, y+dy)) != want {
			return false
		}
	}
	return true
}
