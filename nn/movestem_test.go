package nn

import (
	"math/rand/v2"
	"testing"
)

// TestMoveStem checks the short stem (move planes tabulated) against the
// gorgonia graph on positions whose move planes are one-hot, as Encode
// writes them, mixed in one batch with a position whose move planes are
// not (the full stem); and that each position alone gives what it gives
// in the batch (to the bit with the packed kernels).
func TestMoveStem(t *testing.T) {
	c := Config{Board: 7, Blocks: 1, Filters: 16, D: 5, MoveNumberPlanes: 6, ValueHidden: 8}
	w := trainedWeights(t, c, 2, 4, 13)
	const n = 7
	rng := rand.New(rand.NewPCG(10, 11))
	planes := randomPlanes(c, n, rng)
	hw, in := c.Points(), c.InputSize()
	want := make([]int, n)
	for s := range n {
		want[s] = -1
		if s == 3 {
			continue // keeps randomPlanes' random move planes
		}
		want[s] = rng.IntN(c.MoveNumberPlanes)
		for m := range c.MoveNumberPlanes {
			v := float32(0)
			if m == want[s] {
				v = 1
			}
			p := planes[s*in+(NumFixedPlanes+m)*hw:][:hw]
			for i := range p {
				p[i] = v
			}
		}
	}
	e, err := NewEvaluator(w)
	if err != nil {
		t.Fatal(err)
	}
	for s := range n {
		if got := e.moveIndex(planes[s*in : (s+1)*in]); got != want[s] {
			t.Fatalf("position %d: move plane %d, want %d", s, got, want[s])
		}
	}
	ge, err := NewGraphEvaluator(w, n)
	if err != nil {
		t.Fatal(err)
	}
	p1, v1, d1, err := e.Forward(planes, n)
	if err != nil {
		t.Fatal(err)
	}
	p2, v2, d2, err := ge.Forward(planes, n)
	if err != nil {
		t.Fatal(err)
	}
	if m := maxDiff(p1, p2, v1, v2, d1, d2); m > 1e-4 {
		t.Errorf("short stem and graph differ by %g", m)
	}
	tol := 1e-5
	if usePacked {
		tol = 0
	}
	for s := range n {
		p, v, d, err := e.Forward(planes[s*in:(s+1)*in], 1)
		if err != nil {
			t.Fatal(err)
		}
		if m := maxDiff(p, p1[s:s+1], v, v1[s:s+1], d, d1[s:s+1]); m > tol {
			t.Errorf("position %d alone differs from in the batch by %g", s, m)
		}
	}
}
