package game

import (
	"math/rand/v2"
	"testing"
)

// Figure 1 of the RZS paper (papers/001, "An example for Go") shows a 7x7
// kill-all corner. Its diagrams are not in the text, so paperFig1 is a
// reconstruction from what the text says about them:
//
//   - In p_a White is not UCA, and G1 is illegal for Black (suicide): G1 is
//     a white eye.
//   - If Black plays elsewhere (D1 in p'_b), White E2 reaches UCA (p_b);
//     the must-play region z_b then holds E2, F2 and G1.
//   - If Black plays E2 (p'_c), White D1 reaches UCA (p_c), with E2 inside
//     z_c.
//   - If Black plays F2 (p'_d), White reaches UCA again (p_d).
//
// The reconstruction: White has the corner blocks {E3 F3 G3 G2} and
// {E1 F1} around the eye G1, and a lone stone D2. E2 and F2 are empty.
// White E2 joins all three into one block with eyes F2 and G1; White D1
// joins D2 to E1 F1, and with Black on E2 the region {E2 F2} has F2 as its
// only empty point, a liberty of both white blocks, so both blocks have two
// vital regions ({E2 F2} and {G1}). After Black F2, White E2 captures the
// F2 stone and is back to the p_b shape (the text does not name White's
// reply in (d); White D1 also works and is checked as well). Black's
// stones wall the corner off as in a kill-all game.
var paperFig1 = []string{
	".......",
	".......",
	".......",
	"...XXXX",
	"...XOOO",
	"..XO..O",
	"..X.OO.",
}

func TestBensonPaperFigure1(t *testing.T) {
	pa := diagram(t, paperFig1...)
	if u := pa.Benson(White); !u.Alive.Empty() {
		t.Fatalf("p_a: White is already UCA: %s", setString(&pa.Board, u.Alive))
	}
	if pa.IsLegal(gtpPoint(t, &pa.Board, "G1")) {
		t.Fatal("p_a: Black G1 is legal, the paper says it is suicide")
	}
	tests := []struct {
		name         string
		black, white string
		alive, vital string
	}{
		{"p_b: Black D1, White E2", "D1", "E2", "D2 E2 E1 F1 E3 F3 G3 G2", "F2 G1"},
		{"p_c: Black E2, White D1", "E2", "D1", "D2 D1 E1 F1 E3 F3 G3 G2", "E2 F2 G1"},
		{"p_d: Black F2, White E2", "F2", "E2", "D2 E2 E1 F1 E3 F3 G3 G2", "F2 G1"},
		{"p_d': Black F2, White D1", "F2", "D1", "D2 D1 E1 F1 E3 F3 G3 G2", "E2 F2 G1"},
	}
	var za PointSet
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pa.Copy()
			playGTP(t, p, tt.black)
			if u := p.Benson(White); !u.Alive.Empty() {
				t.Fatalf("White is UCA before its reply")
			}
			playGTP(t, p, tt.white)
			u := p.Benson(White)
			wantAlive, wantVital := gtpSet(t, &p.Board, tt.alive), gtpSet(t, &p.Board, tt.vital)
			if u.Alive != wantAlive || u.Vital != wantVital {
				t.Fatalf("Benson(White): alive %s vital %s, want alive %s vital %s\n%s",
					setString(&p.Board, u.Alive), setString(&p.Board, u.Vital),
					setString(&p.Board, wantAlive), setString(&p.Board, wantVital), p)
			}
			za = za.Union(u.Area())
		})
	}
	// The paper's argument that p_a is a win for White: every legal Black
	// move outside z_b is answered by E2 with UCA (z_b is the zone of p_b),
	// and E2 and F2 were checked above; G1 is illegal.
	pb := pa.Copy()
	playGTP(t, pb, "D1", "E2")
	ub := pb.Benson(White)
	zb := ub.Area()
	for _, m := range pa.LegalMoves(nil, nil) {
		if zb.Has(m) {
			if v := pa.GTPString(m); v != "E2" && v != "F2" {
				t.Errorf("unexpected Black move %s inside z_b", v)
			}
			continue
		}
		p := pa.Copy()
		if err := p.Play(m); err != nil {
			t.Fatal(err)
		}
		playGTP(t, p, "E2")
		if u := p.Benson(White); u.Alive.Empty() {
			t.Errorf("after Black %s White E2 is not UCA\n%s", p.GTPString(m), p)
		}
	}
	want := gtpSet(t, &pa.Board, "D1 D2 E1 E2 E3 F1 F2 F3 G1 G2 G3")
	if za != want {
		t.Errorf("z_a = %s, want %s", setString(&pa.Board, za), setString(&pa.Board, want))
	}
}

func TestBensonPositions(t *testing.T) {
	tests := []struct {
		name  string
		rows  []string
		color Color
		alive string // GTP vertices of the alive stones
		vital string
	}{
		{"two real eyes", []string{
			".......",
			".......",
			".......",
			"XXXXXX.",
			"OOOOOX.",
			"O.O.OX.",
			"OOOOOX.",
		}, White, "A3 B3 C3 D3 E3 A2 C2 E2 A1 B1 C1 D1 E1", "B2 D2"},
		{"one eye", []string{
			".......",
			".......",
			".......",
			"XXXXXX.",
			"OOOOOX.",
			"O.OOOX.",
			"OOOOOX.",
		}, White, "", ""},
		{"false eye", []string{
			".......",
			".......",
			".......",
			"XXXXXX.",
			"OOOOXX.",
			"O.O.OX.",
			"OOOXOX.",
		}, White, "", ""},
		{"two blocks sharing two regions", []string{
			".......",
			".......",
			".......",
			"XXXXXX.",
			"OOOOXX.",
			"OOO.OX.",
			"OO.OOX.",
		}, White, "A3 B3 C3 D3 A2 B2 C2 A1 B1 D1 E1 E2", "C1 D2"},
		{"eye region holding an opponent stone, every empty point a liberty", []string{
			".......",
			".......",
			".......",
			"XXXXXX.",
			"OOOOOX.",
			"O.O.OX.",
			"OOOXOX.",
		}, White, "A3 B3 C3 D3 E3 A2 C2 E2 A1 B1 C1 E1", "B2 D2 D1"},
		{"big eye region whose middle is not a liberty", []string{
			".......",
			".......",
			"XXXXXXX",
			"OOOOOOO",
			"...OOOO",
			"...O.OO",
			"...OOOO",
		}, White, "", ""},
		{"seki: inner groups are not UCA, the outer wall is", []string{
			".......",
			".......",
			"XXXXXXX",
			"OOOX.X.",
			".XOXXXX",
			"XXOX.X.",
			".OOXXXX",
		}, Black, "A5 B5 C5 D5 E5 F5 G5 D4 F4 D3 E3 F3 G3 D2 F2 D1 E1 F1 G1", "E4 G4 E2 G2"},
		{"seki, white side", []string{
			".......",
			".......",
			"XXXXXXX",
			"OOOX.X.",
			".XOXXXX",
			"XXOX.X.",
			".OOXXXX",
		}, White, "", ""},
		{"empty board, black", []string{".....", ".....", ".....", ".....", "....."}, Black, "", ""},
		{"empty board, white", []string{".....", ".....", ".....", ".....", "....."}, White, "", ""},
		{"lone stone", []string{".....", ".....", "..O..", ".....", "....."}, White, "", ""},
		{"two-eyed group in the corner with a dead opponent stone outside", []string{
			".O.O.",
			"OOOOO",
			"XXXXX",
			".X.X.",
			".....",
		}, White, "B5 D5 A4 B4 C4 D4 E4", "A5 C5 E5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := diagram(t, tt.rows...)
			u := p.Benson(tt.color)
			wantAlive, wantVital := gtpSet(t, &p.Board, tt.alive), gtpSet(t, &p.Board, tt.vital)
			if u.Alive != wantAlive || u.Vital != wantVital {
				t.Fatalf("Benson(%v): alive %s vital %s, want alive %s vital %s\n%s", tt.color,
					setString(&p.Board, u.Alive), setString(&p.Board, u.Vital),
					setString(&p.Board, wantAlive), setString(&p.Board, wantVital), p)
			}
			if area := u.Area(); area != wantAlive.Union(wantVital) {
				t.Fatalf("Area() = %s", setString(&p.Board, area))
			}
		})
	}
}

// TestBensonAliveCannotBeCaptured checks Benson's claim directly: the
// opponent plays random legal moves until it has none left (at most 300),
// half of them on the alive
// blocks' liberties and vital regions, while the owner only passes, and no
// stone of an alive block is ever captured; the blocks also stay UCA
// throughout. The positions are taken from random 7x7 and 9x9 games at
// the first move where a colour has UCA blocks and at the end of the game.
// Random games reach UCA only on crowded boards, where the attacker soon
// runs out of moves, so each position is also attacked after stripping it
// to the UCA blocks and their vital regions (Benson's result is local, so
// the stripped blocks must still be UCA, and now the attacker has the whole
// rest of the board to play on).
func TestBensonAliveCannotBeCaptured(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	positions := 300
	if testing.Short() {
		positions = 60
	}
	tested, attacks := 0, 0
	for tested < positions {
		size := []int{7, 9}[rng.IntN(2)]
		p, _ := NewPosition(size)
		var found [3]bool
		var starts []*Position
		var owners []Color
		err := randomGame(p, rng, 0.005, 3*size*size, func(Point) {
			for _, c := range []Color{Black, White} {
				if u := p.Benson(c); !found[c] && !u.Alive.Empty() {
					found[c] = true
					starts, owners = append(starts, p.Copy()), append(owners, c)
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		starts, owners = append(starts, p, p), append(owners, Black, White)
		for i, start := range starts {
			u := start.Benson(owners[i])
			if u.Alive.Empty() {
				continue
			}
			tested++
			attacks += attackAlive(t, start.Copy(), owners[i], u, rng, 300)
			stripped := stripToArea(t, start, u.Area())
			if v := stripped.Benson(owners[i]); v.Alive != u.Alive || v.Vital != u.Vital {
				t.Fatalf("the UCA blocks and vital regions changed when the rest of the board was cleared\n%s\n%s",
					start, stripped)
			}
			// The attacker can play at most about as many moves as there are
			// empty points (the owner never captures), so attack repeatedly.
			for range 6 {
				attacks += attackAlive(t, stripped.Copy(), owners[i], u, rng, 300)
			}
		}
	}
	t.Logf("%d positions, %d attacking moves", tested, attacks)
	if attacks < 100*tested {
		t.Errorf("only %d attacking moves over %d positions: the check proves little", attacks, tested)
	}
}

// stripToArea returns the position holding only the stones of p inside
// area.
func stripToArea(t *testing.T, p *Position, area PointSet) *Position {
	t.Helper()
	q, err := NewPosition(p.Size())
	if err != nil {
		t.Fatal(err)
	}
	area.ForEach(func(pt Point) {
		if c := p.At(pt); c == Black || c == White {
			if err := q.Place(c, pt); err != nil {
				t.Fatal(err)
			}
		}
	})
	if err := q.CheckNoDeadBlocks(); err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	return q
}

// attackAlive lets the opponent of owner play up to moves random legal
// moves (owner passing) and fails if a stone of u.Alive is captured. It
// returns how many moves the opponent played.
func attackAlive(t *testing.T, p *Position, owner Color, u UCA, rng *rand.Rand, moves int) int {
	t.Helper()
	start := p.String()
	attacker := owner.Opponent()
	p.SetToMove(attacker)
	target := u.Vital
	u.Alive.ForEach(func(q Point) { target = target.Union(p.Liberties(q)) })
	cand := make([]Point, 0, MaxCells)
	for i := 0; i < moves; i++ {
		m := Pass
		if rng.IntN(2) == 0 {
			cand = cand[:0]
			target.ForEach(func(q Point) {
				if p.At(q) == Empty && p.IsLegal(q) {
					cand = append(cand, q)
				}
			})
			if len(cand) > 0 {
				m = cand[rng.IntN(len(cand))]
			}
		}
		if m == Pass {
			legal := p.LegalMoves(cand[:0], nil)
			if len(legal) == 0 {
				return i // the attacker has filled every point it can
			}
			m = legal[rng.IntN(len(legal))]
		}
		if err := p.Play(m); err != nil {
			t.Fatal(err)
		}
		lost := false
		u.Alive.ForEach(func(q Point) { lost = lost || p.At(q) != owner })
		if lost {
			t.Fatalf("%v captured an alive %v block with %s after %d moves\nstart:\n%s\nnow:\n%s",
				attacker, owner, p.GTPString(m), i+1, start, p)
		}
		if now := p.Benson(owner); !u.Alive.SubsetOf(&now.Alive) {
			t.Fatalf("after %v %s the alive %v blocks are no longer UCA\nstart:\n%s\nnow:\n%s",
				attacker, p.GTPString(m), owner, start, p)
		}
		if err := p.Play(Pass); err != nil {
			t.Fatal(err)
		}
	}
	return moves
}
