package mcts

import (
	"fmt"
	"testing"

	"lifezero/game"
)

// benchGame is a game whose rules cost next to nothing (a path hash and a
// depth), so that BenchmarkSearch measures the search's own descent,
// selection, virtual loss and backup.
type benchGame struct {
	h      uint64
	depth  int
	toMove game.Color
}

var benchMoves = []game.Point{1, 2, 3, 4, 5, 6, 7, 8}

type benchEval struct{ priors []float32 }

func (e *benchEval) EvaluateBatch(leaves []*Leaf[benchGame]) error {
	for _, lf := range leaves {
		lf.ToMove = lf.State.toMove
		lf.Moves, lf.Priors = benchMoves, e.priors
		lf.Value = float64(lf.State.h%1000) / 1000
	}
	return nil
}

// BenchmarkSearch runs searches of 800 simulations over 8 moves a node,
// one leaf per batch and 8 under virtual loss. One op is one round (a
// Collect and an Evaluate); ns/sim is the time per simulation.
func BenchmarkSearch(b *testing.B) {
	hooks := Hooks[benchGame]{
		Root: func() benchGame { return benchGame{h: 1469598103934665603, toMove: game.Black} },
		Play: func(st *benchGame, m game.Point) error {
			st.h = (st.h ^ uint64(m)) * 1099511628211
			st.depth++
			st.toMove = st.toMove.Opponent()
			return nil
		},
		Judge: func(st *benchGame) (float64, bool) {
			return float64(st.h % 2), st.depth >= 12 || st.h%16 == 0
		},
	}
	ev := &benchEval{priors: []float32{0.3, 0.2, 0.15, 0.1, 0.1, 0.06, 0.05, 0.04}}
	const sims = 800
	for _, batch := range []int{1, 8} {
		b.Run(fmt.Sprintf("batch%d", batch), func(b *testing.B) {
			tr := NewTree(game.White)
			s := NewSearch(tr, game.Black, sims, hooks)
			var leaves []*Leaf[benchGame]
			total := 0
			for b.Loop() {
				if s.Finished() {
					total += s.Done()
					tr.Reset(game.White)
					s.Reset(game.Black, sims)
				}
				var err error
				if leaves, err = s.Collect(batch, leaves[:0]); err != nil {
					b.Fatal(err)
				}
				if err := Evaluate(Evaluator[benchGame](ev), leaves); err != nil {
					b.Fatal(err)
				}
			}
			total += s.Done()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/sim")
		})
	}
}
