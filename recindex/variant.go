package recindex

import (
	"slices"
	"strconv"
	"strings"

	"lifezero/game"
)

// variant is the pattern under one of the 8 symmetries and, optionally,
// with the colours swapped. Variants that draw the same pattern are kept
// once, so a placement on the board is found once.
type variant struct {
	sym     int // bit 0 flips columns, bit 1 flips rows, bit 2 then transposes (as game.Symmetry)
	swapped bool
	w, h    int
	cells   []Mask   // row-major, w*h
	pts     []vpoint // the points that are not don't-care, row-major
	orig    [][2]int // for each cell, its (x, y) in the pattern as drawn
	fixed   bool
	x, y    int // top-left corner on the board when fixed
	size    int // board size when fixed
}

// vpoint is a constrained point of a variant.
type vpoint struct {
	x, y int
	mask Mask
}

// transformXY maps (x, y) of a w x h rectangle under symmetry s.
func transformXY(s, x, y, w, h int) (int, int) { return game.Symmetry(s).Rect(x, y, w, h) }

func swapColours(m Mask) Mask {
	return m&MaskEmpty | (m&MaskBlack)<<1 | (m&MaskWhite)>>1
}

// variants returns the distinct variants of p: the 8 symmetries (only the
// identity when noSym) times the colour swap (not when noSwap).
func variants(p *Pattern, noSym, noSwap bool) []*variant {
	var out []*variant
	seen := map[string]bool{}
	for swap := 0; swap < 2; swap++ {
		if swap == 1 && noSwap {
			break
		}
		for s := 0; s < 8; s++ {
			if s > 0 && noSym {
				break
			}
			v := newVariant(p, s, swap == 1)
			if k := v.id(); !seen[k] {
				seen[k] = true
				out = append(out, v)
			}
		}
	}
	return out
}

func newVariant(p *Pattern, s int, swapped bool) *variant {
	v := &variant{sym: s, swapped: swapped, w: p.W, h: p.H, fixed: p.Fixed, size: p.BoardSize}
	if s&4 != 0 {
		v.w, v.h = p.H, p.W
	}
	v.cells = make([]Mask, v.w*v.h)
	v.orig = make([][2]int, v.w*v.h)
	for y := 0; y < p.H; y++ {
		for x := 0; x < p.W; x++ {
			tx, ty := transformXY(s, x, y, p.W, p.H)
			m := p.At(x, y)
			if swapped {
				m = swapColours(m)
			}
			v.cells[ty*v.w+tx] = m
			v.orig[ty*v.w+tx] = [2]int{x, y}
		}
	}
	for i, m := range v.cells {
		if m != MaskAny {
			v.pts = append(v.pts, vpoint{i % v.w, i / v.w, m})
		}
	}
	if p.Fixed {
		// The corners of the rectangle map to the corners of its image.
		n := p.BoardSize
		ax, ay := transformXY(s, p.X, p.Y, n, n)
		bx, by := transformXY(s, p.X+p.W-1, p.Y+p.H-1, n, n)
		v.x, v.y = min(ax, bx), min(ay, by)
	}
	return v
}

// id identifies what a variant matches: its size, masks and place.
func (v *variant) id() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(v.w))
	b.WriteByte('x')
	b.WriteString(strconv.Itoa(v.h))
	if v.fixed {
		b.WriteString("@" + strconv.Itoa(v.x) + "," + strconv.Itoa(v.y))
	}
	b.WriteByte(':')
	for _, m := range v.cells {
		b.WriteByte(maskChar(m))
	}
	return b.String()
}

// combo is one way a variant can appear: the event (a move placing a stone
// of colour, or a capture removing one) at the variant's point anchor.
type combo struct {
	v      *variant
	anchor int // index in v.pts
	kind   int
	colour int // 0 black, 1 white
	// keyMask and keyValue test an event's key: (key & keyMask) == keyValue;
	// extMask and extValue its extension.
	keyMask, keyValue uint64
	extMask, extValue uint64
	// check lists the points (indexes in v.pts) that a key match does
	// not prove: outside the view's block, or with a mask the key bits
	// cannot say.
	check []int
	// For a move event (the anchor is the move's point, the centre of its
	// snapshot), snap tests the points of check that the snapshot holds
	// and far lists the others (indexes in v.pts, stones first).
	snap     snapTest
	snapUsed bool // snap tests some point
	far      []int
}

// combos lists every event that can make variant v appear. A stone point
// appears when a move places a stone it allows on it while it does not
// allow empty; a point that allows empty but not some colour appears when
// a stone of that colour is captured.
func combos(v *variant) []combo {
	var out []combo
	for i, pt := range v.pts {
		for colour, cm := range []Mask{MaskBlack, MaskWhite} {
			switch {
			case pt.mask&MaskEmpty == 0 && pt.mask&cm != 0:
				out = append(out, v.combo(i, kindMove, colour))
			case pt.mask&MaskEmpty != 0 && pt.mask&cm == 0:
				out = append(out, v.combo(i, kindCapture, colour))
			}
		}
	}
	return out
}

func (v *variant) combo(anchor, kind, colour int) combo {
	c := combo{v: v, anchor: anchor, kind: kind, colour: colour}
	a := v.pts[anchor]
	testable := 0 // points besides the anchor that key bits can test
	for i, pt := range v.pts {
		if m, _ := codeConstraint(pt.mask); i != anchor && m != 0 {
			testable++
		}
	}
	best, bestView := -1, 0
	for view := 0; view < numViews; view++ {
		m, val, weight, n := v.viewConstraint(a, view)
		em, ev, extWeight, extN := v.extConstraint(a, view)
		weight += extWeight
		if n+extN == testable {
			// The view tests every point: a candidate needs no snapshot
			// or timeline read.
			weight += fullBonus
		}
		if weight > best {
			best, bestView, c.keyMask, c.keyValue, c.extMask, c.extValue = weight, view, m, val, em, ev
		}
	}
	c.keyMask |= 3<<62 | 7<<viewShift
	c.keyValue |= uint64(kind)<<63 | uint64(colour)<<62 | uint64(bestView)<<viewShift
	if v.fixed {
		c.keyMask |= pointMask
		c.keyValue |= uint64((v.y+a.y)*v.size + v.x + a.x)
	}
	// proven marks the variant's cells that the key or its extension hold
	// (a slice, not a map: combos are built for every query, up to 784).
	proven := make([]bool, v.w*v.h)
	mark := func(o offset) {
		if x, y := a.x+o.dx, a.y+o.dy; x >= 0 && y >= 0 && x < v.w && y < v.h {
			proven[y*v.w+x] = true
		}
	}
	for j := range quadCells {
		mark(viewOffset(bestView, j))
	}
	for j := range quadExtCells {
		mark(extOffset(bestView, j))
	}
	for i, pt := range v.pts {
		if m, _ := codeConstraint(pt.mask); i != anchor && (m == 0 || !proven[pt.y*v.w+pt.x]) {
			c.check = append(c.check, i)
		}
	}
	// Stones first: verification stops at the first point that fails, and
	// a stone fails far more often than an empty point.
	slices.SortStableFunc(c.check, func(i, j int) int {
		return selectivity(v.pts[j].mask) - selectivity(v.pts[i].mask)
	})
	if kind == kindMove {
		for _, i := range c.check {
			pt := v.pts[i]
			if m, val := codeConstraint(pt.mask); c.snap.add(pt.x-a.x, pt.y-a.y, m, val) {
				c.snapUsed = true
			} else {
				c.far = append(c.far, i)
			}
		}
	}
	return c
}

// viewConstraint is the key test that variant v's points in view of
// anchor a imply, and its weight: how selective the points it fixes are
// (a stone far more than an empty point, which most points are), nearer
// points counting more (they come first in the key).
func (v *variant) viewConstraint(a vpoint, view int) (mask, value uint64, weight, n int) {
	return v.constraint(a, len(quadCells), func(j int) offset { return viewOffset(view, j) }, cellShift,
		func(j int, m Mask) int { return selectivity(m) * (2*len(quadCells) - j) })
}

// fullBonus is added to the weight of a view whose key and extension test
// every point of the variant: the weight of a stone next to the anchor.
const fullBonus = 8 * 2 * 24 // 24: len(quadCells)

// extConstraint is the test on the view's key extension that variant v's
// points there imply, and its weight: what the points say, less than a
// key point (the skip scan does not use them, they only cut candidates).
func (v *variant) extConstraint(a vpoint, view int) (mask, value uint64, weight, n int) {
	return v.constraint(a, len(quadExtCells), func(j int) offset { return extOffset(view, j) }, extShift,
		func(_ int, m Mask) int { return selectivity(m) * len(quadCells) / 2 })
}

// constraint is the test on cells cells around anchor a (cell j at
// offset(j), its two bits at shift(j)) that variant v's points imply, the
// weight of what they say, and how many of them say something; points
// off the variant say nothing.
func (v *variant) constraint(a vpoint, cells int, offset func(j int) offset, shift func(j int) int, weigh func(j int, m Mask) int) (mask, value uint64, weight, n int) {
	for j := range cells {
		o := offset(j)
		x, y := a.x+o.dx, a.y+o.dy
		if x < 0 || y < 0 || x >= v.w || y >= v.h {
			continue
		}
		c := v.cells[y*v.w+x]
		m, val := codeConstraint(c)
		if m != 0 {
			n++
		}
		mask |= m << shift(j)
		value |= val << shift(j)
		weight += weigh(j, c)
	}
	return mask, value, weight, n
}

// selectivity weighs what a mask says about a point for choosing a view.
func selectivity(m Mask) int {
	switch m {
	case MaskBlack, MaskWhite:
		return 8
	case MaskEmpty, MaskEmpty | MaskBlack, MaskEmpty | MaskWhite:
		return 1
	}
	return 0
}
