package game

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// diagram builds a position from rows drawn top (SGF row 0, GTP row n)
// to bottom: 'X' black, 'O' white, '.' empty; spaces are ignored. Black is
// to move, both colours play simple ko.
func diagram(t testing.TB, rows ...string) *Position {
	t.Helper()
	n := len(rows)
	p, err := NewPosition(n)
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	for y, row := range rows {
		row = strings.ReplaceAll(row, " ", "")
		if len(row) != n {
			t.Fatalf("diagram row %d %q has %d points, want %d", y, row, len(row), n)
		}
		for x := 0; x < n; x++ {
			c := Empty
			switch row[x] {
			case 'X':
				c = Black
			case 'O':
				c = White
			case '.':
				continue
			default:
				t.Fatalf("diagram row %d: bad character %q", y, row[x])
			}
			if err := p.Place(c, p.Point(x, y)); err != nil {
				t.Fatalf("diagram: %v", err)
			}
		}
	}
	if err := p.CheckNoDeadBlocks(); err != nil {
		t.Fatalf("diagram: %v", err)
	}
	return p
}

// gtpPoint converts a GTP vertex, failing the test on a bad one.
func gtpPoint(t testing.TB, b *Board, v string) Point {
	t.Helper()
	p, err := b.ParseGTP(v)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return p
}

// gtpSet converts GTP vertices ("E2 F2") into a set.
func gtpSet(t testing.TB, b *Board, vertices string) PointSet {
	t.Helper()
	var s PointSet
	for _, v := range strings.Fields(vertices) {
		s.Add(gtpPoint(t, b, v))
	}
	return s
}

// setString lists a set's points as GTP vertices, for failure messages.
func setString(b *Board, s PointSet) string {
	var parts []string
	s.ForEach(func(p Point) { parts = append(parts, b.GTPString(p)) })
	return "{" + strings.Join(parts, " ") + "}"
}

// playGTP plays moves given as GTP vertices for the side to move in turn.
func playGTP(t testing.TB, p *Position, vertices ...string) {
	t.Helper()
	for _, v := range vertices {
		if err := p.Play(gtpPoint(t, &p.Board, v)); err != nil {
			t.Fatalf("playing %s:\n%v\n%s", v, err, p)
		}
	}
}

// ownEye reports whether every neighbour of the empty point m is a stone
// of colour c or the border: a single-point eye that random players leave
// alone so that games reach captures and kos instead of filling themselves
// in.
func ownEye(b *Board, c Color, m Point) bool {
	for _, q := range b.Neighbors(m) {
		if col := b.At(q); col != c && col != Border {
			return false
		}
	}
	return true
}

// randomMove returns a random legal move of the side to move that does not
// fill one of its own single-point eyes, or Pass when there is none. cand
// is scratch space.
func randomMove(p *Position, rng *rand.Rand, cand []Point) Point {
	cand = cand[:0]
	for i := 0; i < p.Cells(); i++ {
		if p.At(Point(i)) == Empty {
			cand = append(cand, Point(i))
		}
	}
	c := p.ToMove()
	for len(cand) > 0 {
		k := rng.IntN(len(cand))
		m := cand[k]
		if !ownEye(&p.Board, c, m) && p.IsLegal(m) {
			return m
		}
		cand[k] = cand[len(cand)-1]
		cand = cand[:len(cand)-1]
	}
	return Pass
}

// randomGame plays a random game from p (see randomMove; with probability
// passProb a player passes anyway) until two passes or maxMoves moves.
// visit, when not nil, is called after every move. An error means the
// position refused a move that it had itself called legal.
func randomGame(p *Position, rng *rand.Rand, passProb float64, maxMoves int, visit func(m Point)) error {
	cand := make([]Point, 0, MaxCells)
	for n := 0; n < maxMoves && p.Passes() < 2; n++ {
		m := Pass
		if rng.Float64() >= passProb {
			m = randomMove(p, rng, cand)
		}
		if err := p.Play(m); err != nil {
			return fmt.Errorf("random game, move %d: %w", n+1, err)
		}
		if visit != nil {
			visit(m)
		}
	}
	return nil
}

// randomPositions returns n positions taken from random games on a board
// of the given size: each game is cut at a random length (up to its end at
// two passes), so openings, middle games and filled-in ends all appear.
func randomPositions(t testing.TB, rng *rand.Rand, size, n int) []*Position {
	t.Helper()
	out := make([]*Position, 0, n)
	for len(out) < n {
		p, err := NewPosition(size)
		if err != nil {
			t.Fatal(err)
		}
		stop := rng.IntN(size * size * 3)
		if err := randomGame(p, rng, 0.005, stop, nil); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}
