package features

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"

	"lifezero/game"
)

// A diamond code packs the 12 points within Manhattan distance 2 of the move
// (slots of diamondOffsets), 2 bits each: bits 0-7 the four neighbours,
// bits 8-15 the four diagonals, bits 16-23 the four points two away. States
// are relative to the side to move. The canonical code of a diamond is the
// smallest code among its images under the eight symmetries; it is the key
// of the learned vocabulary and the name of the feature.
const diamondBits = 24

// DiamondCount is one entry of a diamond vocabulary: a canonical diamond
// code and how often it was seen when the vocabulary was learned.
type DiamondCount struct {
	Code  uint32 `json:"code"`
	Count int64  `json:"count"`
}

// diamondCanon canonicalises diamond codes with two tables per symmetry:
// the image of a byte of four straight slots and of a byte of four diagonal
// slots.
type diamondCanon struct {
	straight [game.NumSymmetries][256]uint8
	diagonal [game.NumSymmetries][256]uint8
}

func newDiamondCanon() *diamondCanon {
	c := &diamondCanon{}
	offs := diamondOffsets()
	for s := game.Symmetry(0); s < game.NumSymmetries; s++ {
		straight := slotPermutation(s, offs[0:4])
		diagonal := slotPermutation(s, offs[4:8])
		for v := 0; v < 256; v++ {
			c.straight[s][v] = permuteByte(uint8(v), straight)
			c.diagonal[s][v] = permuteByte(uint8(v), diagonal)
		}
	}
	return c
}

// permuteByte moves the 2-bit field i of v to field perm[i].
func permuteByte(v uint8, perm []int) uint8 {
	var out uint8
	for i, j := range perm {
		out |= (v >> (2 * i) & 3) << (2 * j)
	}
	return out
}

// canonical returns the smallest image of code under the symmetries.
func (c *diamondCanon) canonical(code uint32) uint32 {
	a, d, b := uint8(code), uint8(code>>8), uint8(code>>16)
	best := code
	for s := 1; s < game.NumSymmetries; s++ {
		img := uint32(c.straight[s][a]) | uint32(c.diagonal[s][d])<<8 | uint32(c.straight[s][b])<<16
		best = min(best, img)
	}
	return best
}

// diamondCode returns the raw (not canonical) diamond code of point p for
// the side c.
func diamondCode(g *geometry, b *game.Board, p game.Point, c game.Color) uint32 {
	var code uint32
	for i, q := range g.diamond[p] {
		v := uint32(stateOff)
		if q >= 0 {
			v = uint32(pointState(b, game.Point(q), c))
		}
		code |= v << (2 * i)
	}
	return code
}

// describeDiamond draws a diamond code: X own, O opponent, . empty, # off
// board, * the move.
func describeDiamond(code uint32) string {
	var grid [5][5]byte
	for y := range grid {
		for x := range grid[y] {
			grid[y][x] = ' '
		}
	}
	grid[2][2] = '*'
	for i, o := range diamondOffsets() {
		grid[2+o[1]][2+o[0]] = stateChars[code>>(2*i)&3]
	}
	var sb strings.Builder
	for _, row := range grid {
		sb.WriteString(strings.TrimRight(string(row[:]), " ") + "\n")
	}
	return sb.String()
}

// diamondIndex is an open-addressing hash table from canonical codes to
// dense ids, faster than a map on the extraction path.
type diamondIndex struct {
	keys  []uint32 // code+1; 0 marks an empty slot
	ids   []int32
	shift uint
}

func newDiamondIndex(codes []uint32) *diamondIndex {
	size, shift := 16, uint(32-4)
	for size < 2*len(codes) {
		size *= 2
		shift--
	}
	ix := &diamondIndex{keys: make([]uint32, size), ids: make([]int32, size), shift: shift}
	for id, code := range codes {
		i := ix.slot(code)
		for ix.keys[i] != 0 {
			i = (i + 1) & (len(ix.keys) - 1)
		}
		ix.keys[i], ix.ids[i] = code+1, int32(id)
	}
	return ix
}

func (ix *diamondIndex) slot(code uint32) int {
	return int((code * 0x9E3779B1) >> ix.shift)
}

// lookup returns the dense id of a canonical code, or -1.
func (ix *diamondIndex) lookup(code uint32) int32 {
	mask := len(ix.keys) - 1
	for i := ix.slot(code); ; i = (i + 1) & mask {
		switch ix.keys[i] {
		case code + 1:
			return ix.ids[i]
		case 0:
			return -1
		}
	}
}

// LearnDiamonds counts the canonical diamonds of the samples and returns
// those seen at least minCount times, most frequent first (ties by code):
// the vocabulary for Config.Diamonds. Counting played moves (Coulom's
// harvesting) keeps the shapes players choose; counting every legal move is
// dominated by empty-area shapes.
func LearnDiamonds(ctx context.Context, samples iter.Seq2[Sample, error], minCount int64) ([]DiamondCount, error) {
	if minCount < 1 {
		return nil, fmt.Errorf("features: LearnDiamonds: minCount %d must be at least 1", minCount)
	}
	canon := newDiamondCanon()
	counts := make(map[uint32]int64)
	err := forEachSample(ctx, samples, "LearnDiamonds", func(g *geometry, pos *game.Position, moves []game.Point) {
		for _, m := range moves {
			counts[canon.canonical(diamondCode(g, &pos.Board, m, pos.ToMove()))]++
		}
	})
	if err != nil {
		return nil, err
	}
	var vocab []DiamondCount
	for code, k := range counts {
		if k >= minCount {
			vocab = append(vocab, DiamondCount{Code: code, Count: k})
		}
	}
	slices.SortFunc(vocab, func(a, b DiamondCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Code, b.Code))
	})
	return vocab, nil
}
