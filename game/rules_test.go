package game

import "testing"

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
