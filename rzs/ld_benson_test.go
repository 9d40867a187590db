package rzs

import (
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// TestVitalRegionsAgainstBenson holds the probe's shortcut to Benson's
// algorithm (package game, written independently): every block Benson finds
// unconditionally alive has at least two regions that blockRegions counts
// as vital, and a distance of 0, so skipping the judge below two vital regions
// never hides a win in one. It also checks that the two measures agree with
// each other: a distance of 0 means two vital regions.
func TestVitalRegionsAgainstBenson(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	alive := 0
	for n := 0; n < 3000; n++ {
		pos := randomStones(rng)
		for _, c := range []game.Color{game.Black, game.White} {
			u := pos.Benson(c)
			var done game.PointSet
			for i := 0; i < pos.Cells(); i++ {
				p := game.Point(i)
				if pos.At(p) != c || done.Has(p) {
					continue
				}
				done = done.Union(pos.BlockSet(p))
				v, d := blockRegions(pos, p, c, nil)
				if (d == 0) != (v >= 2) {
					t.Fatalf("block at %s: %d vital regions but distance %d\n%v", pos.PointString(p), v, d, pos)
				}
				if u.Alive.Has(p) {
					alive++
					if v < 2 || d != 0 {
						t.Fatalf("block at %s is unconditionally alive with %d vital regions, distance %d\n%v", pos.PointString(p), v, d, pos)
					}
				}
			}
		}
	}
	if alive < 100 {
		t.Fatalf("only %d alive blocks seen: the test checks too little", alive)
	}
}

// randomStones is a random legal 5x5 to 7x7 position.
func randomStones(rng *rand.Rand) *game.Position {
	for {
		size := 5 + rng.IntN(3)
		if pos, ok := buildPosition(size, randomCells(rng, size, 0.35, 0.35)); ok {
			return pos
		}
	}
}

// TestProbeFindsEveryWinInOne: on random problems with the living side to
// move, every move next to the living group after which the judge proves
// the win gets at least the probe's share of the prior, and the priors
// still sum to one.
func TestProbeFindsEveryWinInOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	found := 0
	for n := 0; n < 400; n++ {
		pr := randomProblem(rng, 12)
		pos := pr.StartPosition()
		if pos.ToMove() != pr.Living() {
			pos.SetToMove(pr.Living())
		}
		moves, _ := pos.LegalMovesSuperko(nil, &pr.Region)
		if len(moves) == 0 {
			continue
		}
		priors, _ := LDB().Evaluate(pos, pr, moves)
		sum := float32(0)
		var wins []int
		for i, m := range moves {
			sum += priors[i]
			next := pos.Copy()
			if err := next.Play(m); err != nil {
				t.Fatal(err)
			}
			standing := pr.Standing(next, &pr.Crucial)
			if pr.Judge(next, &standing).Outcome == game.LivingWins {
				wins = append(wins, i)
			}
		}
		if sum < 0.999 || sum > 1.001 {
			t.Fatalf("priors sum to %v", sum)
		}
		if len(wins) == 0 {
			continue
		}
		// A win in one that the probe skips (farther than one point from
		// the group) may exist; every probed one must carry the share.
		var ld ldScratch
		ld.read(pos, pr, pr.Living(), true)
		for _, i := range wins {
			if ld.distOwn[moves[i]] <= 1 {
				found++
				if priors[i] < 0.9/float32(len(wins)) {
					t.Fatalf("win in one at %s has prior %v (%d wins)\n%v", pos.PointString(moves[i]), priors[i], len(wins), pos)
				}
			}
		}
	}
	if found < 20 {
		t.Fatalf("only %d wins in one seen: the test checks too little", found)
	}
}
