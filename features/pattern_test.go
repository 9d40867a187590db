package features

import (
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// TestPat3Counts checks the number of canonical 3x3 patterns against
// Burnside's lemma, counted by hand for the dihedral group of the square:
//
// Without liberties every on-board neighbour is empty/own/opp (3 states).
// Centre points: (3^8 + 2*3^2 [rotations by 90] + 3^4 [180] + 2*3^5
// [axis flips] + 2*3^5 [diagonal flips]) / 8 = 7632/8 = 954. Edge points
// (5 neighbours, one flip): (3^5 + 3^3)/2 = 135. Corner points (3
// neighbours, the diagonal flip): (3^3 + 3^2)/2 = 18. Total 1107.
//
// With liberties the orthogonal neighbours have 7 states (empty, own or
// opponent with 1, 2, 3+ liberties), diagonals 3. Centre: (3^4*7^4 +
// 2*3*7 + 3^2*7^2 + 2*7^2*7*3^2 + 2*3^2*3*7^2)/8 = 203784/8 = 25473. Edge
// (W, E, S orthogonal, SW, SE diagonal): (7^3*3^2 + 7*7*3)/2 = 1617.
// Corner (E, S, SE): (7^2*3 + 7*3)/2 = 84. Total 27174.
func TestPat3Counts(t *testing.T) {
	for _, tc := range []struct {
		libs bool
		want int
	}{{false, 1107}, {true, 27174}} {
		if got := len(newPat3Table(tc.libs).codes); got != tc.want {
			t.Errorf("libs=%v: %d canonical 3x3 patterns, want %d", tc.libs, got, tc.want)
		}
	}
}

// TestPat3Orbits checks every code: its eight images share its id, and the
// canonical code of the id is the smallest image.
func TestPat3Orbits(t *testing.T) {
	tab := newPat3Table(true)
	var perms [game.NumSymmetries][]int
	for s := range perms {
		perms[s] = slotPermutation(game.Symmetry(s), pat3Offsets())
	}
	for code := uint32(0); code < pat3Codes; code++ {
		id := tab.ids[code]
		if id < 0 {
			continue
		}
		v := tab.decode(code)
		smallest := code
		for _, perm := range perms {
			var img [8]uint8
			for i, j := range perm {
				img[j] = v[i]
			}
			c := tab.encode(img)
			smallest = min(smallest, c)
			if tab.ids[c] != id {
				t.Fatalf("code %05x has id %d but its image %05x has id %d", code, id, c, tab.ids[c])
			}
		}
		if tab.codes[id] != smallest {
			t.Fatalf("id %d: canonical code %05x, want the smallest image %05x", id, tab.codes[id], smallest)
		}
	}
}

func TestPat3Describe(t *testing.T) {
	e := testExtractor(t, true)
	pos := diagram(t, game.Black,
		". . . . .",
		". X O . .",
		". . . . .",
		". . . . .",
		". . . . .")
	var out Moves
	e.Extract(pos, History{}, &out)
	var pat int32 = -1
	for _, id := range out.Features(out.Index(vertex(t, &pos.Board, "B3"))) {
		if e.Groups()[e.GroupOf(id)].Name == "pat3x3" {
			pat = id
		}
	}
	if pat < 0 {
		t.Fatal("no 3x3 pattern for B3")
	}
	// B3's neighbourhood seen from above: X3 above (3+ liberties), O
	// diagonal; the canonical drawing is one of its symmetric images, so
	// check the contents rather than the layout.
	d := e.Describe(pat)
	count := func(s string, sub byte) int {
		n := 0
		for i := 0; i < len(s); i++ {
			if s[i] == sub {
				n++
			}
		}
		return n
	}
	if count(d, 'X') != 1 || count(d, 'O') != 1 || count(d, '*') != 1 || count(d, '.') != 6 || count(d, '3') != 1 {
		t.Errorf("describe B3 pattern:\n%s\nwant one X3, one O, six empty points and the move", d)
	}
}

func TestDiamondCanonical(t *testing.T) {
	c := newDiamondCanon()
	rng := rand.New(rand.NewPCG(7, 7))
	for range 2000 {
		code := rng.Uint32() & (1<<diamondBits - 1)
		k := c.canonical(code)
		if k > code || c.canonical(k) != k {
			t.Fatalf("canonical(%06x) = %06x: not a smallest fixed point", code, k)
		}
	}
	// Images built on real boards: the diamond at p and at its image in the
	// transformed position have one canonical code.
	for trial := range 20 {
		size := []int{9, 13, 19}[trial%3]
		pos := playGame(t, size, game.Black, randomGame(t, rng, size, size*size/3))
		g := newGeometry(size)
		for s := game.Symmetry(1); s < game.NumSymmetries; s++ {
			tp := pos.Transformed(s)
			for i := 0; i < pos.Cells(); i++ {
				p := game.Point(i)
				if !pos.OnBoard(p) {
					continue
				}
				a := c.canonical(diamondCode(g, &pos.Board, p, pos.ToMove()))
				b := c.canonical(diamondCode(g, &tp.Board, pos.Transform(s, p), tp.ToMove()))
				if a != b {
					t.Fatalf("size %d, symmetry %d, point %s: canonical %06x vs %06x", size, s, pos.GTPString(p), a, b)
				}
			}
		}
	}
}
