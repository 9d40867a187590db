package features

import (
	"context"
	"testing"
)

// BenchmarkExtract19 extracts the features of every legal move (and the
// pass) of mid-game 19x19 positions from real games (tom9d, moves 50 to
// 200), and reports candidate moves per second: with the built-in set, and
// with diamonds and shapes learned from the played moves of other games
// (2005-01, seen at least 3 times), as a trained model's set has them.
func BenchmarkExtract19(b *testing.B) {
	all := gameRecords(b, "2010-12.sgf", 20000)
	var recs []record
	for _, r := range all {
		if n := r.pos.MoveNumber(); n >= 50 && n < 200 && n%5 == 0 {
			recs = append(recs, r)
		}
		if len(recs) == 200 {
			break
		}
	}
	if len(recs) == 0 {
		b.Skip("no mid-game positions in 2010-12.sgf")
	}
	learned := gameRecords(b, "2005-01.sgf", 20000)
	diamonds, err := LearnDiamonds(context.Background(), playedMoves(learned), 3)
	if err != nil {
		b.Fatal(err)
	}
	shapes, err := LearnShapes(context.Background(), playedMoves(learned), 3)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		cfg  Config
	}{
		{"builtin", DefaultConfig()},
		{"learned", Config{Pattern3Liberties: true, Diamonds: diamonds, Shapes: shapes}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e, err := New(bc.cfg)
			if err != nil {
				b.Fatal(err)
			}
			var out Moves
			moves := 0
			for i := 0; b.Loop(); i++ {
				r := recs[i%len(recs)]
				e.Extract(r.pos, r.history, &out)
				moves += out.Len()
			}
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
