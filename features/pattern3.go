package features

import (
	"fmt"
	"strings"

	"lifezero/game"
)

// A 3x3 pattern code packs the eight neighbours of the move (slots of
// pat3Offsets): the diagonals NW, NE, SW, SE in 2 bits each (bits 0-7), the
// orthogonal N, W, E, S in 3 bits each (bits 8-19). Colours are relative to
// the side to move, which makes patterns invariant under colour swap.
const (
	pat3Bits  = 20
	pat3Codes = 1 << pat3Bits

	// Diagonal states.
	diagEmpty = 0
	diagOff   = 1
	diagOwn   = 2
	diagOpp   = 3
	// Orthogonal states: own and opponent stones carry the liberty bucket
	// 1, 2, 3+ of their block (added to orthOwn1 / orthOpp1).
	orthEmpty = 0
	orthOff   = 1
	orthOwn1  = 2
	orthOpp1  = 5
	// libBucket3 is the bucket used for every stone when the extractor
	// ignores liberties.
	libBucket3 = 2
)

// pat3Layout returns, for each slot of pat3Offsets, the bit shift and
// whether the slot is orthogonal (3 bits) or diagonal (2 bits).
func pat3Layout() (shift [8]uint8, orth [8]bool) {
	return [8]uint8{0, 8, 2, 11, 14, 4, 17, 6},
		[8]bool{false, true, false, true, true, false, true, false}
}

// pat3Table maps every pattern code to a dense id (-1 for codes that cannot
// occur), and each dense id back to its canonical code: the smallest code
// among its images under the eight symmetries.
type pat3Table struct {
	ids   []int32  // by code
	codes []uint32 // canonical code by dense id
	libs  bool
	shift [8]uint8
	orth  [8]bool
}

// newPat3Table enumerates the codes in increasing order: the first valid
// code of each orbit is its smallest, so it becomes the canonical code and
// its eight images get the next dense id. Ids are therefore deterministic.
func newPat3Table(libs bool) *pat3Table {
	t := &pat3Table{ids: make([]int32, pat3Codes), libs: libs}
	t.shift, t.orth = pat3Layout()
	const unseen = -2
	for i := range t.ids {
		t.ids[i] = unseen
	}
	var perms [game.NumSymmetries][]int
	for s := range perms {
		perms[s] = slotPermutation(game.Symmetry(s), pat3Offsets())
	}
	for code := uint32(0); code < pat3Codes; code++ {
		if t.ids[code] != unseen {
			continue
		}
		vals := t.decode(code)
		if !t.valid(vals) {
			t.ids[code] = -1
			continue
		}
		id := int32(len(t.codes))
		t.codes = append(t.codes, code)
		for _, perm := range perms {
			var img [8]uint8
			for i, j := range perm {
				img[j] = vals[i]
			}
			t.ids[t.encode(img)] = id
		}
	}
	return t
}

func (t *pat3Table) decode(code uint32) [8]uint8 {
	var v [8]uint8
	for i := range v {
		mask := uint32(3)
		if t.orth[i] {
			mask = 7
		}
		v[i] = uint8(code >> t.shift[i] & mask)
	}
	return v
}

func (t *pat3Table) encode(v [8]uint8) uint32 {
	var code uint32
	for i, s := range v {
		code |= uint32(s) << t.shift[i]
	}
	return code
}

// valid reports whether the neighbourhood can occur around an on-board
// point of a board of at least 5x5: off-board sides are never opposite, and
// a diagonal is off-board exactly when one of its two sides is. Without
// liberties only the 3+ bucket is used.
func (t *pat3Table) valid(v [8]uint8) bool {
	off := func(i int) bool {
		if t.orth[i] {
			return v[i] == orthOff
		}
		return v[i] == diagOff
	}
	n, w, e, s := off(1), off(3), off(4), off(6)
	if (n && s) || (w && e) {
		return false
	}
	if off(0) != (n || w) || off(2) != (n || e) || off(5) != (s || w) || off(7) != (s || e) {
		return false
	}
	if !t.libs {
		for i, x := range v {
			if t.orth[i] && x >= orthOwn1 && (x-orthOwn1)%3 != libBucket3 {
				return false
			}
		}
	}
	return true
}

// describe draws the canonical pattern of a dense id: X own stone, O
// opponent stone, . empty, # off board, * the move; orthogonal stones show
// their liberty bucket (X1, X2, X3 = 3+) when the table uses liberties.
func (t *pat3Table) describe(id int32) string {
	v := t.decode(t.codes[id])
	cell := func(i int) string {
		x := v[i]
		if !t.orth[i] {
			return [...]string{".", "#", "X", "O"}[x]
		}
		switch {
		case x == orthEmpty:
			return "."
		case x == orthOff:
			return "#"
		case !t.libs && x < orthOpp1:
			return "X"
		case !t.libs:
			return "O"
		case x < orthOpp1:
			return fmt.Sprintf("X%d", x-orthOwn1+1)
		}
		return fmt.Sprintf("O%d", x-orthOpp1+1)
	}
	width := "%-1s"
	if t.libs {
		width = "%-2s"
	}
	rows := [3][3]string{
		{cell(0), cell(1), cell(2)},
		{cell(3), "*", cell(4)},
		{cell(5), cell(6), cell(7)},
	}
	var sb strings.Builder
	for _, r := range rows {
		line := fmt.Sprintf(width+" "+width+" "+width, r[0], r[1], r[2])
		sb.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return sb.String()
}
