package features

import (
	"testing"

	"lifezero/game"
)

// TestLongLadder reads a ladder across a 19x19 board: White C17 with Black
// B17, C18, D18 runs down-right along the diagonal once Black ataris at
// C16. A white stone on the diagonal breaks it; one far off the path does
// not; a black stone on the path (a ladder maker for the attacker) keeps it
// working.
func TestLongLadder(t *testing.T) {
	tests := []struct {
		name  string
		extra map[string]game.Color
		dies  bool
	}{
		{"empty board", nil, true},
		{"breaker on the path", map[string]game.Color{"P5": game.White}, false},
		{"breaker near the end", map[string]game.Color{"R3": game.White}, false},
		{"stone off the path", map[string]game.Color{"Q17": game.White}, true},
		{"attacker stone on the path", map[string]game.Color{"P5": game.Black}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := game.NewPosition(19)
			if err != nil {
				t.Fatal(err)
			}
			stones := map[string]game.Color{"C17": game.White, "B17": game.Black, "C18": game.Black, "D18": game.Black}
			for v, c := range tc.extra {
				stones[v] = c
			}
			for v, c := range stones {
				if err := pos.Place(c, vertex(t, &pos.Board, v)); err != nil {
					t.Fatal(err)
				}
			}
			target := vertex(t, &pos.Board, "C17")
			var r ladderReader
			// White to move with two liberties: not yet in atari, so the
			// attacker-to-move read decides.
			if got := r.attackerCaptures(&pos.Board, target); got != tc.dies {
				t.Errorf("attacker to move captures: %v, want %v\n%s", got, tc.dies, pos)
			}
			nodes := r.nodes
			b := pos.Board
			if _, err := b.Play(game.Black, vertex(t, &pos.Board, "C16")); err != nil {
				t.Fatal(err)
			}
			if got := r.defenderDies(&b, target); got != tc.dies {
				t.Errorf("after the atari at C16, dies: %v, want %v\n%s", got, tc.dies, pos)
			}
			if tc.dies && nodes < 30 {
				t.Errorf("the ladder was read in %d nodes: too few for a ladder across the board", nodes)
			}
		})
	}
}

// TestLadderDefenderCaptures: White C7 in atari cannot extend (D7 would be
// suicide, taking its own D6 in atari along), but it can capture Black C6,
// itself in atari, at C5 and live. Without White B6, C6 has two liberties
// and C7 dies.
func TestLadderDefenderCaptures(t *testing.T) {
	rows := []string{
		". . . . . . . . .",
		". . X X . . . . .",
		". X O . X . . . .",
		". O X O X . . . .",
		". . . X . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	}
	for _, tc := range []struct {
		rows []string
		dies bool
	}{{rows, false}, {withStone(rows, "B6", '.'), true}} {
		pos := diagram(t, game.White, tc.rows...)
		target := vertex(t, &pos.Board, "C7")
		if pos.LibertyCount(target) != 1 {
			t.Fatalf("C7 should be in atari\n%s", pos)
		}
		var r ladderReader
		if got := r.defenderDies(&pos.Board, target); got != tc.dies {
			t.Errorf("C7 dies: %v, want %v\n%s", got, tc.dies, pos)
		}
	}
}
