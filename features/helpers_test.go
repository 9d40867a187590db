package features

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lifezero/game"
	"lifezero/internal/testdata"
	"lifezero/sgf"
)

// diagram builds a position from rows drawn top (GTP row n) to bottom:
// 'X' black, 'O' white, '.' empty; spaces are ignored.
func diagram(t testing.TB, toMove game.Color, rows ...string) *game.Position {
	t.Helper()
	n := len(rows)
	p, err := game.NewPosition(n)
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	for y, row := range rows {
		row = strings.ReplaceAll(row, " ", "")
		if len(row) != n {
			t.Fatalf("diagram row %d %q has %d points, want %d", y, row, len(row), n)
		}
		for x := 0; x < n; x++ {
			c := game.Empty
			switch row[x] {
			case 'X':
				c = game.Black
			case 'O':
				c = game.White
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
	p.SetToMove(toMove)
	return p
}

// vertex converts a GTP vertex ("D4", "pass"), failing the test on a bad
// one; "" is NoPoint.
func vertex(t testing.TB, b *game.Board, v string) game.Point {
	t.Helper()
	if v == "" {
		return game.NoPoint
	}
	p, err := b.ParseGTP(v)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return p
}

// testExtractor builds an extractor without diamonds.
func testExtractor(t testing.TB, libs bool) *Extractor {
	t.Helper()
	e, err := New(Config{Pattern3Liberties: libs})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// namesAt returns the feature names of move v (GTP vertex or "pass").
func namesAt(t testing.TB, e *Extractor, pos *game.Position, h History, v string) []string {
	t.Helper()
	var out Moves
	e.Extract(pos, h, &out)
	m := vertex(t, &pos.Board, v)
	i := out.Index(m)
	if i < 0 {
		t.Fatalf("%s is not a legal move in\n%s", v, pos)
	}
	var names []string
	for _, id := range out.Features(i) {
		names = append(names, e.Name(id))
	}
	return names
}

// dataDir returns ../shared/data beside the repository root, or skips.
func dataDir(t testing.TB) string { return testdata.Path(t) }

// record is one position of a replayed game with its history and the move
// played from it.
type record struct {
	pos     *game.Position
	history History
	move    game.Point
}

// replay plays the main line of an SGF game and returns a record per move.
// Games that are not 19x19 or carry setup stones are skipped (nil).
func replay(t testing.TB, root *sgf.Node) []record {
	t.Helper()
	if sz, ok := root.Get("SZ"); ok && sz != "19" {
		return nil
	}
	if len(root.GetAll("AB")) > 0 || len(root.GetAll("AW")) > 0 {
		return nil
	}
	pos, err := game.NewPosition(19)
	if err != nil {
		t.Fatal(err)
	}
	var moves []game.Point
	var recs []record
	for _, n := range root.MainLine() {
		for _, prop := range []string{"B", "W"} {
			v, ok := n.Get(prop)
			if !ok {
				continue
			}
			c, _ := game.ParseColor(prop)
			if c != pos.ToMove() {
				return recs // out-of-turn move: stop here
			}
			m, err := pos.ParsePoint(v)
			if err != nil || !pos.IsLegal(m) {
				return recs
			}
			recs = append(recs, record{pos: pos.Copy(), history: HistoryOf(moves), move: m})
			if err := pos.Play(m); err != nil {
				return recs
			}
			moves = append(moves, m)
		}
	}
	return recs
}

// gameRecords replays the games of one tom9d month, up to max records.
func gameRecords(t testing.TB, month string, max int) []record {
	t.Helper()
	path := filepath.Join(dataDir(t), "games", "tom9d", month)
	coll, err := sgf.ParseFile(path)
	if err != nil {
		t.Skipf("cannot read %s: %v", path, err)
	}
	var recs []record
	for _, root := range coll {
		recs = append(recs, replay(t, root)...)
		if len(recs) >= max {
			return recs[:max]
		}
	}
	return recs
}

// hasName reports whether names holds name.
func hasName(names []string, name string) bool { return slices.Contains(names, name) }

// randomGame plays n random legal moves (no passes) from the empty board
// of the given size, Black first unless whiteFirst, and returns them.
func randomGame(t testing.TB, rng *rand.Rand, size, n int) []game.Point {
	t.Helper()
	pos, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	var moves, legal []game.Point
	for len(moves) < n {
		legal = pos.LegalMoves(legal[:0], nil)
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		if err := pos.Play(m); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
	}
	return moves
}

// playGame replays moves from the empty board, with first to move.
func playGame(t testing.TB, size int, first game.Color, moves []game.Point) *game.Position {
	t.Helper()
	pos, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	pos.SetToMove(first)
	for _, m := range moves {
		if err := pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return pos
}
