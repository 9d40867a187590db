package nn

import (
	"math"

	"lifezero/game"
)

// MovePriors returns the policy's probabilities of moves (policy index by
// MoveIndex), renormalised to sum to 1: the priors a search gives its
// candidate moves. They are uniform when the policy gives the moves no
// mass, as an untrained or broken network might.
func MovePriors(b *game.Board, policy []float32, moves []game.Point) []float32 {
	priors := make([]float32, len(moves))
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
	return priors
}
