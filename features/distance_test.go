package features

import (
	"fmt"
	"testing"

	"lifezero/game"
)

func TestDistanceFeatures(t *testing.T) {
	// Black E5, White A9; White's last move A9, our previous move E5 (or
	// C3, an empty point: as if it had been captured).
	far := []string{
		"O . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . X . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	}
	// White's last move E5 joins E6; Black F5-G5 touches it.
	cfg := []string{
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . O . . . .",
		". . . . O X X . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	}
	tests := []struct {
		rows      []string
		last, own string
		move      string
		want, not []string
	}{
		// dx+dy+max(dx,dy) from A9 and from E5.
		{far, "A9", "E5", "E7", []string{"dist_prev:10", "dist_own_prev:4", "closest_own:4", "closest_opp:10"}, nil},
		{far, "A9", "E5", "B9", []string{"dist_prev:2"}, []string{"dist_prev:3"}},
		{far, "A9", "E5", "B8", []string{"dist_prev:3"}, nil},
		{far, "A9", "E5", "C9", []string{"dist_prev:4"}, nil},
		{far, "A9", "E5", "D7", []string{"dist_prev:8", "dist_own_prev:5", "closest_own:5"}, nil},
		{far, "A9", "E5", "F5", []string{"dist_own_prev:2", "closest_own:2"}, nil},
		// J1 is 24 from A9: beyond dist_prev:17, and 20+ for closest.
		{far, "A9", "E5", "J1", []string{"dist_own_prev:12", "closest_own:12", "closest_opp:20+"}, []string{"dist_prev:17"}},
		{far, "A9", "C3", "C3", []string{"dist_own_prev:0", "cfg_own:0"}, nil},
		{far, "", "", "E7", nil, []string{"dist_prev:10", "dist_own_prev:4", "cfg_last:4+"}},
		// Common-fate graph: blocks are single nodes.
		{cfg, "E5", "", "D5", []string{"cfg_last:1"}, nil},
		{cfg, "E5", "", "E7", []string{"cfg_last:1"}, nil},
		{cfg, "E5", "", "H5", []string{"cfg_last:2", "dist_prev:6"}, nil},
		{cfg, "E5", "", "D3", []string{"cfg_last:3"}, nil},
		{cfg, "E5", "", "J5", []string{"cfg_last:3"}, nil},
		{cfg, "E5", "", "A1", []string{"cfg_last:4+"}, nil},
	}
	e := testExtractor(t, false)
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/last=%s/own=%s", tc.move, tc.last, tc.own), func(t *testing.T) {
			pos := diagram(t, game.Black, tc.rows...)
			h := History{Last: vertex(t, &pos.Board, tc.last), OwnPrev: vertex(t, &pos.Board, tc.own)}
			names := namesAt(t, e, pos, h, tc.move)
			for _, w := range tc.want {
				if !hasName(names, w) {
					t.Errorf("missing %s; got %v", w, names)
				}
			}
			for _, n := range tc.not {
				if hasName(names, n) {
					t.Errorf("unexpected %s; got %v", n, names)
				}
			}
		})
	}
}

func TestLineFeature(t *testing.T) {
	pos, err := game.NewPosition(19)
	if err != nil {
		t.Fatal(err)
	}
	e := testExtractor(t, false)
	for move, want := range map[string]string{
		"A1": "line:1", "T19": "line:1", "K1": "line:1", "A10": "line:1",
		"B2": "line:2", "S18": "line:2", "C3": "line:3", "D4": "line:4",
		"Q16": "line:4", "E5": "line:5+", "K10": "line:5+", "O15": "line:5+",
	} {
		names := namesAt(t, e, pos, History{}, move)
		if !hasName(names, want) {
			t.Errorf("%s: want %s, got %v", move, want, names)
		}
	}
}

func TestPassAndPhase(t *testing.T) {
	e := testExtractor(t, false)
	pos, err := game.NewPosition(9)
	if err != nil {
		t.Fatal(err)
	}
	check := func(h History, move string, want ...string) {
		t.Helper()
		names := namesAt(t, e, pos, h, move)
		for _, w := range want {
			if !hasName(names, w) {
				t.Errorf("move %d, %s: missing %s; got %v", pos.MoveNumber(), move, w, names)
			}
		}
	}
	var out Moves
	e.Extract(pos, History{}, &out)
	if n := out.Len(); n != 82 || out.Move(n-1) != game.Pass {
		t.Fatalf("empty 9x9: %d candidates ending with %v, want 81 points and the pass", n, out.Move(n-1))
	}
	if got := out.Features(out.Len() - 1); len(got) != 2 || e.Name(got[0]) != "pass:new" || e.Name(got[1]) != "phase:0-49" {
		t.Errorf("pass features %v, want [pass:new phase:0-49]", got)
	}
	check(History{Last: game.Pass}, "pass", "pass:consecutive")
	for pos.MoveNumber() < 60 {
		if err := pos.Play(game.Pass); err != nil {
			t.Fatal(err)
		}
	}
	check(History{}, "E5", "phase:50-99")
	check(History{}, "pass", "phase:50-99")
	for pos.MoveNumber() < 1000 {
		if err := pos.Play(game.Pass); err != nil {
			t.Fatal(err)
		}
	}
	check(History{}, "A1", "phase:550+", "line:1")
}
