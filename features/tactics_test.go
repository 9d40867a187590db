package features

import (
	"strings"
	"testing"

	"lifezero/game"
)

// Positions used by several cases (9x9, GTP rows 9 at the top to 1).
var (
	// White C7 can be laddered by Black: C6 starts a ladder that runs
	// down-right to the corner; D7 lets White extend to three liberties.
	ladderShape = []string{
		". . . . . . . . .",
		". . X X . . . . .",
		". X O . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	}
	// The same with a white ladder breaker on G3, on the ladder's path.
	ladderBroken = withStone(ladderShape, "G3", 'O')
	// White C7 already in atari at D7 (Black played C6).
	ladderAtari       = withStone(ladderShape, "C6", 'X')
	ladderAtariBroken = withStone(ladderAtari, "G3", 'O')
)

// withStone returns a copy of a 9x9 diagram with one more stone.
func withStone(rows []string, v string, c byte) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.ReplaceAll(r, " ", "")
	}
	x := strings.IndexByte("ABCDEFGHJKLMNOPQRST", v[0])
	y := len(rows) - int(v[1]-'0')
	row := []byte(out[y])
	row[x] = c
	out[y] = string(row)
	return out
}

// swapColours exchanges X and O in a diagram.
func swapColours(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Map(func(c rune) rune {
			switch c {
			case 'X':
				return 'O'
			case 'O':
				return 'X'
			}
			return c
		}, r)
	}
	return out
}

func TestTacticalFeatures(t *testing.T) {
	doubleAtari := []string{
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . X . X . . .",
		". . X O . O X . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	}
	adjAtari := []string{
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . O X . . . .",
		". . O X O X . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	}
	lonelyAtari := []string{
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . X . . . .",
		". . . X O X . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	}
	selfAtari := []string{
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		"O O O . . . . . .",
		". X . O . . . . .",
	}
	// Black C5 can be taken as a ko at D5; G7 has two liberties.
	koShape := []string{
		". . . . . . . . .",
		". . . . . . X . .",
		". . . . . X O . .",
		". . O X . . . . .",
		". O X . X . . . .",
		". . O X . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	}
	tests := []struct {
		name      string
		rows      []string
		toMove    game.Color
		play      []string // moves played after the setup, from toMove on
		last, own string   // history, GTP ("" unknown)
		move      string
		want, not []string
	}{
		{name: "capture that could escape", rows: lonelyAtari, toMove: game.Black, move: "E4",
			want: []string{"capture:not_ladder", "kill:1"}, not: []string{"capture:ladder", "atari:other"}},
		{name: "no capture elsewhere", rows: lonelyAtari, toMove: game.Black, move: "D4",
			not: []string{"capture:not_ladder", "capture:ladder", "kill:1"}},
		{name: "capture of a block dead in a ladder", rows: ladderAtari, toMove: game.Black, move: "D7",
			want: []string{"capture:ladder", "kill:1"}, not: []string{"capture:not_ladder"}},
		{name: "capture when a breaker lets it escape", rows: ladderAtariBroken, toMove: game.Black, move: "D7",
			want: []string{"capture:not_ladder", "kill:1"}, not: []string{"capture:ladder"}},
		{name: "capture after the last move's atari", rows: adjAtari, toMove: game.Black, last: "C5", move: "E4",
			want: []string{"capture:adj_atari", "save:1", "kill:1"}},
		{name: "capture next to an old atari", rows: adjAtari, toMove: game.Black, move: "E4",
			want: []string{"capture:not_ladder", "save:1", "kill:1"}, not: []string{"capture:adj_atari"}},
		{name: "recapture the last move", rows: lonelyAtari, toMove: game.Black, last: "E5", move: "E4",
			want: []string{"capture:recapture", "kill:1"}},
		{name: "capture prevents connection", rows: withStone(lonelyAtari, "D4", 'O'), toMove: game.Black, last: "D4", move: "E4",
			want: []string{"capture:prevent_connection", "kill:1"}},
		{name: "extension out of atari", rows: adjAtari, toMove: game.Black, move: "D4",
			want: []string{"extension:not_ladder", "save:1"}, not: []string{"extension:ladder", "capture:adj_atari"}},
		{name: "extension into a working ladder", rows: swapColours(ladderAtari), toMove: game.Black, move: "D7",
			want: []string{"extension:ladder", "save:1"}, not: []string{"extension:not_ladder", "ladder:self"}},
		{name: "extension with a ladder breaker", rows: swapColours(ladderAtariBroken), toMove: game.Black, move: "D7",
			want: []string{"extension:not_ladder", "save:1"}, not: []string{"extension:ladder"}},
		{name: "atari that ladders", rows: ladderShape, toMove: game.Black, move: "C6",
			want: []string{"atari:ladder"}, not: []string{"atari:other", "double_atari:atari"}},
		{name: "atari from the wrong side", rows: ladderShape, toMove: game.Black, move: "D7",
			want: []string{"atari:other"}, not: []string{"atari:ladder"}},
		{name: "atari against a ladder breaker", rows: ladderBroken, toMove: game.Black, move: "C6",
			want: []string{"atari:other"}, not: []string{"atari:ladder"}},
		{name: "atari while a ko is open", rows: koShape, toMove: game.White, play: []string{"D5"}, move: "H7",
			want: []string{"atari:ko"}, not: []string{"atari:other"}},
		{name: "atari with no ko", rows: koShape, toMove: game.Black, move: "H7",
			want: []string{"atari:other"}, not: []string{"atari:ko"}},
		{name: "self-atari joining a stone", rows: selfAtari, toMove: game.Black, move: "A1",
			want: []string{"self_atari:2"}},
		{name: "self-atari of two stones", rows: selfAtari, toMove: game.Black, move: "C1",
			want: []string{"self_atari:2"}},
		{name: "self-atari of a lone stone", rows: withStone(withStone(selfAtari, "B1", '.'), "C2", '.'), toMove: game.Black, move: "A1",
			want: []string{"self_atari:1"}},
		{name: "no self-atari with two liberties", rows: selfAtari, toMove: game.Black, move: "D2",
			not: []string{"self_atari:1", "self_atari:2", "atari:other"}},
		{name: "double atari", rows: doubleAtari, toMove: game.Black, move: "E5",
			want: []string{"double_atari:atari", "atari:other", "cut:2"}},
		{name: "single atari", rows: doubleAtari, toMove: game.Black, move: "D4",
			want: []string{"atari:other"}, not: []string{"double_atari:atari", "cut:2"}},
		{name: "diagonal move is no atari", rows: doubleAtari, toMove: game.Black, move: "E4",
			not: []string{"double_atari:atari", "atari:other", "cut:2"}},
		{name: "defend the double-atari point", rows: swapColours(doubleAtari), toMove: game.Black, move: "E5",
			want: []string{"double_atari:defend", "connect:2"}, not: []string{"cut:2"}},
		{name: "cut between opponent stones", rows: swapColours(doubleAtari), toMove: game.Black, move: "E6",
			want: []string{"cut:2"}, not: []string{"connect:2"}},
		{name: "ladder: save a laddered block", rows: swapColours(ladderShape), toMove: game.Black, move: "D7",
			want: []string{"ladder:save"}, not: []string{"ladder:still", "ladder:self"}},
		{name: "ladder: still in a ladder", rows: withStone(withStone(swapColours(ladderShape), "D6", 'O'), "E7", 'O'), toMove: game.Black, move: "D7",
			want: []string{"ladder:still", "self_atari:2"}},
		{name: "ladder: new block that can be laddered", rows: withStone(swapColours(ladderShape), "C7", '.'), toMove: game.Black, move: "C7",
			want: []string{"ladder:self"}},
		{name: "ladder: a breaker makes the block safe", rows: withStone(withStone(swapColours(ladderShape), "C7", '.'), "G3", 'X'), toMove: game.Black, move: "C7",
			not: []string{"ladder:self", "ladder:save", "ladder:still"}},
	}
	e := testExtractor(t, true)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := diagram(t, tc.toMove, tc.rows...)
			for _, v := range tc.play {
				if err := pos.Play(vertex(t, &pos.Board, v)); err != nil {
					t.Fatal(err)
				}
			}
			h := History{Last: vertex(t, &pos.Board, tc.last), OwnPrev: vertex(t, &pos.Board, tc.own)}
			names := namesAt(t, e, pos, h, tc.move)
			t.Logf("%s: %v", tc.move, names)
			for _, w := range tc.want {
				if !hasName(names, w) {
					t.Errorf("%s: missing %s; got %v in\n%s", tc.move, w, names, pos)
				}
			}
			for _, n := range tc.not {
				if hasName(names, n) {
					t.Errorf("%s: unexpected %s; got %v in\n%s", tc.move, n, names, pos)
				}
			}
		})
	}
}
