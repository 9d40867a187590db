package mcts

import "math/rand/v2"

// DrawWeighted returns an index drawn with probability w[i]/Σw, a negative
// weight counting as zero, or -1, without using rng, when the weights have
// no positive mass (all zero, none at all, or a NaN sum): the caller decides
// what that means (a uniform draw, the most visited move...).
//
// It takes one rng.Float64(), scales it by the sum and subtracts the weights
// in order until the rest goes below zero; a zero weight is never drawn.
// Should rounding leave the rest at or above zero after the last weight
// (possible only with fractional weights), the last positive weight is the
// draw: the point u·Σw lies at the end of its interval. Visit-count sampling
// (temperature 1), a softmax over scores and a draw over an evaluator's
// priors all come here, so the same seed gives the same draws everywhere.
func DrawWeighted[W float32 | float64](rng *rand.Rand, w []W) int {
	var sum float64
	for _, x := range w {
		sum += float64(max(x, 0))
	}
	if !(sum > 0) {
		return -1
	}
	r := rng.Float64() * sum
	last := -1
	for i, x := range w {
		if x <= 0 {
			continue // subtracting zero would leave r as it is
		}
		last = i
		if r -= float64(x); r < 0 {
			return i
		}
	}
	return last
}
