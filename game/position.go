package game

import (
	"fmt"
	"slices"
)

// KoRule is the repetition rule one colour plays under.
type KoRule uint8

// Ko rules, chosen per colour.
const (
	// SimpleKo forbids only the immediate recapture of a single stone.
	SimpleKo KoRule = iota
	// PositionalSuperko forbids any move that recreates an earlier
	// whole-board arrangement of stones (and includes simple ko).
	PositionalSuperko
	// NoKoCapture forbids, on top of positional superko, every capture that
	// creates a ko (one stone taken by a lone stone left in atari). It is
	// what a problem's "disallow_ko" means for the living side: its win must
	// never depend on winning a ko, so it may not take one at all; a win
	// proved under this rule stands whatever ko threats the opponent has.
	NoKoCapture
)

// String names the rule.
func (r KoRule) String() string {
	switch r {
	case SimpleKo:
		return "simple"
	case PositionalSuperko:
		return "psk"
	case NoKoCapture:
		return "no-ko-capture"
	}
	return fmt.Sprintf("KoRule(%d)", r)
}

// Position is a board with the side to move, the count of consecutive passes,
// the ko rule of each colour and the history that superko needs.
//
// Copy gives an independent position: the board is a value, and the
// history is shared until it grows. A plain assignment (saved := *p, later
// *p = saved) is the cheap undo for search, but two positions made by
// assignment must not both be played on: their histories would share
// storage. Use Copy for that.
type Position struct {
	Board
	toMove  Color
	passes  int
	moveNum int
	koRule  [3]KoRule
	// history holds the stone hashes of earlier positions, for superko.
	// It is shared between copies and capped so appends reallocate.
	history []uint64
}

// NewPosition returns the empty board of the given size with Black to move
// and simple ko for both colours.
func NewPosition(size int) (*Position, error) {
	b, err := NewBoard(size)
	if err != nil {
		return nil, err
	}
	return &Position{Board: *b, toMove: Black}, nil
}

// Copy returns an independent copy of the position.
func (p *Position) Copy() *Position {
	c := *p
	c.history = p.history[:len(p.history):len(p.history)]
	return &c
}

// CopyTo makes dst an independent copy of p, reusing dst's superko
// history storage: the allocation-free Copy for a scratch position played
// on again and again.
func (p *Position) CopyTo(dst *Position) {
	h := dst.history[:0]
	*dst = *p
	dst.history = append(h, p.history...)
}

// Reserve makes room in the superko history for n more moves, so that
// the next n moves played on p, or on plain copies made from it move by
// move (a search's stack of frames, each a copy of the one before), append
// in place instead of allocating. It never shares storage that p did not
// already own: a history without the room is moved to new storage.
func (p *Position) Reserve(n int) {
	if cap(p.history)-len(p.history) < n {
		h := make([]uint64, len(p.history), len(p.history)+n)
		copy(h, p.history)
		p.history = h
	}
}

// ToMove returns the side to move.
func (p *Position) ToMove() Color { return p.toMove }

// SetToMove sets the side to move (setup, PL[]). It clears the ko point,
// which belongs to the other side's turn.
func (p *Position) SetToMove(c Color) {
	if c != p.toMove {
		p.ko = NoPoint
	}
	p.toMove = c
}

// ResetPasses forgets the consecutive passes just played, so that the next
// pass does not end the game: for judging a position afresh, as a null-move
// test does when it gives the opponent a free move.
func (p *Position) ResetPasses() { p.passes = 0 }

// Passes returns the number of consecutive passes just played.
func (p *Position) Passes() int { return p.passes }

// MoveNumber returns the number of moves (passes included) played from the
// start of the position's history.
func (p *Position) MoveNumber() int { return p.moveNum }

// KoRule returns the ko rule colour c plays under.
func (p *Position) KoRule(c Color) KoRule { return p.koRule[c] }

// SetKoRule sets the ko rule of colour c.
func (p *Position) SetKoRule(c Color, r KoRule) { p.koRule[c] = r }

// Hash returns the Zobrist hash of the stones, the side to move, the ko
// point and whether the last move was a pass (which decides whether the next
// pass ends the game). Positions with equal hashes are treated as equal by
// the transposition table.
func (p *Position) Hash() uint64 {
	h := p.hash ^ zobrist.toMove[p.toMove-1]
	if p.ko != NoPoint {
		h ^= zobrist.ko[p.ko]
	}
	return h ^ zobrist.passes[min(p.passes, 2)]
}

// IsLegal reports whether the side to move may play m under its ko rule.
func (p *Position) IsLegal(m Point) bool {
	return p.legal(p.toMove, m) == ""
}

// legal returns "" for a legal move, or why it is illegal.
func (p *Position) legal(c Color, m Point) string {
	if m == Pass {
		return ""
	}
	if !p.Board.Legal(c, m) {
		return p.illegalReason(c, m)
	}
	rule := p.koRule[c]
	if rule == SimpleKo {
		return ""
	}
	if rule == NoKoCapture && p.KoCapture(c, m) {
		return "ko capture forbidden for this colour"
	}
	if len(p.history) > 0 {
		next := p.hashAfter(c, m)
		if next == p.hash || slices.Contains(p.history, next) {
			return reasonSuperko
		}
	}
	return ""
}

// Play plays m for the side to move and passes the turn. An illegal move
// returns an error naming the move and leaves the position unchanged.
func (p *Position) Play(m Point) error {
	if why := p.legal(p.toMove, m); why != "" {
		return fmt.Errorf("game: illegal move %v %s: %s", p.toMove, p.PointString(m), why)
	}
	p.history = append(p.history, p.hash)
	if m == Pass {
		p.ko = NoPoint
		p.passes++
	} else {
		p.play(p.toMove, m)
		p.passes = 0
	}
	p.moveNum++
	p.toMove = p.toMove.Opponent()
	return nil
}

// LegalMoves appends to dst the legal moves of the side to move among the
// points of allowed (every point when allowed is nil), without Pass.
func (p *Position) LegalMoves(dst []Point, allowed *PointSet) []Point {
	dst, _ = p.LegalMovesSuperko(dst, allowed)
	return dst
}

// reasonSuperko is legal's answer for a move barred by positional superko
// alone.
const reasonSuperko = "positional superko"

// LegalMovesSuperko is LegalMoves that also counts the moves that only
// positional superko bars: moves legal on this board whose legality
// depends on the history. Solvers use the count to tell which results
// hold for this path alone.
func (p *Position) LegalMovesSuperko(dst []Point, allowed *PointSet) (moves []Point, superkoBarred int) {
	for i := 0; i < p.cells; i++ {
		m := Point(i)
		if p.color[m] != Empty || (allowed != nil && !allowed.Has(m)) {
			continue
		}
		switch p.legal(p.toMove, m) {
		case "":
			dst = append(dst, m)
		case reasonSuperko:
			superkoBarred++
		}
	}
	return dst, superkoBarred
}

// History returns the stone hashes of earlier positions, oldest first.
// The caller must not modify it.
func (p *Position) History() []uint64 { return p.history }

// ClearHistory forgets earlier positions and passes: the position becomes a
// fresh start (problem setup).
func (p *Position) ClearHistory() {
	p.history = nil
	p.passes = 0
}
