package recindex

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/sgf"
)

// refGame is a game replayed by the reference scan: the board after every
// move (codes as in the index: 0 empty, 1 black, 2 white) and the moves.
type refGame struct {
	size   int
	boards [][]uint8 // boards[n]: after move n
	moves  []int     // point of move n+1, -1 for a pass
	white  []bool    // move n+1 was white's
	result int       // +1 black won, -1 white won, 0 otherwise
}

// replayAll replays the games dataset with package game, independently of
// the index's builder.
func replayAll(t *testing.T, dir string) []refGame {
	t.Helper()
	games, _, err := datasets.ReadGames(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []refGame
	for _, g := range games {
		size := int(g.BoardSize)
		pos, err := game.NewPosition(size)
		if err != nil {
			t.Fatal(err)
		}
		rg := refGame{size: size, boards: [][]uint8{make([]uint8, size*size)}}
		switch {
		case strings.HasPrefix(g.Result, "B+"):
			rg.result = 1
		case strings.HasPrefix(g.Result, "W+"):
			rg.result = -1
		}
		for _, mv := range strings.Split(g.Moves, ";") {
			x, y, pass, err := sgf.ParsePoint(mv[2:len(mv)-1], size)
			if err != nil {
				t.Fatal(err)
			}
			c := game.Black
			if mv[0] == 'W' {
				c = game.White
			}
			pos.SetToMove(c)
			m := game.Pass
			if !pass {
				m = pos.Point(x, y)
			}
			if err := pos.Play(m); err != nil {
				t.Fatalf("game %s: %v", g.GameID, err)
			}
			b := make([]uint8, size*size)
			for p := range b {
				b[p] = uint8(pos.At(pos.Point(p%size, p/size)))
			}
			rg.boards = append(rg.boards, b)
			rg.white = append(rg.white, c == game.White)
			if pass {
				rg.moves = append(rg.moves, -1)
			} else {
				rg.moves = append(rg.moves, y*size+x)
			}
		}
		out = append(out, rg)
	}
	return out
}

// refForm is the pattern under one symmetry and colour swap, drawn as a
// grid, with each cell's coordinates in the pattern as drawn.
type refForm struct {
	sym     int
	swapped bool
	w, h    int
	cells   []Mask
	origXY  [][2]int
	x, y    int // top-left corner on the board when fixed
}

// refForms maps every cell by the symmetry on a square (the board when the
// pattern is fixed) and shifts the image to its corner.
func refForms(p *Pattern, noSym, noSwap bool) []refForm {
	var out []refForm
	seen := map[string]bool{}
	n := 64
	if p.Fixed {
		n = p.BoardSize
	}
	for swap := 0; swap < 2 && !(swap == 1 && noSwap); swap++ {
		for s := 0; s < 8 && !(s > 0 && noSym); s++ {
			type cell struct{ tx, ty, ox, oy int }
			var cs []cell
			f := refForm{sym: s, swapped: swap == 1, x: n, y: n}
			for y := 0; y < p.H; y++ {
				for x := 0; x < p.W; x++ {
					tx, ty := refApply(s, p.X+x, p.Y+y, n)
					cs = append(cs, cell{tx, ty, x, y})
					f.x, f.y = min(f.x, tx), min(f.y, ty)
					f.w, f.h = max(f.w, tx+1), max(f.h, ty+1)
				}
			}
			f.w, f.h = f.w-f.x, f.h-f.y
			f.cells = make([]Mask, f.w*f.h)
			f.origXY = make([][2]int, f.w*f.h)
			for _, c := range cs {
				m := p.At(c.ox, c.oy)
				if f.swapped {
					m = m&MaskEmpty | (m&MaskBlack)<<1 | (m&MaskWhite)>>1
				}
				i := (c.ty-f.y)*f.w + c.tx - f.x
				f.cells[i], f.origXY[i] = m, [2]int{c.ox, c.oy}
			}
			key := fmt.Sprint(f.w, f.h, f.cells, p.Fixed, f.x, f.y)
			if !p.Fixed {
				key = fmt.Sprint(f.w, f.h, f.cells)
			}
			if !seen[key] {
				seen[key] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// refApply maps (x, y) on an n x n square by symmetry s (as game.Symmetry).
func refApply(s, x, y, n int) (int, int) {
	if s&1 != 0 {
		x = n - 1 - x
	}
	if s&2 != 0 {
		y = n - 1 - y
	}
	if s&4 != 0 {
		x, y = y, x
	}
	return x, y
}

// matches reports whether board (side size) matches form f with its
// top-left corner at (ox, oy).
func (f *refForm) matches(board []uint8, size, ox, oy int) bool {
	for y := 0; y < f.h; y++ {
		for x := 0; x < f.w; x++ {
			if f.cells[y*f.w+x]&(1<<board[(oy+y)*size+ox+x]) == 0 {
				return false
			}
		}
	}
	return true
}

// refSearch scans every position of every game: a hit is a place and form
// where the position after move n matches and the one before does not.
func refSearch(games []refGame, p *Pattern, noSym, noSwap bool) []Hit {
	var hits []Hit
	forms := refForms(p, noSym, noSwap)
	for g, rg := range games {
		for n := 1; n < len(rg.boards); n++ {
			// A place where no point changed matches before and after alike.
			var changed []int
			for q := range rg.boards[n] {
				if rg.boards[n][q] != rg.boards[n-1][q] {
					changed = append(changed, q)
				}
			}
			for _, f := range forms {
				for oy := 0; oy+f.h <= rg.size; oy++ {
					for ox := 0; ox+f.w <= rg.size; ox++ {
						if p.Fixed && (rg.size != p.BoardSize || ox != f.x || oy != f.y) {
							continue
						}
						if !slices.ContainsFunc(changed, func(q int) bool {
							x, y := q%rg.size-ox, q/rg.size-oy
							return x >= 0 && y >= 0 && x < f.w && y < f.h
						}) {
							continue
						}
						if f.matches(rg.boards[n], rg.size, ox, oy) && !f.matches(rg.boards[n-1], rg.size, ox, oy) {
							hits = append(hits, Hit{Game: g, Move: n, X: ox, Y: oy, Sym: f.sym, Swapped: f.swapped,
								Next: refNext(rg, n, &f, ox, oy)})
						}
					}
				}
			}
		}
	}
	sortHits(hits)
	return hits
}

// refNext finds the first move after move n inside the form's rectangle.
func refNext(rg refGame, n int, f *refForm, ox, oy int) Continuation {
	for i := n; i < len(rg.moves); i++ {
		m := rg.moves[i]
		if m < 0 {
			continue
		}
		x, y := m%rg.size-ox, m/rg.size-oy
		if x < 0 || y < 0 || x >= f.w || y >= f.h {
			continue
		}
		xy := f.origXY[y*f.w+x]
		player := Player('X')
		if rg.white[i] != f.swapped {
			player = 'O'
		}
		res := 0
		if rg.result != 0 {
			res = rg.result
			if rg.white[i] {
				res = -res
			}
		}
		return Continuation{Move: i + 1, X: xy[0], Y: xy[1], Player: player, Result: res}
	}
	return Continuation{}
}

func mustDiagram(t *testing.T, s string) *Pattern {
	t.Helper()
	p, err := ParseDiagram([]byte(s))
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return p
}

// TestSearchMatchesScan checks the index's answers, continuations
// included, against a scan of every position of the records.
func TestSearchMatchesScan(t *testing.T) {
	td := buildTestIndex(t)
	x := openTestIndex(t)
	games := replayAll(t, td.games)
	if len(games) != x.Games() {
		t.Fatalf("index has %d games, the dataset %d", x.Games(), len(games))
	}
	type tc struct {
		name          string
		diagram       string
		noSym, noSwap bool
	}
	cases := []tc{
		{"lone stone", "X", false, false},
		{"2x2 diagonal", "X O\n. X", false, false},
		{"3x3 with don't-care", "X O .\n. X ?\n? . O", false, false},
		{"no swap", "X O .\n. X ?\n? . O", false, true},
		{"no symmetry", "X O .\n. X ?\n? . O", true, false},
		{"drawn only", "X O .\n. X ?\n? . O", true, true},
		{"masks x o *", "x * o\n. X O", false, false},
		{"empty required around a stone", ". . .\n. X .\n. . .", false, false},
		{"capture shape", "? O ?\nO . O\n? O ?", false, false},
		{"4x3 rectangle", "X X O ?\n. . O .\n? . . .", false, false},
		{"fixed corner", "at 1 1\n. . . .\n. . . .\n. . X .\n. . . .", false, false},
		{"fixed edge, no swap", "at 3 1\n. . .\n. X O", false, true},
		// Points beyond a key's 5x5 block: in the move's snapshot (up to 5
		// from the anchor) or beyond it (6), and a mask (*) that the
		// snapshot's bits cannot test.
		{"7x7 far corners", "X ? ? ? ? ? ?\n? ? ? ? ? ? ?\n? ? ? ? ? ? ?\n? ? ? . ? ? ?\n? ? ? ? ? ? ?\n? ? ? ? ? ? ?\n? ? ? ? ? ? O", false, false},
		{"6x6 far stone any", "X ? ? ? ? .\n? ? ? ? ? ?\n? ? ? ? ? ?\n? ? ? ? ? ?\n? ? ? ? ? ?\n. ? ? ? ? *", false, false},
		{"7x1 line", "X ? ? ? ? ? X", false, false},
	}
	r := rand.New(rand.NewPCG(7, 0))
	for i := 0; i < 24; i++ {
		p := x.SamplePattern(r, 2, 5)
		cases = append(cases, tc{name: fmt.Sprintf("sampled %d", i), diagram: p.String()})
	}
	for i := 0; i < 8; i++ {
		p := x.SamplePattern(r, 6, 7)
		cases = append(cases, tc{name: fmt.Sprintf("sampled large %d", i), diagram: p.String()})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustDiagram(t, c.diagram)
			want := refSearch(games, p, c.noSym, c.noSwap)
			for _, workers := range []int{1, 2} {
				res, err := x.Search(context.Background(), p, Options{NoSymmetry: c.noSym, NoSwap: c.noSwap, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if res.NumHits != len(want) || res.Games != countGames(want) || !slices.Equal(res.Continuations, continuationStats(want)) {
					t.Errorf("workers %d: %d hits in %d games, the scan finds %d in %d; continuations equal: %v",
						workers, res.NumHits, res.Games, len(want), countGames(want), slices.Equal(res.Continuations, continuationStats(want)))
				}
				if !slices.Equal(res.Hits, want) {
					t.Fatalf("workers %d: %d hits, the scan finds %d\nfirst index-only: %v\nfirst scan-only: %v",
						workers, len(res.Hits), len(want), firstMissing(res.Hits, want), firstMissing(want, res.Hits))
				}
			}
			t.Logf("%d hits", len(want))
		})
	}
}

// firstMissing returns the first hit of a that b lacks.
func firstMissing(a, b []Hit) any {
	for _, h := range a {
		if !slices.Contains(b, h) {
			return h
		}
	}
	return nil
}

func countGames(hits []Hit) int {
	n := 0
	for i, h := range hits {
		if i == 0 || h.Game != hits[i-1].Game {
			n++
		}
	}
	return n
}

// continuationStats groups hits by continuation, the reference for the
// counts a search keeps.
func continuationStats(hits []Hit) []ContStat {
	type key struct {
		x, y   int
		player Player
	}
	idx := map[key]int{}
	var out []ContStat
	for _, h := range hits {
		k := key{h.Next.X, h.Next.Y, h.Next.Player}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, ContStat{X: k.x, Y: k.y, Player: k.player, None: h.Next.Move == 0})
		}
		out[i].Count++
		switch h.Next.Result {
		case 1:
			out[i].Wins++
		case -1:
			out[i].Losses++
		}
	}
	slices.SortFunc(out, compareConts)
	return out
}

// TestSearchLimit: a limit keeps the first hits in order and every count.
func TestSearchLimit(t *testing.T) {
	x := openTestIndex(t)
	p := mustDiagram(t, "X O .\n. X ?")
	all, err := x.Search(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 7, len(all.Hits) + 5} {
		for _, workers := range []int{1, 2} {
			res, err := x.Search(context.Background(), p, Options{Limit: limit, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			want := all.Hits[:min(limit, len(all.Hits))]
			if !slices.Equal(res.Hits, want) || res.NumHits != all.NumHits || res.Games != all.Games || !slices.Equal(res.Continuations, all.Continuations) {
				t.Errorf("limit %d workers %d: %d hits kept of %d, want %d of %d", limit, workers, len(res.Hits), res.NumHits, len(want), all.NumHits)
			}
		}
	}
}

// TestSnapshots: every move's snapshot holds the codes of the points
// around it in the position after it, as an independent replay gives them
// (off the board: codeOff).
func TestSnapshots(t *testing.T) {
	td := buildTestIndex(t)
	x := openTestIndex(t)
	games := replayAll(t, td.games)
	checked := 0
	for g, rg := range games {
		for n, mv := range rg.moves {
			if mv < 0 {
				continue
			}
			ref := int(x.moveBase[g]) + n
			snap := x.snaps[ref*snapWords : (ref+1)*snapWords]
			board := rg.boards[n+1]
			for dy := -snapRadius; dy <= snapRadius; dy++ {
				for dx := -snapRadius; dx <= snapRadius; dx++ {
					px, py := mv%rg.size+dx, mv/rg.size+dy
					want := uint64(codeOff)
					if px >= 0 && py >= 0 && px < rg.size && py < rg.size {
						want = uint64(board[py*rg.size+px])
					}
					b := snapBit(dx, dy)
					if got := snap[b/64] >> (b % 64) & 3; got != want {
						t.Fatalf("game %d move %d: snapshot at (%+d,%+d) holds %d, the replay %d", g, n+1, dx, dy, got, want)
					}
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no move checked")
	}
}

// TestKeyExtensions: every key's extension holds the codes of its view's
// points beyond the key's block in the position after the event's move,
// as an independent replay gives them.
func TestKeyExtensions(t *testing.T) {
	td := buildTestIndex(t)
	x := openTestIndex(t)
	games := replayAll(t, td.games)
	for i, k := range x.keys {
		ref := x.refs[i]
		g := x.gameOf(ref)
		rg := games[g]
		board := rg.boards[int(ref-x.moveBase[g])+1]
		view := int(k>>viewShift) & 7
		p := int(k & pointMask)
		for j := range quadExtCells {
			o := extOffset(view, j)
			px, py := p%rg.size+o.dx, p/rg.size+o.dy
			want := uint64(codeOff)
			if px >= 0 && py >= 0 && px < rg.size && py < rg.size {
				want = uint64(board[py*rg.size+px])
			}
			if got := x.exts[i] >> extShift(j) & 3; got != want {
				t.Fatalf("event %d (game %d, view %d, point %d): extension cell %d holds %d, the replay %d", i, g, view, p, j, got, want)
			}
		}
	}
}
