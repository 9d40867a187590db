package selfplay

import (
	"slices"

	"lifezero/game"
)

// Outcome is how a game ended, which fixes its training targets.
type Outcome struct {
	Living game.Color
	// Result is game.LivingWins, game.LivingFails, or game.Undecided for a
	// game stopped at the move cap.
	Result game.Outcome
	// EndMove is the move number of the final position: for a win, the
	// move number at which the living side first had an unconditionally
	// alive stone.
	EndMove int
}

// LivedWithin reports whether the living side lived by move number dw (the
// self-play win condition of a generation with that d_w).
func (o Outcome) LivedWithin(dw int) bool {
	return o.Result == game.LivingWins && o.EndMove <= dw
}

// FTLTargets returns the training targets of the position at move number
// move, with toMove to play, in a game that ended as o, for a network with
// d outputs. The value is +1 when the side to move is the winner of the
// plain game (the living side lived at all) and -1 otherwise; a game
// stopped at the cap counts as a failure of the living side. dwin[k] is 1
// when the living side lived within k+1 moves of this position; mask[k] is
// 1 where that is known: everywhere for a decided game, and up to the cap
// for an undecided one.
func FTLTargets(o Outcome, move int, toMove game.Color, d int) (value float32, dwin, mask []float32) {
	dwin = make([]float32, d)
	mask = make([]float32, d)
	livingWon := o.Result == game.LivingWins
	value = -1
	if livingWon == (toMove == o.Living) {
		value = 1
	}
	left := o.EndMove - move // moves from this position to the end
	for k := range d {
		switch o.Result {
		case game.LivingWins:
			mask[k] = 1
			if k+1 >= left {
				dwin[k] = 1
			}
		case game.LivingFails:
			mask[k] = 1
		default: // stopped at the cap: no life within left moves, unknown after
			if k+1 <= left {
				mask[k] = 1
			}
		}
	}
	return value, dwin, mask
}

// MedianLength returns the median of the games' end move numbers, rounded
// up to a whole move (the next generation's d_w), or 0 for no games.
func MedianLength(outcomes []Outcome) int {
	if len(outcomes) == 0 {
		return 0
	}
	ends := make([]int, len(outcomes))
	for i, o := range outcomes {
		ends[i] = o.EndMove
	}
	slices.Sort(ends)
	n := len(ends)
	if n%2 == 1 {
		return ends[n/2]
	}
	return (ends[n/2-1] + ends[n/2] + 1) / 2
}
