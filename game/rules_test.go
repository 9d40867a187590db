package game

import (
	"strings"
	"testing"
)

// boardSnapshot is what a move may change, for comparing before and after.
type boardSnapshot struct {
	stones string
	hash   uint64
	ko     Point
}

func snapshot(b *Board) boardSnapshot {
	var s []byte
	for i := 0; i < b.Cells(); i++ {
		s = append(s, b.At(Point(i)).String()...)
	}
	return boardSnapshot{string(s), b.StoneHash(), b.Ko()}
}

func TestCaptures(t *testing.T) {
	tests := []struct {
		name    string
		rows    []string
		color   Color
		move    string
		removed string // GTP vertices that must become empty
	}{
		{"single stone in the middle", []string{
			".....",
			"..X..",
			".XOX.",
			".....",
			".....",
		}, Black, "C2", "C3"},
		{"corner stone", []string{
			".....",
			".....",
			".....",
			".....",
			"OX...",
		}, Black, "A2", "A1"},
		{"edge stone", []string{
			".....",
			".....",
			".....",
			".....",
			".XOX.",
		}, Black, "C2", "C1"},
		{"block keeps a second liberty", []string{
			".....",
			".....",
			".....",
			"OX...",
			"OO...",
		}, Black, "A3", ""},
		{"corner block of three, last liberty", []string{
			".....",
			".....",
			"X....",
			"OX...",
			"OO.X.",
		}, Black, "C1", "A1 B1 A2"},
		{"two blocks sharing a last liberty", []string{
			".X.X.",
			"XO.OX",
			".X.X.",
			".....",
			".....",
		}, Black, "C4", "B4 D4"},
		{"white captures a bent edge block", []string{
			".....",
			"OOXO.",
			"XXXO.",
			"OOOO.",
			".....",
		}, White, "C5", "C4 A3 B3 C3"},
		{"filling the inner last liberty of a ring", []string{
			".....",
			".XXX.",
			"XOOOX",
			"XO.OX",
			"XOOOX",
		}, Black, "C2", "B3 C3 D3 B2 D2 B1 C1 D1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := diagram(t, tt.rows...)
			m := gtpPoint(t, &p.Board, tt.move)
			want := gtpSet(t, &p.Board, tt.removed)
			before := p.Board
			n, err := p.Board.Play(tt.color, m)
			if err != nil {
				t.Fatalf("Play: %v", err)
			}
			if n != want.Len() {
				t.Errorf("captured %d stones, want %d", n, want.Len())
			}
			if got := p.Captured(tt.color.Opponent()) - before.Captured(tt.color.Opponent()); got != want.Len() {
				t.Errorf("Captured count rose by %d, want %d", got, want.Len())
			}
			for i := 0; i < p.Cells(); i++ {
				q := Point(i)
				wantColor := before.At(q)
				switch {
				case q == m:
					wantColor = tt.color
				case want.Has(q):
					wantColor = Empty
				}
				if p.At(q) != wantColor {
					t.Errorf("%s is %v, want %v\n%s", p.GTPString(q), p.At(q), wantColor, p)
				}
			}
			// The incremental hash must equal one computed from scratch.
			fresh := rebuild(t, &p.Board)
			if fresh.StoneHash() != p.StoneHash() {
				t.Errorf("stone hash %x after the move, %x rebuilt from the stones", p.StoneHash(), fresh.StoneHash())
			}
			checkLiberties(t, &p.Board)
		})
	}
}

// rebuild places the stones of b on a fresh board.
func rebuild(t testing.TB, b *Board) *Board {
	t.Helper()
	nb, err := NewBoard(b.Size())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < b.Cells(); i++ {
		if c := b.At(Point(i)); c == Black || c == White {
			if err := nb.Place(c, Point(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return nb
}

// checkLiberties compares every block's liberties and stones with a flood
// fill from scratch.
func checkLiberties(t testing.TB, b *Board) {
	t.Helper()
	for i := 0; i < b.Cells(); i++ {
		p := Point(i)
		c := b.At(p)
		if c != Black && c != White {
			continue
		}
		var stones, libs PointSet
		stack := []Point{p}
		stones.Add(p)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, n := range b.Neighbors(q) {
				switch {
				case b.At(n) == Empty:
					libs.Add(n)
				case b.At(n) == c && !stones.Has(n):
					stones.Add(n)
					stack = append(stack, n)
				}
			}
		}
		if got := b.BlockSet(p); got != stones {
			t.Fatalf("block at %s: %s, flood fill finds %s", b.GTPString(p), setString(b, got), setString(b, stones))
		}
		if got := b.Liberties(p); got != libs {
			t.Fatalf("liberties of %s: %s, flood fill finds %s", b.GTPString(p), setString(b, got), setString(b, libs))
		}
		if libs.Empty() {
			t.Fatalf("block at %s has no liberty", b.GTPString(p))
		}
		if got, want := b.InAtari(p), libs.Len() == 1; got != want {
			t.Fatalf("InAtari(%s) = %v with %d liberties", b.GTPString(p), got, libs.Len())
		}
		lib, atari := b.AtariLiberty(p)
		if atari != (libs.Len() == 1) || (atari && !libs.Has(lib)) || (!atari && lib != NoPoint) {
			t.Fatalf("AtariLiberty(%s) = %s, %v with liberties %s", b.GTPString(p), b.GTPString(lib), atari, setString(b, libs))
		}
	}
	for i := 0; i < b.Cells(); i++ {
		if c := b.At(Point(i)); c != Black && c != White {
			if lib, atari := b.AtariLiberty(Point(i)); atari || lib != NoPoint {
				t.Fatalf("AtariLiberty of %d, holding no stone: %d, %v", i, lib, atari)
			}
		}
		checkSelfAtari(t, b, Point(i))
	}
}

// checkSelfAtari compares SelfAtari at m, for both colours' legal moves,
// with the move played on a copy of the board.
func checkSelfAtari(t testing.TB, b *Board, m Point) {
	t.Helper()
	for _, c := range []Color{Black, White} {
		if b.At(m) != Empty || !b.Legal(c, m) {
			continue
		}
		after := *b
		captured, err := after.Play(c, m)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := b.SelfAtari(c, m), captured == 0 && after.LibertyCount(m) == 1; got != want {
			t.Fatalf("SelfAtari(%v, %s) = %v, playing it leaves %d liberties capturing %d", c, b.GTPString(m), got, after.LibertyCount(m), captured)
		}
	}
}

func TestSuicide(t *testing.T) {
	tests := []struct {
		name     string
		rows     []string
		color    Color
		move     string
		legal    bool
		captures int
	}{
		{"single stone into a corner", []string{
			".....",
			".....",
			".....",
			"O....",
			".O...",
		}, Black, "A1", false, 0},
		{"filling the last liberty of its own block", []string{
			".....",
			"OOO..",
			"XXO..",
			"X.O..",
			"XXO..",
		}, Black, "B2", false, 0},
		{"filling one of two liberties is fine", []string{
			".....",
			"OOO..",
			"X.O..",
			"X.O..",
			"XXO..",
		}, Black, "B2", true, 0},
		{"suicide-looking move that captures", []string{
			".....",
			".....",
			"X....",
			"OX...",
			".O...",
		}, Black, "A1", true, 1},
		{"white suicide on the edge", []string{
			".....",
			".....",
			".....",
			".....",
			"X.X..",
		}, White, "B1", true, 0}, // B2 is empty: not suicide
		{"white suicide on the edge, closed", []string{
			".....",
			".....",
			".....",
			".X...",
			"X.X..",
		}, White, "B1", false, 0},
		{"eye of a living group is not suicide for its owner", []string{
			".....",
			".....",
			"XXX..",
			"X.X..",
			"XXX..",
		}, Black, "B2", true, 0},
		{"opponent may not play in a real eye", []string{
			".....",
			".....",
			"XXX..",
			"X.X..",
			"XXX..",
		}, White, "B2", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := diagram(t, tt.rows...)
			m := gtpPoint(t, &p.Board, tt.move)
			if got := p.Board.Legal(tt.color, m); got != tt.legal {
				t.Fatalf("Legal(%v, %s) = %v, want %v\n%s", tt.color, tt.move, got, tt.legal, p)
			}
			p.SetToMove(tt.color)
			if got := p.IsLegal(m); got != tt.legal {
				t.Fatalf("IsLegal(%s) = %v, want %v", tt.move, got, tt.legal)
			}
			before := snapshot(&p.Board)
			n, err := p.Board.Play(tt.color, m)
			if !tt.legal {
				if err == nil {
					t.Fatalf("suicide %v %s was played", tt.color, tt.move)
				}
				if after := snapshot(&p.Board); after != before {
					t.Fatalf("a refused move changed the board")
				}
				if err := p.Play(m); err == nil {
					t.Fatalf("Position.Play accepted suicide %s", tt.move)
				}
				return
			}
			if err != nil || n != tt.captures {
				t.Fatalf("Play = %d, %v; want %d captures", n, err, tt.captures)
			}
			checkLiberties(t, &p.Board)
		})
	}
}

func TestCoordinates(t *testing.T) {
	for size := MinSize; size <= MaxSize; size++ {
		b, _ := NewBoard(size)
		all := b.AllPoints()
		if all.Len() != size*size {
			t.Fatalf("%dx%d: %d points on the board", size, size, all.Len())
		}
		all.ForEach(func(p Point) {
			for _, v := range []string{b.GTPString(p), strings.ToLower(b.GTPString(p))} {
				if q, err := b.ParseGTP(v); err != nil || q != p {
					t.Fatalf("%dx%d: GTP %q parses to %d, %v; want %d", size, size, v, q, err, p)
				}
			}
			if q, err := b.ParsePoint(b.PointString(p)); err != nil || q != p {
				t.Fatalf("%dx%d: SGF %q parses to %d, %v", size, size, b.PointString(p), q, err)
			}
		})
		if v := b.GTPString(b.Point(0, size-1)); v != "A1" {
			t.Errorf("%dx%d: bottom-left corner is %s, want A1", size, size, v)
		}
		if v := b.PointString(b.Point(0, 0)); v != "aa" {
			t.Errorf("%dx%d: top-left corner is %s in SGF, want aa", size, size, v)
		}
	}
	b, _ := NewBoard(19)
	if v := b.GTPString(b.Point(8, 0)); v != "J19" {
		t.Errorf("column 9 is %s, want J19 (GTP skips I)", v)
	}
	for p, want := range map[Point]string{Pass: "pass", NoPoint: "none", 0: "off-board(0)"} {
		if got := b.GTPString(p); got != want {
			t.Errorf("GTPString(%d) = %q, want %q", p, got, want)
		}
		if got := b.PointString(p); got != want {
			t.Errorf("PointString(%d) = %q, want %q", p, got, want)
		}
	}
	for _, v := range []string{"pass", "PASS", "Pass"} {
		if p, err := b.ParseGTP(v); err != nil || p != Pass {
			t.Errorf("ParseGTP(%q) = %d, %v", v, p, err)
		}
	}
	for _, v := range []string{"", "D", "I5", "A0", "A20", "U1", "D4x", "D 4", "D+4", "pa12", "4D"} {
		if p, err := b.ParseGTP(v); err == nil {
			t.Errorf("ParseGTP(%q) = %d, want an error", v, p)
		}
	}
}

// Block queries on points without a stone answer "nothing" instead of
// following stale block links.
func TestBlockQueriesOnEmptyPoints(t *testing.T) {
	p := diagram(t, ".....", ".XO..", ".....", ".....", ".....")
	playGTP(t, p, "C5", "A1", "D4", "A2", "C3") // captures the white stone at C4
	for _, v := range []string{"C4", "E1", "A5"} {
		q := gtpPoint(t, &p.Board, v)
		if p.At(q) != Empty {
			t.Fatalf("test position: %s is not empty\n%s", v, p)
		}
		n := 0
		p.BlockStones(q, func(Point) { n++ })
		if n != 0 || p.BlockSize(q) != 0 || p.LibertyCount(q) != 0 {
			t.Errorf("empty %s: %d block stones, size %d, %d liberties", v, n, p.BlockSize(q), p.LibertyCount(q))
		}
	}
}
