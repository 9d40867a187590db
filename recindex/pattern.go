package recindex

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"lifezero/sgf"
)

// Mask is the set of states a pattern point allows, paper 003's three bits:
// MaskEmpty, MaskBlack, MaskWhite. A point allowing all three is a
// don't-care; a mask of 0 matches nothing and is invalid.
type Mask uint8

// The states of a point, as bits of a Mask.
const (
	MaskEmpty Mask = 1 << iota
	MaskBlack
	MaskWhite
	MaskAny = MaskEmpty | MaskBlack | MaskWhite
)

// MaxSide is the largest side of a pattern.
const MaxSide = 19

// Pattern is a rectangle of points, each with the states it allows. When
// Fixed is set the pattern matches only with its top-left corner at (X, Y)
// on a board of BoardSize (and at the symmetric places); otherwise it
// matches anywhere its whole rectangle fits on the board.
type Pattern struct {
	W, H   int
	Points []Mask // row-major, W*H

	Fixed     bool
	X, Y      int // top-left corner on the board, 0-based (Fixed only)
	BoardSize int // Fixed only
}

// At returns the mask of point (x, y) of the pattern.
func (p *Pattern) At(x, y int) Mask { return p.Points[y*p.W+x] }

// Validate checks the pattern's shape, masks and place. A pattern must
// require a stone somewhere: one whose every point allows empty matches
// the empty board, hence nearly every position.
func (p *Pattern) Validate() error {
	if p.W < 1 || p.H < 1 || p.W > MaxSide || p.H > MaxSide {
		return fmt.Errorf("pattern is %dx%d: want sides 1..%d", p.W, p.H, MaxSide)
	}
	if len(p.Points) != p.W*p.H {
		return fmt.Errorf("pattern has %d points, want %dx%d", len(p.Points), p.W, p.H)
	}
	stone := false
	for i, m := range p.Points {
		if m == 0 || m > MaskAny {
			return fmt.Errorf("pattern point (%d,%d): invalid mask %d", i%p.W+1, i/p.W+1, m)
		}
		if m&MaskEmpty == 0 {
			stone = true
		}
	}
	if !stone {
		return fmt.Errorf("pattern has no point that requires a stone (X, O or *): it would match almost every position")
	}
	if p.Fixed {
		if p.BoardSize < 1 || p.BoardSize > MaxSide || p.X < 0 || p.Y < 0 || p.X+p.W > p.BoardSize || p.Y+p.H > p.BoardSize {
			return fmt.Errorf("pattern %dx%d at (%d,%d) does not fit on a %dx%d board", p.W, p.H, p.X+1, p.Y+1, p.BoardSize, p.BoardSize)
		}
	}
	return nil
}

// maskOf reads one diagram character.
func maskOf(c byte) (Mask, bool) {
	switch c {
	case 'X', '#', '@':
		return MaskBlack, true
	case 'O', '0':
		return MaskWhite, true
	case '.', '+', ',':
		return MaskEmpty, true
	case '?':
		return MaskAny, true
	case 'x':
		return MaskBlack | MaskEmpty, true
	case 'o':
		return MaskWhite | MaskEmpty, true
	case '*':
		return MaskBlack | MaskWhite, true
	}
	return 0, false
}

// ParseDiagram reads a pattern drawn in ASCII, one row a line:
//
//	X  black        O  white        .  empty      ?  don't care
//	x  black or empty   o  white or empty   *  black or white
//
// Spaces between points are ignored; lines starting with '#' followed by
// a space, or empty lines, are skipped. A line "at COL ROW" (1-based
// column and row of the top-left corner, and optionally "on SIZE", the
// board size, 19 by default) fixes the pattern's place, for example
// "at 1 1" for a pattern in the top-left corner.
func ParseDiagram(data []byte) (*Pattern, error) {
	p := &Pattern{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "# ") || text == "#" {
			continue
		}
		if strings.HasPrefix(text, "at ") {
			if err := p.parseAt(text); err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			continue
		}
		row, err := diagramRow(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if p.H > 0 && len(row) != p.W {
			return nil, fmt.Errorf("line %d: %d points, the rows above have %d", line, len(row), p.W)
		}
		p.W = len(row)
		p.H++
		p.Points = append(p.Points, row...)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if p.H == 0 {
		return nil, fmt.Errorf("no pattern rows (want lines of X O . ? x o *)")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

func diagramRow(text string) ([]Mask, error) {
	var row []Mask
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == ' ' || c == '\t' {
			continue
		}
		m, ok := maskOf(c)
		if !ok {
			return nil, fmt.Errorf("column %d: %q is not a point (want X O . ? x o *)", i+1, c)
		}
		row = append(row, m)
	}
	return row, nil
}

func (p *Pattern) parseAt(text string) error {
	var col, row int
	size := 19
	n, err := fmt.Sscanf(text, "at %d %d on %d", &col, &row, &size)
	if n < 2 {
		return fmt.Errorf("%q: want \"at COL ROW\" or \"at COL ROW on SIZE\": %v", text, err)
	}
	p.Fixed, p.X, p.Y, p.BoardSize = true, col-1, row-1, size
	return nil
}

// ParseSGF reads a pattern from the root node of an SGF game: the stones
// of AB and AW, the rectangle of VW (the view; without one, the bounding
// box of the stones), don't-care points marked MA and, when fixed is
// set, the rectangle's place on the board.
func ParseSGF(data []byte, fixed bool) (*Pattern, error) {
	coll, err := sgf.ParseString(string(data))
	if err != nil {
		return nil, err
	}
	if len(coll) == 0 {
		return nil, fmt.Errorf("no game in the SGF")
	}
	root := coll[0]
	size := 19
	if v, ok := root.Get("SZ"); ok {
		if _, err := fmt.Sscanf(v, "%d", &size); err != nil || size < 1 || size > MaxSide {
			return nil, fmt.Errorf("SZ[%s]: want 1..%d", v, MaxSide)
		}
	}
	board := make([]Mask, size*size)
	for i := range board {
		board[i] = MaskEmpty
	}
	var box rect
	for _, pr := range []struct {
		id string
		m  Mask
	}{{"AB", MaskBlack}, {"AW", MaskWhite}, {"MA", MaskAny}} {
		pts, err := sgfPoints(root, pr.id, size)
		if err != nil {
			return nil, err
		}
		for _, xy := range pts {
			board[xy[1]*size+xy[0]] = pr.m
			if pr.m != MaskAny {
				box = box.add(xy[0], xy[1])
			}
		}
	}
	if vw, err := sgfPoints(root, "VW", size); err != nil {
		return nil, err
	} else if len(vw) > 0 {
		box = rect{}
		for _, xy := range vw {
			box = box.add(xy[0], xy[1])
		}
	}
	if box.empty() {
		return nil, fmt.Errorf("the SGF has no stones (AB, AW) and no view (VW)")
	}
	p := &Pattern{W: box.x1 - box.x0, H: box.y1 - box.y0, Fixed: fixed, X: box.x0, Y: box.y0, BoardSize: size}
	for y := box.y0; y < box.y1; y++ {
		p.Points = append(p.Points, board[y*size+box.x0:y*size+box.x1]...)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// sgfPoints reads the points (and compressed rectangles) of property id.
func sgfPoints(n *sgf.Node, id string, size int) ([][2]int, error) {
	pts, err := sgf.ExpandPointList(n.GetAll(id), size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	out := make([][2]int, len(pts))
	for i, p := range pts {
		out[i] = [2]int{p.X, p.Y}
	}
	return out, nil
}

// rect is a half-open rectangle of board points.
type rect struct{ x0, y0, x1, y1 int }

func (r rect) empty() bool { return r.x1 <= r.x0 }

func (r rect) add(x, y int) rect {
	if r.empty() {
		return rect{x, y, x + 1, y + 1}
	}
	return rect{min(r.x0, x), min(r.y0, y), max(r.x1, x+1), max(r.y1, y+1)}
}

// String draws the pattern as ParseDiagram reads it.
func (p *Pattern) String() string {
	var b strings.Builder
	if p.Fixed {
		fmt.Fprintf(&b, "at %d %d on %d\n", p.X+1, p.Y+1, p.BoardSize)
	}
	for y := 0; y < p.H; y++ {
		for x := 0; x < p.W; x++ {
			if x > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(maskChar(p.At(x, y)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func maskChar(m Mask) byte {
	return "!.XxOo*?"[m&7]
}
