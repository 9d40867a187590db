package features

import (
	"context"
	"iter"
	"math/rand/v2"
	"slices"
	"testing"

	"lifezero/game"
)

// randomRecords plays random games and returns positions from them.
func randomRecords(t testing.TB, seed uint64, n int) []record {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var recs []record
	for i := range n {
		size := []int{9, 13, 19}[i%3]
		moves := randomGame(t, rng, size, rng.IntN(size*size*2/3)+1)
		recs = append(recs, record{
			pos:     playGame(t, size, game.Black, moves),
			history: HistoryOf(moves),
			move:    game.NoPoint,
		})
	}
	return recs
}

// allMoves counts the diamonds of every legal move of the records.
func allMoves(recs []record) iter.Seq2[Sample, error] {
	return func(yield func(Sample, error) bool) {
		for _, r := range recs {
			if !yield(Sample{Pos: r.pos, Move: game.NoPoint}, nil) {
				return
			}
		}
	}
}

// TestSymmetryInvariance extracts on random positions and on their images
// under the eight symmetries (history mapped too): every move must get the
// same ids as its image. No feature is asymmetric by design.
func TestSymmetryInvariance(t *testing.T) {
	checkSymmetry(t, randomRecords(t, 11, 24))
}

// TestSymmetryInvarianceRealGames does the same on positions of real games,
// where ladders are long and realistic.
func TestSymmetryInvarianceRealGames(t *testing.T) {
	var recs []record
	for i, r := range gameRecords(t, "2005-01.sgf", 6000) {
		if i%97 == 0 {
			recs = append(recs, r)
		}
	}
	checkSymmetry(t, recs)
}

func checkSymmetry(t *testing.T, recs []record) {
	t.Helper()
	e := extractorLearnedFrom(t, recs)
	var base, img Moves
	for ri, r := range recs {
		e.Extract(r.pos, r.history, &base)
		for s := game.Symmetry(1); s < game.NumSymmetries; s++ {
			tp := r.pos.Transformed(s)
			th := History{Last: r.pos.Transform(s, r.history.Last), OwnPrev: r.pos.Transform(s, r.history.OwnPrev)}
			e.Extract(tp, th, &img)
			if img.Len() != base.Len() {
				t.Fatalf("record %d, symmetry %d: %d candidates, image has %d", ri, s, base.Len(), img.Len())
			}
			for i := range base.Len() {
				m := base.Move(i)
				j := img.Index(r.pos.Transform(s, m))
				if j < 0 || !slices.Equal(base.Features(i), img.Features(j)) {
					t.Fatalf("record %d (%dx%d), symmetry %d, move %s: %v\nimage: %v\n%s",
						ri, r.pos.Size(), r.pos.Size(), s, r.pos.GTPString(m), names(e, base.Features(i)), names(e, featuresAt(&img, j)), r.pos)
				}
			}
		}
	}
}

// TestColourSwapInvariance replays random games with White moving first:
// the colour-swapped position with the other side to move must give the
// same ids to every move.
func TestColourSwapInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	recs := randomRecords(t, 13, 12)
	e := extractorLearnedFrom(t, recs)
	var a, b Moves
	for trial := range 12 {
		size := []int{9, 13, 19}[trial%3]
		moves := randomGame(t, rng, size, rng.IntN(size*size/2)+1)
		pos := playGame(t, size, game.Black, moves)
		swapped := playGame(t, size, game.White, moves)
		e.Extract(pos, HistoryOf(moves), &a)
		e.Extract(swapped, HistoryOf(moves), &b)
		if !slices.Equal(a.Points(), b.Points()) {
			t.Fatalf("trial %d: legal moves differ after the colour swap", trial)
		}
		for i := range a.Len() {
			if !slices.Equal(a.Features(i), b.Features(i)) {
				t.Fatalf("trial %d, move %s: %v\nswapped: %v\n%s", trial, pos.GTPString(a.Move(i)),
					names(e, a.Features(i)), names(e, b.Features(i)), pos)
			}
		}
	}
}

// extractorLearnedFrom learns diamonds and shapes from every legal move of
// recs, keeping all (minimum count 1), so that every move has a diamond
// and a shape feature.
func extractorLearnedFrom(t *testing.T, recs []record) *Extractor {
	t.Helper()
	diamonds, err := LearnDiamonds(context.Background(), allMoves(recs), 1)
	if err != nil {
		t.Fatal(err)
	}
	shapes, err := LearnShapes(context.Background(), allMoves(recs), 1)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Pattern3Liberties: true, Diamonds: diamonds, Shapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func featuresAt(m *Moves, i int) []int32 {
	if i < 0 {
		return nil
	}
	return m.Features(i)
}

func names(e *Extractor, ids []int32) []string {
	var out []string
	for _, id := range ids {
		out = append(out, e.Name(id))
	}
	return out
}
