package game

// Symmetry is one of the eight symmetries of the square board: bit 0 flips
// the columns, bit 1 flips the rows, and bit 2 then transposes.
type Symmetry uint8

// Identity is the symmetry that changes nothing; NumSymmetries counts them.
const (
	Identity      Symmetry = 0
	NumSymmetries          = 8
)

// apply maps coordinates on an n x n board.
func (s Symmetry) apply(x, y, n int) (int, int) { return s.Rect(x, y, n, n) }

// Rect maps (x, y) of a w x h rectangle under s; the result lies in the
// transformed rectangle (h x w when s transposes).
func (s Symmetry) Rect(x, y, w, h int) (int, int) {
	if s&1 != 0 {
		x = w - 1 - x
	}
	if s&2 != 0 {
		y = h - 1 - y
	}
	if s&4 != 0 {
		x, y = y, x
	}
	return x, y
}

// Inverse returns the symmetry that undoes s.
func (s Symmetry) Inverse() Symmetry {
	if s&4 == 0 {
		return s
	}
	// (transpose ∘ flip)⁻¹ = flip ∘ transpose = transpose ∘ (flip with the
	// row and column bits swapped).
	return 4 | (s&1)<<1 | (s&2)>>1
}

// Transform maps an on-board point (Pass and NoPoint map to themselves).
func (b *Board) Transform(s Symmetry, p Point) Point {
	if p < 0 {
		return p
	}
	x, y := b.XY(p)
	x, y = s.apply(x, y, b.size)
	return b.Point(x, y)
}

// TransformSet maps every point of a set.
func (b *Board) TransformSet(s Symmetry, set *PointSet) PointSet {
	var out PointSet
	set.ForEach(func(p Point) { out.Add(b.Transform(s, p)) })
	return out
}

// Transformed returns the position mapped by s: stones, side to move, ko
// point and ko rules. The superko history cannot be mapped (it holds only
// hashes) and is dropped.
func (p *Position) Transformed(s Symmetry) *Position {
	b, _ := NewBoard(p.size) // p.size is valid, so NewBoard cannot fail
	q := &Position{Board: *b, toMove: p.toMove, passes: p.passes, moveNum: p.moveNum, koRule: p.koRule}
	for i := 0; i < p.cells; i++ {
		if c := p.color[i]; c == Black || c == White {
			// Placing the stones of a legal position never fails.
			_ = q.Place(c, p.Transform(s, Point(i)))
		}
	}
	q.ko = p.Transform(s, p.ko)
	q.captured = p.captured
	return q
}
