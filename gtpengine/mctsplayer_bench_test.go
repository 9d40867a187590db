package gtpengine

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkMCTSPlayer measures one genmove search of 200 simulations from
// the empty board with seeded 2x16 weights, one leaf per network call
// (the default) and eight.
func BenchmarkMCTSPlayer(b *testing.B) {
	const sims = 200
	for _, size := range []int{7, 19} {
		for _, batch := range []int{1, 8} {
			b.Run(fmt.Sprintf("%dx%d/batch%d", size, size, batch), func(b *testing.B) {
				p, err := NewMCTSPlayer(netWeights(b, size), sims)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.SetBatch(batch); err != nil {
					b.Fatal(err)
				}
				g, err := NewGame(size, 7.5)
				if err != nil {
					b.Fatal(err)
				}
				moves := SensibleMoves(nil, g.Position())
				scores := make([]float64, len(moves))
				b.ReportAllocs()
				for b.Loop() {
					if err := p.Scores(context.Background(), g, moves, scores); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sims), "ns/sim")
			})
		}
	}
}
