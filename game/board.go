package game

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Board is a Go board: stones, blocks with pseudo-liberty counts, the simple
// ko point and a Zobrist hash of the stones. It knows the rules of a single
// move (occupied, suicide, captures, simple ko) but not the history; Position
// adds the side to move, passes and superko.
//
// A Board is a plain value of fixed-size arrays: copying it (b2 := *b) is
// the cheap undo that search uses.
type Board struct {
	size   int
	stride int
	cells  int // length of the used part of the arrays

	color [MaxCells]Color
	// head is the representative stone of each stone's block; next links
	// the stones of a block in a circle.
	head [MaxCells]int16
	next [MaxCells]int16
	// plibs counts, at the head, the (point, neighbour) adjacencies between
	// the block and empty points: zero exactly when the block has no
	// liberty.
	plibs [MaxCells]int16
	// stones counts, at the head, the stones of the block.
	stones [MaxCells]int16

	ko       Point  // point the side to move may not play (simple ko), or NoPoint
	hash     uint64 // Zobrist hash of the stones only
	captured [3]int // stones captured of each colour so far
}

// NewBoard returns an empty board of the given size.
func NewBoard(size int) (*Board, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("game: board size %d out of range %d..%d", size, MinSize, MaxSize)
	}
	b := &Board{size: size, stride: size + 1, ko: NoPoint}
	b.cells = (size+2)*b.stride + 1
	for i := 0; i < b.cells; i++ {
		b.color[i] = Border
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			b.color[b.Point(x, y)] = Empty
		}
	}
	return b, nil
}

// Size returns the board's side length.
func (b *Board) Size() int { return b.size }

// Stride returns the distance between vertically adjacent points.
func (b *Board) Stride() int { return b.stride }

// Cells returns the length of the padded array: every Point of this board is
// below it.
func (b *Board) Cells() int { return b.cells }

// Point returns the point at column x and row y (0-based, row 0 at the top,
// as in SGF).
func (b *Board) Point(x, y int) Point { return Point((y+1)*b.stride + x) }

// XY returns the column and row of an on-board point.
func (b *Board) XY(p Point) (x, y int) {
	return int(p) % b.stride, int(p)/b.stride - 1
}

// OnBoard reports whether p is a point of the board (not border, pass or
// out of range).
func (b *Board) OnBoard(p Point) bool {
	return p >= 0 && int(p) < b.cells && b.color[p] != Border
}

// At returns the colour at p.
func (b *Board) At(p Point) Color { return b.color[p] }

// Neighbors returns the four neighbours of p (some may be Border).
func (b *Board) Neighbors(p Point) [4]Point {
	s := Point(b.stride)
	return [4]Point{p - s, p - 1, p + 1, p + s}
}

// AllPoints returns the set of every on-board point.
func (b *Board) AllPoints() PointSet {
	var s PointSet
	for i := 0; i < b.cells; i++ {
		if b.color[i] != Border {
			s.Add(Point(i))
		}
	}
	return s
}

// Ko returns the simple-ko point the side to move may not play, or NoPoint.
func (b *Board) Ko() Point { return b.ko }

// StoneHash returns the Zobrist hash of the stones alone (what positional
// superko compares).
func (b *Board) StoneHash() uint64 { return b.hash }

// Captured returns how many stones of colour c have been captured.
func (b *Board) Captured(c Color) int { return b.captured[c] }

// BlockHead returns the representative point of the block at p; all stones of
// a block share it.
func (b *Board) BlockHead(p Point) Point { return Point(b.head[p]) }

// BlockSize returns the number of stones in the block at p (0 when p holds
// no stone).
func (b *Board) BlockSize(p Point) int {
	if !b.isStone(p) {
		return 0
	}
	return int(b.stones[b.head[p]])
}

// isStone reports whether p is a point of the padded array holding a stone.
func (b *Board) isStone(p Point) bool {
	return p >= 0 && int(p) < b.cells && (b.color[p] == Black || b.color[p] == White)
}

// BlockStones calls f for every stone of the block at p; for a point
// without a stone it calls nothing.
func (b *Board) BlockStones(p Point, f func(Point)) {
	if !b.isStone(p) {
		// The block links of an empty point are stale (or never set),
		// and following them would not come back to p.
		return
	}
	q := p
	for {
		f(q)
		q = Point(b.next[q])
		if q == p {
			return
		}
	}
}

// BlockSet returns the stones of the block at p as a set.
func (b *Board) BlockSet(p Point) PointSet {
	var s PointSet
	b.BlockStones(p, s.Add)
	return s
}

// Liberties returns the liberties of the block at p as a set.
func (b *Board) Liberties(p Point) PointSet {
	var libs PointSet
	b.BlockStones(p, func(q Point) {
		for _, n := range b.Neighbors(q) {
			if b.color[n] == Empty {
				libs.Add(n)
			}
		}
	})
	return libs
}

// LibertyCount returns the number of distinct liberties of the block at p.
func (b *Board) LibertyCount(p Point) int {
	libs := b.Liberties(p)
	return libs.Len()
}

// InAtari reports whether the block at p has exactly one liberty.
func (b *Board) InAtari(p Point) bool {
	// Pseudo-liberties over-count, so only a full count can confirm atari;
	// a block with at most one pseudo-liberty is in atari or dead.
	if b.plibs[b.head[p]] == 1 {
		return true
	}
	return b.LibertyCount(p) == 1
}

// AtariLiberty returns the one liberty of the block at p when it has
// exactly one (the block is in atari). A point holding no stone has none.
func (b *Board) AtariLiberty(p Point) (Point, bool) {
	if !b.isStone(p) {
		return NoPoint, false
	}
	// One empty point touches at most four stones of a block, so a block
	// with more than four pseudo-liberties has two liberties at least.
	if b.plibs[b.head[p]] > 4 {
		return NoPoint, false
	}
	lib := NoPoint
	for q := p; ; {
		for _, n := range b.Neighbors(q) {
			if b.color[n] != Empty || n == lib {
				continue
			}
			if lib != NoPoint {
				return NoPoint, false
			}
			lib = n
		}
		if q = Point(b.next[q]); q == p {
			break
		}
	}
	return lib, lib != NoPoint
}

// OwnEye reports whether the empty point p is an eye of c's as random
// players leave it alone: every neighbour c's stone or the edge, and at
// most one diagonal point the opponent's in the centre, none on the edge
// (a false eye otherwise).
func (b *Board) OwnEye(c Color, p Point) bool {
	edge := false
	for _, q := range b.Neighbors(p) {
		switch b.color[q] {
		case c:
		case Border:
			edge = true
		default:
			return false
		}
	}
	s := Point(b.stride)
	opp := 0
	for _, d := range [4]Point{p - s - 1, p - s + 1, p + s - 1, p + s + 1} {
		// Only the first point's upper-left diagonal falls before the
		// padded array; every other diagonal is a point or the border.
		if d >= 0 && int(d) < b.cells && b.color[d] == c.Opponent() {
			opp++
		}
	}
	if edge {
		return opp == 0
	}
	return opp < 2
}

// SelfAtari reports whether c's legal move at the empty point m would
// leave its block with a single liberty, capturing nothing. It reads the
// liberties the block would have without playing the move.
func (b *Board) SelfAtari(c Color, m Point) bool {
	if b.CaptureCount(c, m) > 0 {
		return false
	}
	lib := NoPoint
	for _, q := range b.Neighbors(m) {
		if b.color[q] == Empty {
			if lib != NoPoint && lib != q {
				return false
			}
			lib = q
		}
	}
	for _, q := range b.Neighbors(m) {
		if b.color[q] != c {
			continue
		}
		more := false
		b.BlockStones(q, func(s Point) {
			for _, n := range b.Neighbors(s) {
				if more || n == m || b.color[n] != Empty || n == lib {
					continue
				}
				if lib != NoPoint {
					more = true
				}
				lib = n
			}
		})
		if more {
			return false
		}
	}
	return lib != NoPoint
}

// KoCapture reports whether c at m takes exactly one stone and leaves the
// new stone alone with a single liberty, i.e. starts or retakes a ko.
func (b *Board) KoCapture(c Color, m Point) bool {
	if b.CaptureCount(c, m) != 1 {
		return false
	}
	for _, q := range b.Neighbors(m) {
		if b.color[q] == c || b.color[q] == Empty {
			return false
		}
	}
	return true
}

// adjacency counts how many neighbours of p belong to the block with head h.
func (b *Board) adjacency(p Point, h int16) int16 {
	var n int16
	for _, q := range b.Neighbors(p) {
		if (b.color[q] == Black || b.color[q] == White) && b.head[q] == h {
			n++
		}
	}
	return n
}

// Legal reports whether c may play at p on this board under the rules of a
// single move: on the board, empty, not the simple-ko point, and not suicide
// (a move without liberties is legal only if it captures). Pass is always
// legal. Superko is checked by Position.
func (b *Board) Legal(c Color, p Point) bool {
	if p == Pass {
		return true
	}
	if !b.OnBoard(p) || b.color[p] != Empty || p == b.ko {
		return false
	}
	return !b.isSuicide(c, p)
}

func (b *Board) isSuicide(c Color, p Point) bool {
	for _, q := range b.Neighbors(p) {
		switch b.color[q] {
		case Empty:
			return false
		case c:
			h := b.head[q]
			if b.plibs[h] > b.adjacency(p, h) {
				return false // the block keeps another liberty
			}
		case c.Opponent():
			h := b.head[q]
			if b.plibs[h] == b.adjacency(p, h) {
				return false // the move captures
			}
		}
	}
	return true
}

// CaptureCount returns how many stones c would capture by playing at p
// (0 when p is not empty).
func (b *Board) CaptureCount(c Color, p Point) int {
	if !b.OnBoard(p) || b.color[p] != Empty {
		return 0
	}
	var seen [4]int16
	n := 0
	total := 0
	for _, q := range b.Neighbors(p) {
		if b.color[q] != c.Opponent() {
			continue
		}
		h := b.head[q]
		dup := false
		for _, s := range seen[:n] {
			dup = dup || s == h
		}
		if dup {
			continue
		}
		seen[n] = h
		n++
		if b.plibs[h] == b.adjacency(p, h) {
			total += int(b.stones[h])
		}
	}
	return total
}

// hashAfter returns the stone hash after c plays the legal move m, without
// playing it: the new stone's key and the keys of every captured stone.
func (b *Board) hashAfter(c Color, m Point) uint64 {
	h := b.hash ^ zobrist.stone[m][c-1]
	opp := c.Opponent()
	var seen [4]int16
	n := 0
	for _, q := range b.Neighbors(m) {
		if b.color[q] != opp {
			continue
		}
		head := b.head[q]
		if slices.Contains(seen[:n], head) {
			continue
		}
		seen[n] = head
		n++
		if b.plibs[head] == b.adjacency(m, head) {
			b.BlockStones(q, func(s Point) { h ^= zobrist.stone[s][opp-1] })
		}
	}
	return h
}

// Play puts a stone of colour c at p, removes captured blocks and updates the
// ko point. It returns the number of stones captured. An illegal move returns
// an error and leaves the board unchanged. Playing Pass clears the ko point.
func (b *Board) Play(c Color, p Point) (int, error) {
	if c != Black && c != White {
		return 0, fmt.Errorf("game: cannot play colour %v", c)
	}
	if p == Pass {
		b.ko = NoPoint
		return 0, nil
	}
	if !b.Legal(c, p) {
		return 0, fmt.Errorf("game: illegal move %v %s: %s", c, b.PointString(p), b.illegalReason(c, p))
	}
	return b.play(c, p), nil
}

func (b *Board) illegalReason(c Color, p Point) string {
	switch {
	case !b.OnBoard(p):
		return "off the board"
	case b.color[p] != Empty:
		return "occupied"
	case p == b.ko:
		return "retakes a ko"
	}
	return "suicide"
}

// play performs a legal move.
func (b *Board) play(c Color, p Point) int {
	opp := c.Opponent()
	b.color[p] = c
	b.hash ^= zobrist.stone[p][c-1]
	b.head[p] = int16(p)
	b.next[p] = int16(p)
	b.stones[p] = 1
	b.plibs[p] = 0
	captured := 0
	var lastCaptured Point = NoPoint
	for _, q := range b.Neighbors(p) {
		switch b.color[q] {
		case Empty:
			b.plibs[p]++
		case c:
			b.plibs[b.head[q]]--
		case opp:
			h := b.head[q]
			b.plibs[h]--
			if b.plibs[h] == 0 {
				captured += int(b.stones[h])
				lastCaptured = Point(h)
				b.removeBlock(Point(h))
			}
		}
	}
	for _, q := range b.Neighbors(p) {
		if b.color[q] == c && b.head[q] != b.head[p] {
			b.merge(p, q)
		}
	}
	b.captured[opp] += captured
	b.ko = NoPoint
	h := b.head[p]
	if captured == 1 && b.stones[h] == 1 && b.plibs[h] == 1 {
		b.ko = lastCaptured
	}
	return captured
}

// merge joins the block at q into the block at p (both colour c, adjacent).
func (b *Board) merge(p, q Point) {
	hp, hq := b.head[p], b.head[q]
	if b.stones[hp] < b.stones[hq] {
		hp, hq = hq, hp
	}
	// Relabel the smaller block.
	r := hq
	for {
		b.head[r] = hp
		r = b.next[r]
		if r == hq {
			break
		}
	}
	b.next[hp], b.next[hq] = b.next[hq], b.next[hp]
	b.stones[hp] += b.stones[hq]
	b.plibs[hp] += b.plibs[hq]
}

// removeBlock captures the block whose head is h.
func (b *Board) removeBlock(h Point) {
	c := b.color[h]
	q := h
	for {
		b.color[q] = Empty
		b.hash ^= zobrist.stone[q][c-1]
		nq := Point(b.next[q])
		for _, n := range b.Neighbors(q) {
			if col := b.color[n]; col == Black || col == White {
				b.plibs[b.head[n]]++
			}
		}
		q = nq
		if q == h {
			break
		}
	}
}

// Place puts a stone without the rules of a move (setup stones, AB/AW):
// p must be empty. Blocks left without liberties are reported as an error,
// since a setup position cannot hold dead blocks.
func (b *Board) Place(c Color, p Point) error {
	if !b.OnBoard(p) || b.color[p] != Empty {
		return fmt.Errorf("game: cannot place %v at %s: not an empty point", c, b.PointString(p))
	}
	if c != Black && c != White {
		return fmt.Errorf("game: cannot place colour %v", c)
	}
	b.color[p] = c
	b.hash ^= zobrist.stone[p][c-1]
	b.head[p] = int16(p)
	b.next[p] = int16(p)
	b.stones[p] = 1
	b.plibs[p] = 0
	for _, q := range b.Neighbors(p) {
		switch b.color[q] {
		case Empty:
			b.plibs[p]++
		case Black, White:
			b.plibs[b.head[q]]--
		}
	}
	for _, q := range b.Neighbors(p) {
		if b.color[q] == c && b.head[q] != b.head[p] {
			b.merge(p, q)
		}
	}
	b.ko = NoPoint
	return nil
}

// CheckNoDeadBlocks returns an error naming a block without liberties, as an
// impossible setup position would have.
func (b *Board) CheckNoDeadBlocks() error {
	for i := 0; i < b.cells; i++ {
		p := Point(i)
		if c := b.color[p]; (c == Black || c == White) && b.plibs[b.head[p]] == 0 {
			return fmt.Errorf("game: impossible position: %v block at %s has no liberty", c, b.PointString(p))
		}
	}
	return nil
}

// PointString returns the SGF coordinates of p ("dd"), "pass", "none" for
// NoPoint, or "off-board(N)".
func (b *Board) PointString(p Point) string {
	switch {
	case p == Pass:
		return "pass"
	case p == NoPoint:
		return "none"
	case !b.OnBoard(p):
		return fmt.Sprintf("off-board(%d)", p)
	}
	x, y := b.XY(p)
	return string([]byte{byte('a' + x), byte('a' + y)})
}

// ParsePoint reads SGF coordinates ("dd"); "" and "tt" (on boards up to
// 19x19) are Pass.
func (b *Board) ParsePoint(s string) (Point, error) {
	if s == "" || (s == "tt" && b.size <= 19) {
		return Pass, nil
	}
	if len(s) != 2 {
		return NoPoint, fmt.Errorf("game: %q is not an SGF point", s)
	}
	x, y := int(s[0]-'a'), int(s[1]-'a')
	if x < 0 || x >= b.size || y < 0 || y >= b.size {
		return NoPoint, fmt.Errorf("game: SGF point %q is off a %dx%d board", s, b.size, b.size)
	}
	return b.Point(x, y), nil
}

// gtpLetters are the GTP column letters (no I).
const gtpLetters = "ABCDEFGHJKLMNOPQRST"

// GTPString returns the GTP vertex of p ("D4", "pass"), or, like
// PointString, "none" or "off-board(N)" for a point not on the board.
func (b *Board) GTPString(p Point) string {
	if p == Pass || !b.OnBoard(p) {
		return b.PointString(p)
	}
	x, y := b.XY(p)
	return fmt.Sprintf("%c%d", gtpLetters[x], b.size-y)
}

// ParseGTP reads a GTP vertex ("D4", "pass"), case-insensitive.
func (b *Board) ParseGTP(s string) (Point, error) {
	if strings.EqualFold(s, "pass") {
		return Pass, nil
	}
	if len(s) < 2 {
		return NoPoint, fmt.Errorf("game: %q is not a GTP vertex", s)
	}
	col := s[0] &^ 0x20
	x := -1
	for i := 0; i < b.size; i++ {
		if gtpLetters[i] == col {
			x = i
		}
	}
	// Digits only: Sscanf would also take "D4x", "D 4" and "D+4".
	row, err := strconv.Atoi(s[1:])
	if err != nil || s[1] < '0' || s[1] > '9' || x < 0 || row < 1 || row > b.size {
		return NoPoint, fmt.Errorf("game: %q is not a vertex of a %dx%d board", s, b.size, b.size)
	}
	return b.Point(x, b.size-row), nil
}
