package rzs

import (
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// TestRegionsAfterMatchesAFreshReading checks LD's kept block readings
// against targetRegions read afresh: for random problems and for the
// shared problems after random moves, at both sides' turns, the evaluated
// position's regions and those after every probed move must be the same.
// It also checks that the test reached both the reuse of kept readings and
// the fresh reading after a capture.
func TestRegionsAfterMatchesAFreshReading(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	var positions []*game.Problem
	for range 300 {
		positions = append(positions, randomProblem(rng, 14))
	}
	for _, set := range []string{"killall7x7", "cho19-dev"} {
		for _, pr := range sharedProblems(t, set)[:4] {
			for range 5 {
				positions = append(positions, playedOn(t, pr, rng, 2+rng.IntN(10)))
			}
		}
	}
	reused, captures := 0, 0
	for _, pr := range positions {
		living := pr.Living()
		for _, toMove := range []game.Color{game.Black, game.White} {
			pos := pr.Start.Copy()
			pos.SetToMove(toMove)
			var ld ldScratch
			ld.cfg = LDB()
			ld.read(pos, pr, living, true)
			v, d := ld.regions(pos, living)
			if wv, wd := targetRegions(pos, &ld.targets, living); v != wv || d != wd {
				t.Fatalf("regions %d %d, afresh %d %d\n%v", v, d, wv, wd, pos)
			}
			moves, _ := pos.LegalMovesSuperko(nil, &pr.Region)
			for _, m := range moves {
				standing, ok := ld.playNear(pos, pr, m)
				if !ok {
					continue
				}
				v, d := ld.regionsAfter(pos, m, &standing, living)
				if wv, wd := targetRegions(&ld.next, &standing, living); v != wv || d != wd {
					t.Fatalf("after %s: regions %d %d, afresh %d %d\n%v", pos.PointString(m), v, d, wv, wd, pos)
				}
				if ld.next.Captured(game.Black)+ld.next.Captured(game.White) != pos.Captured(game.Black)+pos.Captured(game.White) {
					captures++
				} else if keptReadingUsed(&ld, m) {
					reused++
				}
			}
		}
	}
	t.Logf("reused %d captures %d", reused, captures)
	if reused < 100 || captures < 10 {
		t.Fatalf("kept readings reused %d times, captures %d: the test checks too little", reused, captures)
	}
}

// keptReadingUsed reports whether regionsAfter answers for move m with at
// least one block's kept reading.
func keptReadingUsed(ld *ldScratch, m game.Point) bool {
	if ld.nBlocks < 0 || ld.targets.Has(m) {
		return false
	}
	for i := 0; i < ld.nBlocks; i++ {
		if !ld.blocks[i].read.Has(m) {
			return true
		}
	}
	return false
}

// playedOn returns pr with its start moved on by up to n random legal
// moves of the region (fewer if the game is decided first), as a fresh
// problem whose crucial stones are those still standing.
func playedOn(t *testing.T, pr *game.Problem, rng *rand.Rand, n int) *game.Problem {
	t.Helper()
	pos := pr.StartPosition()
	standing := pr.Crucial
	for range n {
		moves, _ := pos.LegalMovesSuperko(nil, &pr.Region)
		if len(moves) == 0 || pr.Judge(pos, &standing).Outcome != game.Undecided {
			break
		}
		if err := pos.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
		standing = pr.Standing(pos, &standing)
	}
	var out game.Problem
	pr.StandingView(&out, &standing)
	out.Start = pos
	return &out
}
