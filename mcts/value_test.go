package mcts

import (
	"math"
	"testing"

	"lifezero/game"
)

func TestLivingValue(t *testing.T) {
	tests := []struct {
		v      float64
		toMove game.Color
		want   float64
	}{
		{1, game.White, 1},      // the living side to move is sure to win
		{1, game.Black, 0},      // the killer to move is sure to win
		{-1, game.Black, 1},     // the killer to move is sure to lose
		{0, game.Black, 0.5},    // no idea
		{0.5, game.White, 0.75}, // living side to move, leaning to a win
		{0.5, game.Black, 0.25}, // the same from the killer's view
		{1.5, game.White, 1},    // out of range: clamped
		{-3, game.White, 0},     // out of range: clamped
		{math.NaN(), game.White, 0.5},
	}
	for _, tt := range tests {
		if got := LivingValue(tt.v, tt.toMove, game.White); got != tt.want {
			t.Errorf("LivingValue(%v, %v to move, White lives) = %v, want %v", tt.v, tt.toMove, got, tt.want)
		}
	}
	// The two sides' views of one value add up to one.
	for v := -1.0; v <= 1; v += 0.125 {
		if s := LivingValue(v, game.Black, game.Black) + LivingValue(v, game.White, game.Black); s != 1 {
			t.Errorf("value %v: the views add up to %v", v, s)
		}
	}
}
