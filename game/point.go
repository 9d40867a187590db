package game

import (
	"fmt"
	"math/bits"
	"strings"
)

// Color is the content of a point: Empty, Black, White, or Border for the
// padding around the board.
type Color uint8

// Colours of points.
const (
	Empty Color = iota
	Black
	White
	Border
)

// Opponent returns the other player; Empty and Border map to themselves.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return c
}

// String returns "B", "W", "." or "#".
func (c Color) String() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	case Empty:
		return "."
	}
	return "#"
}

// ParseColor reads "B"/"b"/"black" or "W"/"w"/"white".
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "b", "black":
		return Black, nil
	case "w", "white":
		return White, nil
	}
	return Empty, fmt.Errorf("game: %q is not a colour (want B or W)", s)
}

// Point is an index into the padded board. Pass and NoPoint are not on the
// board.
type Point int16

// Special points.
const (
	Pass    Point = -1
	NoPoint Point = -2
)

// Board geometry limits.
const (
	MinSize = 5
	MaxSize = 19
	// MaxCells is the padded array length for the largest board:
	// (MaxSize+2) rows of stride MaxSize+1, plus one.
	MaxCells = (MaxSize+2)*(MaxSize+1) + 1
)

// setWords is the number of 64-bit words that cover MaxCells points.
const setWords = (MaxCells + 63) / 64

// PointSet is a set of points of one board: a fixed-size bitset, cheap to copy
// and compare, used for regions, zones and Benson's areas.
type PointSet [setWords]uint64

// Add puts p in the set.
func (s *PointSet) Add(p Point) { s[p>>6] |= 1 << (uint(p) & 63) }

// Remove takes p out of the set.
func (s *PointSet) Remove(p Point) { s[p>>6] &^= 1 << (uint(p) & 63) }

// Has reports whether p is in the set. Pass and NoPoint are never members.
func (s *PointSet) Has(p Point) bool {
	return p >= 0 && s[p>>6]&(1<<(uint(p)&63)) != 0
}

// Len returns the number of points in the set.
func (s *PointSet) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Empty reports whether the set has no points.
func (s *PointSet) Empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// Union returns s ∪ t.
func (s PointSet) Union(t PointSet) PointSet {
	for i := range s {
		s[i] |= t[i]
	}
	return s
}

// Intersect returns s ∩ t.
func (s PointSet) Intersect(t PointSet) PointSet {
	for i := range s {
		s[i] &= t[i]
	}
	return s
}

// Minus returns s \ t.
func (s PointSet) Minus(t PointSet) PointSet {
	for i := range s {
		s[i] &^= t[i]
	}
	return s
}

// SubsetOf reports whether every point of s is in t.
func (s *PointSet) SubsetOf(t *PointSet) bool {
	for i := range s {
		if s[i]&^t[i] != 0 {
			return false
		}
	}
	return true
}

// Intersects reports whether s and t share a point.
func (s *PointSet) Intersects(t *PointSet) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}

// Points returns the members in increasing order.
func (s *PointSet) Points() []Point {
	out := make([]Point, 0, s.Len())
	s.ForEach(func(p Point) { out = append(out, p) })
	return out
}

// ForEach calls f for every member in increasing order.
func (s *PointSet) ForEach(f func(Point)) {
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(Point(i*64 + b))
			w &= w - 1
		}
	}
}
