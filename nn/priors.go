package nn

import (
	"math"
	"slices"

	"lifezero/game"
)

// MovePriors returns the policy's probabilities of moves (policy index by
// MoveIndex), renormalised to sum to 1: the priors a search gives its
// candidate moves. They are uniform when the policy gives the moves no
// mass, as an untrained or broken network might.
func MovePriors(b *game.Board, policy []float32, moves []game.Point) []float32 {
	return AppendMovePriors(make([]float32, 0, len(moves)), b, policy, moves)
}

// AppendMovePriors appends MovePriors(b, policy, moves) to dst: the form
// without an allocation for a caller that keeps a buffer (self-play's
// batcher gives the leaves of a batch one, reused by the next batch).
func AppendMovePriors(dst []float32, b *game.Board, policy []float32, moves []game.Point) []float32 {
	n := len(dst)
	dst = slices.Grow(dst, len(moves))[:n+len(moves)]
	priors := dst[n:]
	clear(priors)
	var sum float32
	for i, m := range moves {
		k := MoveIndex(b, m)
		if k < 0 || k >= len(policy) {
			continue
		}
		if p := policy[k]; p > 0 && !math.IsInf(float64(p), 1) {
			priors[i] = p
			sum += p
		}
	}
	for i := range priors {
		if sum > 0 {
			priors[i] /= sum
		} else {
			priors[i] = 1 / float32(len(priors))
		}
	}
	return dst
}
