package mcts

import (
	"math"

	"lifezero/game"
)

// LivingValue converts a value head's output v, in [-1, 1] from the view of
// the side to move, to the probability in [0, 1] that the living side wins,
// the value the tree backs up. Self-play and the solver's network evaluator
// both read the network through it, so they agree on what a value means.
func LivingValue(v float64, toMove, living game.Color) float64 {
	if toMove != living {
		v = -v
	}
	return Clamp01((1 + v) / 2)
}

// Clamp01 bounds a probability read from a network to [0, 1]; NaN, which a
// diverged network gives, counts as 1/2 (no knowledge).
func Clamp01(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0.5
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}
