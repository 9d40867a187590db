package features

import "lifezero/game"

// pat3Offsets returns the neighbour slots of the 3x3 pattern as (dx, dy)
// offsets. The order fixes the bit layout of pattern codes, so it must not
// change.
func pat3Offsets() [][2]int {
	return [][2]int{
		{-1, -1}, {0, -1}, {1, -1}, // NW N NE
		{-1, 0}, {1, 0}, // W E
		{-1, 1}, {0, 1}, {1, 1}, // SW S SE
	}
}

// diamondOffsets returns the neighbour slots of the diamond pattern: the
// four at distance 1, the four diagonals, the four at distance 2 in a
// straight line. Each group of four lists north, west, east, south
// (diagonals: NW, NE, SW, SE), so that every symmetry permutes within a
// group, and both straight groups the same way.
func diamondOffsets() [][2]int {
	return [][2]int{
		{0, -1}, {-1, 0}, {1, 0}, {0, 1},
		{-1, -1}, {1, -1}, {-1, 1}, {1, 1},
		{0, -2}, {-2, 0}, {2, 0}, {0, 2},
	}
}

// geometry holds the per-point tables of one board size: the line, the
// coordinates, and the points of the 3x3 and diamond neighbourhoods (-1 for
// off-board). Padded indices wrap from one row's edge to the next, so the
// neighbourhoods are computed from coordinates once, here.
type geometry struct {
	size    int
	line    [game.MaxCells]int8
	x, y    [game.MaxCells]int8
	ring    [game.MaxCells][8]int16
	diamond [game.MaxCells][12]int16
}

// newGeometries builds the tables of every board size, indexed by size.
func newGeometries() []*geometry {
	geos := make([]*geometry, game.MaxSize+1)
	for n := game.MinSize; n <= game.MaxSize; n++ {
		geos[n] = newGeometry(n)
	}
	return geos
}

func newGeometry(n int) *geometry {
	b, _ := game.NewBoard(n) // n is in range, so this cannot fail
	g := &geometry{size: n}
	at := func(x, y int) int16 {
		if x < 0 || y < 0 || x >= n || y >= n {
			return -1
		}
		return int16(b.Point(x, y))
	}
	ring, dia := pat3Offsets(), diamondOffsets()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := b.Point(x, y)
			g.x[p], g.y[p] = int8(x), int8(y)
			g.line[p] = int8(min(x, y, n-1-x, n-1-y) + 1)
			for i, o := range ring {
				g.ring[p][i] = at(x+o[0], y+o[1])
			}
			for i, o := range dia {
				g.diamond[p][i] = at(x+o[0], y+o[1])
			}
		}
	}
	return g
}

// symOffset applies symmetry s to an offset: bit 0 flips x, bit 1 flips y,
// bit 2 then transposes, as game.Symmetry does to coordinates.
func symOffset(s game.Symmetry, o [2]int) [2]int {
	x, y := o[0], o[1]
	if s&1 != 0 {
		x = -x
	}
	if s&2 != 0 {
		y = -y
	}
	if s&4 != 0 {
		x, y = y, x
	}
	return [2]int{x, y}
}

// slotPermutation returns, for symmetry s, where each slot of offsets goes:
// perm[i] = j when s maps offset i to offset j.
func slotPermutation(s game.Symmetry, offsets [][2]int) []int {
	perm := make([]int, len(offsets))
	for i, o := range offsets {
		t := symOffset(s, o)
		for j, u := range offsets {
			if u == t {
				perm[i] = j
			}
		}
	}
	return perm
}

// Point states of the diamond and shape patterns, relative to the side to
// move (2 bits each), and the characters that draw them: X own, O opponent,
// . empty, # off the board.
const (
	stateEmpty = 0
	stateOwn   = 1
	stateOpp   = 2
	stateOff   = 3

	stateChars = ".XO#"
)

// pointState returns the state of on-board point p for side c.
func pointState(b *game.Board, p game.Point, c game.Color) uint8 {
	switch b.At(p) {
	case game.Empty:
		return stateEmpty
	case c:
		return stateOwn
	}
	return stateOpp
}

// fuegoDistance is the distance dx+dy+max(dx,dy) of Fuego and Coulom's
// features: 2 for a neighbour, 3 for a diagonal, 4 for a one-point jump.
func fuegoDistance(g *geometry, p, q game.Point) int {
	dx := abs(int(g.x[p]) - int(g.x[q]))
	dy := abs(int(g.y[p]) - int(g.y[q]))
	return dx + dy + max(dx, dy)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
