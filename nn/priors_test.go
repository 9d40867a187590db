package nn

import (
	"math"
	"slices"
	"testing"

	"lifezero/game"
)

// MovePriors renormalises the policy over the moves asked for, by policy
// index, and falls back to uniform priors when they have no mass (a
// non-positive or infinite entry counts as none); AppendMovePriors gives
// the same priors after whatever dst holds, without an allocation once
// dst has the room.
func TestMovePriors(t *testing.T) {
	b, err := game.NewBoard(5)
	if err != nil {
		t.Fatal(err)
	}
	a, c, d := b.Point(0, 0), b.Point(2, 1), b.Point(4, 4) // policy indices 0, 7, 24
	policy := make([]float32, 26)
	policy[0], policy[7], policy[24], policy[25] = 0.1, 0.3, float32(math.Inf(1)), 0.4
	for _, tc := range []struct {
		name  string
		moves []game.Point
		want  []float32
	}{
		{"renormalised", []game.Point{a, c}, []float32{0.25, 0.75}},
		{"pass last index", []game.Point{c, game.Pass}, []float32{3.0 / 7, 4.0 / 7}},
		{"infinite entry has no mass", []game.Point{d, a}, []float32{0, 1}},
		{"no mass: uniform", []game.Point{d, b.Point(1, 1)}, []float32{0.5, 0.5}},
		{"off the board: no mass", []game.Point{game.NoPoint, c}, []float32{0, 1}},
		{"no moves", nil, []float32{}},
	} {
		got := MovePriors(b, policy, tc.moves)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d priors, want %d", tc.name, len(got), len(tc.want))
		}
		for i := range got {
			if math.Abs(float64(got[i]-tc.want[i])) > 1e-6 {
				t.Fatalf("%s: priors %v, want %v", tc.name, got, tc.want)
			}
		}
		// Appended after a prefix, into room holding stale values.
		dst := append(make([]float32, 0, 8), 9, 9, 7, 7, 7, 7)[:2]
		app := AppendMovePriors(dst, b, policy, tc.moves)
		if !slices.Equal(app[:2], []float32{9, 9}) || !slices.Equal(app[2:], got) {
			t.Fatalf("%s: appended %v, want [9 9] then %v", tc.name, app, got)
		}
		if n := testing.AllocsPerRun(10, func() { AppendMovePriors(dst, b, policy, tc.moves) }); n != 0 {
			t.Fatalf("%s: %v allocations appending into room", tc.name, n)
		}
	}
}
