package recindex

// State codes of a point in index keys: two bits each.
const (
	codeEmpty = 0
	codeBlack = 1
	codeWhite = 2
	codeOff   = 3 // off the board
)

// Event kinds: a stone placed by a move, or a stone removed by a capture.
const (
	kindMove    = 0
	kindCapture = 1
)

// The 64-bit key of an event seen from one of its five views, sorted to
// group events by their kind, colour and neighbourhood:
//
//	bit 63      kind (move, capture)
//	bit 62      colour of the stone placed or removed (0 black, 1 white)
//	bits 59..61 view: 0..3 a quadrant (bit 0 set looks left, -x, bit 1
//	            up, -y), 4 the block centred on the point
//	bits 11..58 the 24 other points of the view's 5x5 block (the event's
//	            point in its corner, or at its centre), 2 bits each,
//	            nearest first, the first the highest
//	bits 0..8   the event's point, y*size+x
//
// Every event is indexed once per view. A query looks from the anchor
// through the view that covers most of the pattern, so the pattern's
// points come first in the key and a sorted-key search meets them before
// the free ones.
const (
	viewShift  = 59
	cellsShift = 11
	pointBits  = 9
	pointMask  = 1<<pointBits - 1
	numViews   = 5
	centreView = 4
)

// offset is a (dx, dy) step on the board.
type offset struct{ dx, dy int }

// quadCells are the points of the 5x5 block beside the corner (0, 0),
// ordered by distance; they are mirrored into each quadrant. centreCells
// are the points at distance 1 then 2 of the centre.
var (
	quadCells   = quadOrder(4)
	centreCells = append(ringAt(1), ringAt(2)...)
)

// viewOffset is the step from an event's point to cell j of view v.
func viewOffset(v, j int) offset {
	if v == centreView {
		return centreCells[j]
	}
	return quadOffset(v, quadCells[j])
}

func ringAt(d int) []offset {
	var out []offset
	for dy := -d; dy <= d; dy++ {
		for dx := -d; dx <= d; dx++ {
			if max(abs(dx), abs(dy)) == d {
				out = append(out, offset{dx, dy})
			}
		}
	}
	return out
}

func quadOrder(n int) []offset {
	var out []offset
	for d := 1; d <= n; d++ {
		for i := 0; i < d; i++ {
			out = append(out, offset{d, i}, offset{i, d})
		}
		out = append(out, offset{d, d})
	}
	return out
}

// quadOffset maps a quadrant cell onto the board's steps.
func quadOffset(q int, c offset) offset {
	if q&1 != 0 {
		c.dx = -c.dx
	}
	if q&2 != 0 {
		c.dy = -c.dy
	}
	return c
}

// cellShift is the bit position of quadrant cell j in a key.
func cellShift(j int) int { return cellsShift + 2*(len(quadCells)-1-j) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// The extension of an event's key in one view, stored beside the key: the
// 24 points of the view beyond its 5x5 block that a 7x7 pattern can reach,
// 2 bits each (bits 0..47): for a quadrant view the points at distance 5
// and 6 (the 7x7 block with the event in its corner), for the centre view
// those at distance 3 (the 7x7 block centred on it). The skip scan reads
// keys only; a key that matches has its extension tested before it
// becomes a candidate, so the points beyond the key's block reject
// candidates from a sequential read instead of a verification.
var (
	quadExtCells   = quadOrder(6)[len(quadCells):]
	centreExtCells = ringAt(3)
)

// extOffset is the step from an event's point to extension cell j of view v.
func extOffset(v, j int) offset {
	if v == centreView {
		return centreExtCells[j]
	}
	return quadOffset(v, quadExtCells[j])
}

// extShift is the bit position of extension cell j.
func extShift(j int) int { return 2 * j }

// eventExt computes the extension of an event at (x, y) seen from view v.
func eventExt(v int, board []uint8, size, x, y int) uint64 {
	var ext uint64
	for j := range quadExtCells {
		o := extOffset(v, j)
		ext |= uint64(codeAt(board, size, x+o.dx, y+o.dy)) << extShift(j)
	}
	return ext
}

// eventKey computes the key of an event at (x, y) seen from view v, on a
// board of side size whose codes are in board (row-major).
func eventKey(kind, colour, v int, board []uint8, size, x, y int) uint64 {
	key := uint64(kind)<<63 | uint64(colour)<<62 | uint64(v)<<viewShift | uint64(y*size+x)
	for j := range quadCells {
		o := viewOffset(v, j)
		key |= uint64(codeAt(board, size, x+o.dx, y+o.dy)) << cellShift(j)
	}
	return key
}

func codeAt(board []uint8, size, x, y int) uint8 {
	if x < 0 || y < 0 || x >= size || y >= size {
		return codeOff
	}
	return board[y*size+x]
}

// codeConstraint is the (mask, value) test on a point's two key bits that
// a pattern mask implies, when it can be said with bits: single states,
// "black or empty" (high bit clear) and "white or empty" (low bit clear).
// Other masks give no constraint and are checked on verification.
func codeConstraint(m Mask) (mask, value uint64) {
	switch m {
	case MaskEmpty:
		return 3, codeEmpty
	case MaskBlack:
		return 3, codeBlack
	case MaskWhite:
		return 3, codeWhite
	case MaskEmpty | MaskBlack:
		return 2, 0
	case MaskEmpty | MaskWhite:
		return 1, 0
	}
	return 0, 0
}

// maskHas reports whether mask m allows state code c (empty, black, white).
func maskHas(m Mask, c uint8) bool { return c < codeOff && m&(1<<c) != 0 }
