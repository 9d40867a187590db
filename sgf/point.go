package sgf

import (
	"fmt"
	"strings"
)

// MaxBoardSize is the largest board SGF points can address: 'a'-'z' then
// 'A'-'Z'.
const MaxBoardSize = 52

// Point is an intersection: X is the column, Y the row, both from 0 at the
// top left.
type Point struct{ X, Y int }

// ParsePoint decodes a point value: the column letter then the row letter,
// 'a' = 0 ... 'z' = 25, 'A' = 26 ... 'Z' = 51. An empty value is a pass, and
// so is "tt" on boards up to 19x19 (the FF[3] convention); on larger boards
// "tt" is the point (19, 19).
func ParsePoint(value string, boardSize int) (x, y int, pass bool, err error) {
	if boardSize < 1 || boardSize > MaxBoardSize {
		return 0, 0, false, fmt.Errorf("sgf: point %q: board size %d is outside 1..%d", value, boardSize, MaxBoardSize)
	}
	if value == "" || value == "tt" && boardSize <= 19 {
		return 0, 0, true, nil
	}
	if len(value) != 2 {
		return 0, 0, false, fmt.Errorf("sgf: point %q: want two letters", value)
	}
	x, y = coordinate(value[0]), coordinate(value[1])
	if x < 0 || y < 0 {
		return 0, 0, false, fmt.Errorf("sgf: point %q: want letters a-z or A-Z", value)
	}
	if x >= boardSize || y >= boardSize {
		return 0, 0, false, fmt.Errorf("sgf: point %q: outside the %dx%d board", value, boardSize, boardSize)
	}
	return x, y, false, nil
}

// FormatPoint encodes a point, or a pass as the empty value (the FF[4]
// form). A coordinate outside 0..51 is written as '?', which ParsePoint
// rejects.
func FormatPoint(x, y int, pass bool) string {
	if pass {
		return ""
	}
	return string([]byte{letter(x), letter(y)})
}

// ExpandPointList decodes the values of a point-list property (AB, AW, AE,
// TR, MA, ...), expanding compressed rectangles "aa:cc" (any two opposite
// corners) into their points, row by row. A single empty value is the empty
// list. Points are returned in value order, repeats kept. A pass is not a
// point, so "tt" is rejected on boards up to 19x19.
func ExpandPointList(values []string, boardSize int) ([]Point, error) {
	if len(values) == 1 && values[0] == "" {
		return nil, nil
	}
	var pts []Point
	for _, v := range values {
		from, to, isRect := strings.Cut(v, ":")
		if !isRect {
			to = from
		}
		x0, y0, err := listPoint(from, v, boardSize)
		if err != nil {
			return nil, err
		}
		x1, y1, err := listPoint(to, v, boardSize)
		if err != nil {
			return nil, err
		}
		for y := min(y0, y1); y <= max(y0, y1); y++ {
			for x := min(x0, x1); x <= max(x0, x1); x++ {
				pts = append(pts, Point{X: x, Y: y})
			}
		}
	}
	return pts, nil
}

func listPoint(s, value string, boardSize int) (x, y int, err error) {
	x, y, pass, err := ParsePoint(s, boardSize)
	if err != nil {
		return 0, 0, fmt.Errorf("sgf: point list value %q: %w", value, err)
	}
	if pass {
		return 0, 0, fmt.Errorf("sgf: point list value %q: a pass is not a point", value)
	}
	return x, y, nil
}

// SplitCompose splits a compose value "a:b" (LB, AR, LN, AP, ...) at its
// first ':'. Parsing has already removed the '\' that FF[4] puts before a
// ':' inside the first part, so a first part containing ':' cannot be told
// apart; the first parts of the point-based compose properties never do.
func SplitCompose(value string) (first, second string, ok bool) {
	return strings.Cut(value, ":")
}

func coordinate(c byte) int {
	switch {
	case 'a' <= c && c <= 'z':
		return int(c - 'a')
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}

func letter(i int) byte {
	switch {
	case 0 <= i && i < 26:
		return 'a' + byte(i)
	case 26 <= i && i < MaxBoardSize:
		return 'A' + byte(i-26)
	}
	return '?'
}
