package movecands

import (
	"errors"
	"reflect"
	"testing"

	"lifezero/datasets"
	"lifezero/features"
	"lifezero/game"
)

func TestParseGameSkips(t *testing.T) {
	tests := []struct {
		name   string
		g      datasets.Game
		reason string
		move   int
	}{
		{"handicap", datasets.Game{BoardSize: 19, Handicap: 2, Moves: "W[pd]", NumMoves: 1}, SkipHandicap, 0},
		{"board too small", datasets.Game{BoardSize: 3, Moves: "B[aa]", NumMoves: 1}, SkipBoardSize, 0},
		{"board too large", datasets.Game{BoardSize: 21, Moves: "B[aa]", NumMoves: 1}, SkipBoardSize, 0},
		{"no moves", datasets.Game{BoardSize: 19}, SkipNoMoves, 0},
		{"bad colour", datasets.Game{BoardSize: 9, Moves: "B[aa];X[bb]", NumMoves: 2}, SkipMalformed, 2},
		{"no brackets", datasets.Game{BoardSize: 9, Moves: "B[aa];Wbb", NumMoves: 2}, SkipMalformed, 2},
		{"off board", datasets.Game{BoardSize: 9, Moves: "B[aa];W[jj]", NumMoves: 2}, SkipMalformed, 2},
		{"white first", datasets.Game{BoardSize: 9, Moves: "W[aa];B[bb]", NumMoves: 2}, SkipOutOfTurn, 1},
		{"black twice", datasets.Game{BoardSize: 9, Moves: "B[aa];W[cc];W[bb]", NumMoves: 3}, SkipOutOfTurn, 3},
		{"occupied", datasets.Game{BoardSize: 9, Moves: "B[aa];W[bb];B[bb]", NumMoves: 3}, SkipIllegal, 3},
		{"suicide", datasets.Game{BoardSize: 9, Moves: "B[ba];W[cc];B[ab];W[aa]", NumMoves: 4}, SkipIllegal, 4},
		{"ko retaken at once", datasets.Game{BoardSize: 9,
			Moves: "B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[ff];W[bb];B[cb];W[bb]", NumMoves: 10}, SkipIllegal, 10},
		{"num_moves disagrees", datasets.Game{BoardSize: 9, Moves: "B[aa];W[bb]", NumMoves: 3}, SkipMalformed, 0},
	}
	for _, tc := range tests {
		_, err := ParseGame(&tc.g)
		var se *SkipError
		if !errors.As(err, &se) || se.Reason != tc.reason || se.Move != tc.move {
			t.Errorf("%s: error %v, want reason %s at move %d", tc.name, err, tc.reason, tc.move)
		}
	}
}

// The ko test above is only meaningful if the same game without the last
// move is fine and the recapture really is the ko point.
func TestParseGameReplays(t *testing.T) {
	g := datasets.Game{BoardSize: 9, Moves: "B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[ff];W[bb];B[cb];W[ee];B[];W[tt]", NumMoves: 12}
	rec, err := ParseGame(&g)
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := game.NewPosition(9)
	pt := func(s string) game.Point {
		p, err := pos.ParsePoint(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	want := []game.Point{pt("ba"), pt("ca"), pt("ab"), pt("db"), pt("bc"), pt("cc"), pt("ff"), pt("bb"), pt("cb"), pt("ee"), game.Pass, game.Pass}
	if !reflect.DeepEqual(rec.Moves, want) || rec.Size != 9 {
		t.Fatalf("moves %v, want %v", rec.Moves, want)
	}
	var seen []int
	err = rec.Replay(func(p *game.Position, h features.History, played game.Point) error {
		i := p.MoveNumber()
		seen = append(seen, i)
		if played != want[i] {
			t.Errorf("move %d: played %v, want %v", i, played, want[i])
		}
		if wantH := features.HistoryOf(want[:i]); h != wantH {
			t.Errorf("move %d: history %+v, want %+v", i, h, wantH)
		}
		if c := p.ToMove(); (i%2 == 0) != (c == game.Black) {
			t.Errorf("move %d: %v to move", i, c)
		}
		if i == 9 && (p.At(pt("bb")) != game.Empty || p.At(pt("cb")) != game.Black) { // Black took the ko at move 9
			t.Errorf("the white stone at bb was not captured by the black one at cb")
		}
		return nil
	})
	if err != nil || len(seen) != 12 {
		t.Fatalf("replay: %v, %d visits", err, len(seen))
	}
	stop := errors.New("stop")
	if err := rec.Replay(func(*game.Position, features.History, game.Point) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("replay did not stop at the visitor's error: %v", err)
	}
}
