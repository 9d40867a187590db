package game

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestHashIncludesSideToMoveKoAndPasses(t *testing.T) {
	empty, _ := NewPosition(9)
	whiteToMove, _ := NewPosition(9)
	whiteToMove.SetToMove(White)
	if empty.Hash() == whiteToMove.Hash() {
		t.Error("the side to move does not change the hash")
	}

	// The same stones with White to move, once with the ko point B4 (after
	// Black's capture) and once without.
	withKo := diagram(t, koRows...)
	playGTP(t, withKo, "C4")
	noKo := diagram(t, ".XO..", "X.XO.", ".XO..", ".....", ".....")
	noKo.SetToMove(White)
	if withKo.StoneHash() != noKo.StoneHash() {
		t.Fatal("test positions: the stones differ")
	}
	if withKo.Ko() == NoPoint || noKo.Ko() != NoPoint {
		t.Fatal("test positions: ko points wrong")
	}
	if withKo.Hash() == noKo.Hash() {
		t.Error("the ko point does not change the hash")
	}
	// Once the ko is gone the hashes agree again.
	playGTP(t, withKo, "E1", "E2")
	playGTP(t, noKo, "E1", "E2")
	if withKo.Hash() != noKo.Hash() {
		t.Error("equal positions hash differently")
	}

	passed, _ := NewPosition(9)
	playGTP(t, passed, "pass", "pass")
	if passed.Hash() == empty.Hash() {
		t.Error("two passes (the game is over) do not change the hash")
	}
}

func TestHashTransposition(t *testing.T) {
	a, _ := NewPosition(9)
	b, _ := NewPosition(9)
	playGTP(t, a, "C3", "D4", "E5", "F6")
	playGTP(t, b, "E5", "F6", "C3", "D4")
	if a.Hash() != b.Hash() {
		t.Error("the same position reached in another order hashes differently")
	}
	c, _ := NewPosition(9)
	playGTP(t, c, "D4", "C3", "F6", "E5")
	if a.Hash() == c.Hash() {
		t.Error("colours swapped, same hash")
	}
}

// The incremental blocks, liberties and hash must agree with a fresh
// computation after every move of random games.
func TestIncrementalStateInRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for g := 0; g < 40; g++ {
		size := []int{5, 7, 9, 13}[g%4]
		p, _ := NewPosition(size)
		err := randomGame(p, rng, 0.01, size*size*3, func(Point) {
			checkLiberties(t, &p.Board)
			if fresh := rebuild(t, &p.Board); fresh.StoneHash() != p.StoneHash() {
				t.Fatalf("stone hash %x, rebuilt %x\n%s", p.StoneHash(), fresh.StoneHash(), p)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestCopyIsIndependent(t *testing.T) {
	p, _ := NewPosition(9)
	p.SetKoRule(Black, PositionalSuperko)
	p.SetKoRule(White, PositionalSuperko)
	playGTP(t, p, "C3", "D4", "E5") // history has spare capacity now
	if cap(p.History()) == len(p.History()) {
		playGTP(t, p, "F6")
	}
	orig := snapshot(&p.Board)
	origHash, origLen, origMove := p.Hash(), len(p.History()), p.MoveNumber()
	origHist := slices.Clone(p.History())

	c := p.Copy()
	playGTP(t, c, "A1", "B1", "A2")
	c.SetKoRule(Black, SimpleKo)
	if snapshot(&p.Board) != orig || p.Hash() != origHash || p.MoveNumber() != origMove ||
		!slices.Equal(p.History(), origHist) || p.KoRule(Black) != PositionalSuperko {
		t.Fatalf("moves on a copy changed the original\n%s", p)
	}

	// Both now grow their histories from the same prefix: neither may see
	// the other's positions.
	playGTP(t, p, "H8", "J9")
	afterH8 := p.History()[origLen+1]
	c2 := p.Copy()
	playGTP(t, c, "G7", "G8")
	if p.History()[origLen+1] != afterH8 {
		t.Fatal("a copy's moves overwrote the original's history")
	}
	if c2.History()[origLen+1] != afterH8 || len(c2.History()) != origLen+2 {
		t.Fatal("the second copy's history is wrong")
	}

	// The undo by assignment that search uses: save, play, restore.
	saved := *p
	playGTP(t, p, "A9", "B9")
	*p = saved
	if p.Hash() != saved.Hash() || len(p.History()) != origLen+2 || p.History()[origLen+1] != afterH8 {
		t.Fatal("restoring a saved position did not undo the moves")
	}
	checkLiberties(t, &p.Board)
}
