package rzs

import (
	"math"
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// An unvisited child scores as its parent's value, less the FPU reduction
// times the square root of the visited children's prior mass: with the
// reduction a one-in-a-hundred move no longer outscores the move that
// holds nearly all the prior and is doing a little worse than its parent.
func TestFPUReductionSelection(t *testing.T) {
	for _, tt := range []struct {
		reduction float64
		want      int
	}{
		{0, 1},   // fpu 0.5 + c·0.01 beats 0.45 + c·0.98/100
		{0.3, 0}, // fpu 0.5 - 0.3·√0.98 + c·0.01 does not
	} {
		s := newMCTSSolver(randomProblem(rand.New(rand.NewPCG(1, 2)), 10), Options{FPUReduction: tt.reduction})
		pts := s.pr.Region.Points()
		moves := pts[:3]
		s.tree.expand(rootNode, game.White, moves, []float32{0.98, 0.01, 0.01})
		root := s.tree.node(rootNode)
		root.visits, root.valueSum = 100, 50
		c := s.tree.child(rootNode, 0, moves[0])
		cn := s.tree.node(c)
		cn.visits, cn.valueSum = 99, 99*0.45
		idx, _, _, ok := s.tree.selectChild(rootNode, skipper{s: s, or: true})
		if !ok || idx != tt.want {
			t.Errorf("FPU reduction %v: selected child %d (ok %v), want %d", tt.reduction, idx, ok, tt.want)
		}
	}
}

// A leaf's value falls by the depth discount per ply; no discount leaves
// it as the evaluator gave it.
func TestDepthDiscount(t *testing.T) {
	pr := randomProblem(rand.New(rand.NewPCG(1, 2)), 10)
	for _, tt := range []struct {
		discount float64
		depth    int
		want     float64
	}{
		{0, 7, 0.8}, // 0: none
		{1, 7, 0.8},
		{0.9, 0, 0.8},
		{0.9, 1, 0.72},
		{0.5, 3, 0.1},
	} {
		opts := Options{DepthDiscount: tt.discount}
		opts.defaults(pr)
		s := newMCTSSolver(pr, opts)
		if got := s.discounted(0.8, tt.depth); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("discount %v at depth %d: value %v, want %v", tt.discount, tt.depth, got, tt.want)
		}
	}
}
