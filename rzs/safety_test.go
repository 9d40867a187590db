package rzs

import (
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// TestSafeLifeIsAWin holds the recognition of life under alternating play
// against the exhaustive reference: on random positions the judge leaves
// undecided, every position safeLife accepts is a win for the living side
// with either side to move, and so is a random position that equals it on
// the zone safeLife gives (the rest of the board randomised).
func TestSafeLifeIsAWin(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	want := 300
	if testing.Short() {
		want = 60
	}
	recognised, refWins, skipped := 0, 0, 0
	for tries := 0; recognised < want && tries < 400*want; tries++ {
		pr := randomProblemOf(rng, 12, 0.25, 0.25) // more White: more enclosed regions
		start := pr.StartPosition()
		zone, ok := safeLife(pr, start, &pr.Crucial)
		if !ok {
			continue
		}
		recognised++
		if !zone.Intersects(&pr.Crucial) && pr.Goal[pr.Living()] == game.GoalLive {
			t.Fatalf("zone %v holds no crucial stone:\n%v", pointNames(start, &zone), start)
		}
		for _, toMove := range []game.Color{game.Black, game.White} {
			pos := start.Copy()
			pos.SetToMove(toMove)
			checkWin(t, pr, pos, pr.Crucial, &zone, "recognised position", &skipped)
			star, ok := samePatternPosition(rng, pos, &zone, 0.35)
			if !ok {
				t.Fatalf("no legal completion keeps the zone's blocks: zone %v on\n%v", pointNames(pos, &zone), pos)
			}
			checkWin(t, pr, star, pr.Standing(star, &pr.Crucial), &zone, "same zone pattern", &skipped)
			refWins++
		}
	}
	if recognised < want {
		t.Fatalf("safeLife accepted %d random positions, want %d: the test tests too little", recognised, want)
	}
	t.Logf("%d positions recognised, %d checks against the reference won (%d over its budget)", recognised, refWins, skipped)
}

// checkWin fails the test unless the reference finds pos a win.
func checkWin(t *testing.T, pr *game.Problem, pos *game.Position, standing game.PointSet, zone *game.PointSet, what string, skipped *int) {
	t.Helper()
	st, err := NewReference(pr, 200_000).Solve(pos, standing)
	if err != nil {
		*skipped++
		return
	}
	if st != Win {
		t.Fatalf("%s (%v to move, %v lives, goal %v, region %v, crucial %v) is %v by the reference; safeLife's zone %v:\n%v",
			what, pos.ToMove(), pr.Living(), pr.Goal[pr.Living()], pointNames(pos, &pr.Region), pointNames(pos, &pr.Crucial), st, pointNames(pos, zone), pos)
	}
}

// TestSafeLifeShapes checks shapes whose status is known from Go: life
// under alternating play that Benson's algorithm does not see is
// recognised (and the reference agrees it is a win), and dead or unsettled
// shapes are not.
func TestSafeLifeShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    fixture
		safe bool
	}{
		{"plus-shaped eye space and an eye", fixture{game.Black, []string{
			"OOOOOX.",
			"OO.OOX.",
			"O...OX.",
			"OO.OOX.",
			"O.OOOX.",
			"OOOOXX.",
			"XXXXX..",
		}}, true},
		{"T-shaped eye space on the edge and an eye", fixture{game.Black, []string{
			"...OX..",
			"O.OOX..",
			"OOO.OX.",
			"XXOOOX.",
			".XXXXX.",
			".......",
			".......",
		}}, true},
		{"two blocks with an eye each, joined by either of two points", fixture{game.Black, []string{
			".Ox,,,,",
			"OOx,,,,",
			"..x,,,,",
			"OOx,,,,",
			".Ox,,,,",
			"OOx,,,,",
			"xxx,,,,",
		}}, true},
		{"square four: dead", fixture{game.Black, []string{
			"..OX...",
			"..OX...",
			"OOOX...",
			"XXXX...",
			".......",
			".......",
			".......",
		}}, false},
		{"bent three in the corner, killer to move: dead", fixture{game.Black, []string{
			"..OX...",
			".OOX...",
			"OOXX...",
			"XX.....",
			".......",
			".......",
			".......",
		}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr := tc.f.problem(t)
			pos := pr.StartPosition()
			if j := pr.Judge(pos, &pr.Crucial); j.Outcome != game.Undecided {
				t.Fatalf("the judge already says %v: not a case for safeLife", j.Outcome)
			}
			zone, ok := safeLife(pr, pos, &pr.Crucial)
			if ok != tc.safe {
				t.Fatalf("safeLife says %v, want %v (zone %v)", ok, tc.safe, pointNames(pos, &zone))
			}
			if tc.safe {
				var skipped int
				checkWin(t, pr, pos, pr.Crucial, &zone, "the shape", &skipped)
				if skipped > 0 {
					t.Fatal("the reference ran out of budget")
				}
			}
		})
	}
}
