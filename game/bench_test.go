package game

import (
	"math/rand/v2"
	"testing"
)

// benchPosition returns the position after a random game of the given
// size has run for moves moves (or ended), with a fixed seed.
func benchPosition(b *testing.B, size, moves int) *Position {
	b.Helper()
	p, err := NewPosition(size)
	if err != nil {
		b.Fatal(err)
	}
	if err := randomGame(p, rand.New(rand.NewPCG(1, uint64(size))), 0, moves, nil); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPlayUndo19 plays one legal move on a middle-game 19x19 position
// and restores the position by assignment, the undo of search.
func BenchmarkPlayUndo19(b *testing.B) {
	for _, rule := range []KoRule{SimpleKo, PositionalSuperko} {
		b.Run(rule.String(), func(b *testing.B) {
			p := benchPosition(b, 19, 150)
			p.SetKoRule(Black, rule)
			p.SetKoRule(White, rule)
			legal := p.LegalMoves(nil, nil)
			saved := *p
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := p.Play(legal[i%len(legal)]); err != nil {
					b.Fatal(err)
				}
				*p = saved
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}

// playout plays random legal moves that do not fill the mover's own
// single-point eyes until two passes, or 3 moves per point: under simple ko
// random play often falls into a triple-ko cycle that never ends (most
// 19x19 playouts do). It returns the number of moves. empties is scratch
// space.
func playout(p *Position, rng *rand.Rand, empties []Point) int {
	maxMoves := 3 * p.Size() * p.Size()
	n := 0
	for ; n < maxMoves && p.Passes() < 2; n++ {
		empties = empties[:0]
		for i := 0; i < p.Cells(); i++ {
			if p.At(Point(i)) == Empty {
				empties = append(empties, Point(i))
			}
		}
		c := p.ToMove()
		m := Pass
		for len(empties) > 0 {
			k := rng.IntN(len(empties))
			q := empties[k]
			if !ownEye(&p.Board, c, q) && p.IsLegal(q) {
				m = q
				break
			}
			empties[k] = empties[len(empties)-1]
			empties = empties[:len(empties)-1]
		}
		// Only legal moves are chosen, so Play cannot fail.
		_ = p.Play(m)
	}
	return n
}

// benchmarkPlayout runs playouts from the empty board under simple ko and
// under positional superko (which rules out the endless cycles).
func benchmarkPlayout(b *testing.B, size int) {
	for _, rule := range []KoRule{SimpleKo, PositionalSuperko} {
		b.Run(rule.String(), func(b *testing.B) {
			empty, err := NewPosition(size)
			if err != nil {
				b.Fatal(err)
			}
			empty.SetKoRule(Black, rule)
			empty.SetKoRule(White, rule)
			rng := rand.New(rand.NewPCG(3, 4))
			empties := make([]Point, 0, MaxCells)
			p := new(Position)
			moves, capped := 0, 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				*p = *empty
				n := playout(p, rng, empties)
				moves += n
				if p.Passes() < 2 {
					capped++
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
			b.ReportMetric(100*float64(capped)/float64(b.N), "%capped")
		})
	}
}

func BenchmarkRandomPlayout9(b *testing.B)  { benchmarkPlayout(b, 9) }
func BenchmarkRandomPlayout19(b *testing.B) { benchmarkPlayout(b, 19) }

// BenchmarkBenson19 runs Benson for both colours on a finished random
// 19x19 game: a full board with many small living groups.
func BenchmarkBenson19(b *testing.B) {
	p := benchPosition(b, 19, 3*19*19)
	alive := 0
	for _, c := range []Color{Black, White} {
		u := p.Benson(c)
		alive += u.Alive.Len()
	}
	if alive == 0 {
		b.Fatal("benchmark position has no alive blocks")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Benson(Black)
		p.Benson(White)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}

// BenchmarkAliveAmong19 asks, of 19x19 positions 40 to 200 moves into
// random games, whether one block of each colour (the one on the first
// stone in board order) is unconditionally alive: by Benson on the whole
// board, and by AliveAmong on the part that decides it, as the judges do.
func BenchmarkAliveAmong19(b *testing.B) {
	rng := rand.New(rand.NewPCG(19, 3))
	type query struct {
		p     *Position
		c     Color
		seeds PointSet
	}
	var queries []query
	for len(queries) < 64 {
		p, err := NewPosition(19)
		if err != nil {
			b.Fatal(err)
		}
		if err := randomGame(p, rng, 0.005, 40+rng.IntN(160), nil); err != nil {
			b.Fatal(err)
		}
		for _, c := range []Color{Black, White} {
			for i := 0; i < p.Cells(); i++ {
				if p.At(Point(i)) == c {
					queries = append(queries, query{p, c, p.BlockSet(Point(i))})
					break
				}
			}
		}
	}
	b.Run("benson", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			q := &queries[i%len(queries)]
			u := q.p.Benson(q.c)
			u.Alive.Intersects(&q.seeds)
		}
	})
	b.Run("alive-among", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			q := &queries[i%len(queries)]
			q.p.AliveAmong(&q.seeds, q.c)
		}
	})
}
