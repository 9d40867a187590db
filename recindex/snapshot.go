package recindex

// A snapshot is the block of snapRadius points around a move's point in the
// position after the move, 2 bits a point (the key codes, codeOff off the
// board), stored once per move. Verification tests a candidate's points
// that its key does not prove against the snapshot with a few word
// operations instead of reading each point's timeline: the points beyond a
// key's 5x5 block reject most candidates of 6x6 and 7x7 patterns, and a
// timeline read is two cache misses a point.
const (
	snapRadius = 5
	snapSide   = 2*snapRadius + 1
	snapWords  = (2*snapSide*snapSide + 63) / 64 // 4 words for 11x11 points
)

// snapBit is the bit position, across the snapshot's words, of the point
// at (dx, dy) from the centre, or -1 beyond the block.
func snapBit(dx, dy int) int {
	if abs(dx) > snapRadius || abs(dy) > snapRadius {
		return -1
	}
	return 2 * ((dy+snapRadius)*snapSide + dx + snapRadius)
}

// snapshot packs the codes of the block centred on (x, y) of board.
func snapshot(board []uint8, size, x, y int) [snapWords]uint64 {
	var s [snapWords]uint64
	for dy := -snapRadius; dy <= snapRadius; dy++ {
		for dx := -snapRadius; dx <= snapRadius; dx++ {
			b := snapBit(dx, dy)
			s[b/64] |= uint64(codeAt(board, size, x+dx, y+dy)) << (b % 64)
		}
	}
	return s
}

// snapTest is the test a combo's unproven points put on a snapshot
// centred on its anchor: (s[i] & mask[i]) == value[i] for every word.
type snapTest struct {
	mask, value [snapWords]uint64
}

// add requires the point at (dx, dy) from the centre to pass the 2-bit
// test (m, v) of codeConstraint. It reports false when the point is
// beyond the block or the mask gives no bit test.
func (t *snapTest) add(dx, dy int, m, v uint64) bool {
	b := snapBit(dx, dy)
	if b < 0 || m == 0 {
		return false
	}
	t.mask[b/64] |= m << (b % 64)
	t.value[b/64] |= v << (b % 64)
	return true
}

// passes reports whether snapshot s passes the test.
func (t *snapTest) passes(s []uint64) bool {
	for i := range snapWords {
		if s[i]&t.mask[i] != t.value[i] {
			return false
		}
	}
	return true
}
