package gtpengine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/game"
)

// board builds a position from rows of X (Black), O (White) and '.', top
// row first, with toMove to play.
func board(t *testing.T, toMove game.Color, rows ...string) *game.Position {
	t.Helper()
	pos, err := game.NewPosition(len(rows))
	if err != nil {
		t.Fatal(err)
	}
	for y, row := range rows {
		row = strings.ReplaceAll(row, " ", "")
		for x, c := range row {
			var col game.Color
			switch c {
			case 'X':
				col = game.Black
			case 'O':
				col = game.White
			default:
				continue
			}
			if err := pos.Place(col, pos.Point(x, y)); err != nil {
				t.Fatal(err)
			}
		}
	}
	pos.SetToMove(toMove)
	return pos
}

func TestSensibleMoves(t *testing.T) {
	// Black's block lives unconditionally with its eyes at A5 and C5;
	// every empty point of rows 1-2 is a sensible move.
	pos := board(t, game.Black,
		". X . X O",
		"X X X X O",
		"O O O O O",
		". . . . .",
		". . . . .",
	)
	got := SensibleMoves(nil, pos)
	var names []string
	for _, m := range got {
		names = append(names, pos.GTPString(m))
	}
	// A5 and C5 are Black's eyes (and its vital regions): never played.
	for _, eye := range []string{"A5", "C5"} {
		for _, n := range names {
			if n == eye {
				t.Errorf("sensible moves %v include Black's eye %s", names, eye)
			}
		}
	}
	if len(got) != 10 {
		t.Errorf("sensible moves %v: want the 10 empty points of rows 1-2", names)
	}
}

func TestIsOwnEyeAndSelfAtari(t *testing.T) {
	pos := board(t, game.Black,
		". X . . .",
		"X . X . .",
		"O X O . .",
		". O . . .",
		"O . . . .",
	)
	for _, tt := range []struct {
		vertex string
		c      game.Color
		eye    bool
		atari  bool
	}{
		{"A5", game.Black, true, false},  // corner eye
		{"B4", game.Black, false, false}, // false eye: two white diagonals
		{"C5", game.Black, false, false}, // D5 empty: not an eye
		{"A2", game.White, false, false}, // on the edge with Black's B3 diagonal: false eye
		{"B1", game.Black, false, true},  // lone black stone between white stones: self-atari
		{"D5", game.Black, false, false},
	} {
		p, err := pos.ParseGTP(tt.vertex)
		if err != nil {
			t.Fatal(err)
		}
		if got := pos.OwnEye(tt.c, p); got != tt.eye {
			t.Errorf("OwnEye(%v, %s) = %v, want %v", tt.c, tt.vertex, got, tt.eye)
		}
		if got := pos.SelfAtari(tt.c, p); got != tt.atari {
			t.Errorf("SelfAtari(%v, %s) = %v, want %v", tt.c, tt.vertex, got, tt.atari)
		}
	}
}

func TestAreaScoreAndLost(t *testing.T) {
	alive := []string{
		". X . X O . .",
		"X X X X O . .",
		"O O O O O . .",
		". . . . . . .",
		". . . . . . .",
		". . . . . . .",
		". . . . . . .",
	}
	for _, tt := range []struct {
		name  string
		rows  []string
		komi  float64
		score float64
	}{
		{"empty", []string{".....", ".....", ".....", ".....", "....."}, 7.5, -7.5},
		{"one stone", []string{".....", ".....", "..X..", ".....", "....."}, 0.5, 24.5},
		{"dame", []string{"X.O..", "X.O..", "X.O..", "X.O..", "X.O.."}, 0, -10},
		{"alive", alive, 0, 8 - 41},
	} {
		pos := board(t, game.Black, tt.rows...)
		if got := AreaScore(pos, tt.komi); got != tt.score {
			t.Errorf("%s: AreaScore = %v, want %v", tt.name, got, tt.score)
		}
	}
	// Black's corner is unconditionally alive (6 stones, 2 eye points):
	// White still has 41 points to win with.
	pos := board(t, game.White, alive...)
	if Lost(pos, game.White, 7.5) {
		t.Error("White is not lost with 41 points open")
	}
	big := board(t, game.Black,
		"O . O . O",
		"O O O O O",
		"O . O . O",
		"O O O O O",
		". . . . .",
	)
	if !Lost(big, game.Black, 0) {
		t.Error("Black is lost against 20 unconditionally alive points on 5x5")
	}
	if Lost(big, game.White, 0) {
		t.Error("White is not lost")
	}
}

func TestHandicapPoints(t *testing.T) {
	for _, tt := range []struct {
		size, n int
		want    string
	}{
		{19, 2, "D4 Q16"},
		{19, 3, "D4 Q16 D16"},
		{19, 4, "D4 Q16 D16 Q4"},
		{19, 5, "D4 Q16 D16 Q4 K10"},
		{19, 6, "D4 Q16 D16 Q4 D10 Q10"},
		{19, 7, "D4 Q16 D16 Q4 D10 Q10 K10"},
		{19, 8, "D4 Q16 D16 Q4 D10 Q10 K4 K16"},
		{19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"},
		{9, 2, "C3 G7"},
		{9, 9, "C3 G7 C7 G3 C5 G5 E3 E7 E5"},
		{13, 4, "D4 K10 D10 K4"},
		{8, 4, "C3 F6 C6 F3"},
		{8, 5, ""},
		{7, 4, "C3 E5 C5 E3"},
		{7, 5, ""},
		{5, 2, ""},
		{9, 1, ""},
		{9, 10, ""},
	} {
		b, err := game.NewBoard(tt.size)
		if err != nil {
			t.Fatal(err)
		}
		pts, err := HandicapPoints(b, tt.n)
		var got []string
		for _, p := range pts {
			got = append(got, b.GTPString(p))
		}
		if s := strings.Join(got, " "); s != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("%dx%d, %d stones: %q (%v), want %q", tt.size, tt.size, tt.n, s, err, tt.want)
		}
	}
}

// TestGenmoveLegal plays each player against itself and checks every
// generated move against the rules: legal on a referee board of its own,
// never a repeated whole-board position, never an own eye filled. Games
// end by passes or a resignation within the move cap.
func TestGenmoveLegal(t *testing.T) {
	bt, err := LoadFeaturePlayer(writeBTModel(t, 11), "")
	if err != nil {
		t.Fatal(err)
	}
	policy, err := NewNetPlayer(netWeights(t, 7))
	if err != nil {
		t.Fatal(err)
	}
	search, err := NewMCTSPlayer(netWeights(t, 7), 24)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		player Player
		size   int
		games  int
	}{{bt, 9, 3}, {policy, 7, 2}, {search, 7, 1}} {
		e, err := New(tt.player, Options{Size: tt.size, Komi: 7.5, Seed: 9, SampleMoves: 6})
		if err != nil {
			t.Fatal(err)
		}
		for g := range tt.games {
			moves, end := playOut(t, e, tt.size)
			t.Logf("%s %dx%d game %d: %d moves, %s", tt.player.Name(), tt.size, tt.size, g+1, moves, end)
			okText(t, e, "clear_board")
		}
	}
}

// playOut plays one game of e against itself, checking every move.
func playOut(t *testing.T, e *Engine, size int) (int, string) {
	t.Helper()
	ref, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{ref.StoneHash(): true}
	for n := 0; n < 4*size*size; n++ {
		c := ref.ToMove()
		reply := okText(t, e, "genmove "+c.String())
		if reply == "resign" {
			if !Lost(ref, c, 7.5) {
				t.Fatalf("move %d: %v resigned a game not lost", n+1, c)
			}
			return n, "resign"
		}
		m, err := ref.ParseGTP(reply)
		if err != nil {
			t.Fatalf("move %d: genmove %v = %q: %v", n+1, c, reply, err)
		}
		if m != game.Pass && ref.OwnEye(c, m) {
			t.Fatalf("move %d: %v filled its own eye at %s\n%s", n+1, c, reply, ref)
		}
		if err := ref.Play(m); err != nil {
			t.Fatalf("move %d: genmove %v = %s is illegal: %v\n%s", n+1, c, reply, err, ref)
		}
		if m != game.Pass {
			if seen[ref.StoneHash()] {
				t.Fatalf("move %d: %v %s repeats a position\n%s", n+1, c, reply, ref)
			}
			seen[ref.StoneHash()] = true
		}
		if ref.Passes() >= 2 {
			return n + 1, "passes"
		}
	}
	t.Fatalf("no end within %d moves\n%s", 4*size*size, ref)
	return 0, ""
}

func TestUndoReplays(t *testing.T) {
	e := newBTEngine(t, Options{Size: 5})
	// A ko: White captures at B3, Black may not retake at once; after undo
	// of the capture the position and the ko are as before.
	for _, c := range []string{"play b B4", "play w C4", "play b A3", "play w D3", "play b B2", "play w C2", "play b C3", "play w B3"} {
		okText(t, e, c)
	}
	if got := send(t, e, "play b C3"); got != "? illegal move\n\n" {
		t.Errorf("retaking the ko at once: %q, want illegal", got)
	}
	before := e.Game().Position().Copy()
	okText(t, e, "undo")
	okText(t, e, "play w B3")
	if e.Game().Position().Hash() != before.Hash() {
		t.Errorf("undo then replay gives another position:\n%s\nwant\n%s", e.Game().Position(), before)
	}
}

func TestLoadFeaturePlayerErrors(t *testing.T) {
	dir := writeBTModel(t, 1)
	if _, err := LoadFeaturePlayer(filepath.Join(dir, ModelWeightsFile), ""); err != nil {
		t.Errorf("weights file with features.json beside it: %v", err)
	}
	lone := t.TempDir()
	data, err := os.ReadFile(filepath.Join(dir, ModelWeightsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lone, "bt.weights"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFeaturePlayer(filepath.Join(lone, "bt.weights"), ""); err == nil || !strings.Contains(err.Error(), "no feature set") {
		t.Errorf("weights without a feature set: %v", err)
	}
	if _, err := LoadFeaturePlayer(filepath.Join(lone, "bt.weights"), filepath.Join(dir, FeatureSetFile)); err != nil {
		t.Errorf("weights with --features: %v", err)
	}
	if _, err := LoadFeaturePlayer(filepath.Join(lone, "missing"), ""); err == nil {
		t.Error("a missing model loads")
	}
	if _, err := New(mustNet(t), Options{Size: 9}); err == nil {
		t.Error("a 7x7 network accepts a 9x9 board")
	}
}

func mustNet(t *testing.T) Player {
	p, err := NewNetPlayer(netWeights(t, 7))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
