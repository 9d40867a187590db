package rzs

import (
	"strings"
	"testing"

	"lifezero/game"
)

// diagram builds a position from rows of X (Black), O (White) and . (empty),
// top row first, with toMove to play.
func diagram(t *testing.T, toMove game.Color, rows ...string) *game.Position {
	t.Helper()
	pos, err := game.NewPosition(len(rows))
	if err != nil {
		t.Fatal(err)
	}
	for y, row := range rows {
		for x, ch := range strings.ReplaceAll(row, " ", "") {
			c := map[rune]game.Color{'X': game.Black, 'O': game.White}[ch]
			if c != game.Empty {
				if err := pos.Place(c, pos.Point(x, y)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := pos.CheckNoDeadBlocks(); err != nil {
		t.Fatal(err)
	}
	pos.SetToMove(toMove)
	pos.SetKoRule(game.White, game.NoKoCapture)
	pos.SetKoRule(game.Black, game.PositionalSuperko)
	return pos
}

func gtpSet(t *testing.T, pos *game.Position, vertices string) game.PointSet {
	t.Helper()
	var s game.PointSet
	for _, v := range strings.Fields(vertices) {
		p, err := pos.ParseGTP(v)
		if err != nil {
			t.Fatal(err)
		}
		s.Add(p)
	}
	return s
}

func wantIn(t *testing.T, pos *game.Position, zone game.PointSet, vertices, why string) {
	t.Helper()
	want := gtpSet(t, pos, vertices)
	if missing := want.Minus(zone); !missing.Empty() {
		t.Errorf("%s: zone lacks %v (zone %v)", why, pointNames(pos, &missing), pointNames(pos, &zone))
	}
}

func wantOut(t *testing.T, pos *game.Position, zone game.PointSet, vertices, why string) {
	t.Helper()
	extra := gtpSet(t, pos, vertices).Intersect(zone)
	if !extra.Empty() {
		t.Errorf("%s: zone should not hold %v", why, pointNames(pos, &extra))
	}
}

// TestDilateORCapture follows paper 001's Figure 5: White wins by capturing
// a four-stone black block at F1; the captured block and the white blocks
// around it join the zone, and DL-1 then gives each of those white blocks a
// liberty in the zone, so every position with the same zone pattern
// replays the capture.
func TestDilateORCapture(t *testing.T) {
	before := diagram(t, game.White,
		". . . . . . .",
		". . . . . . .",
		". . . . . . O", // G5
		". . . . . O X", // F4 | G4
		". . . . O X X", // E3 | F3 G3
		". . . O X X O", // D2 | E2 F2 | G2
		". . . O X . O", // D1 | E1 | F1 empty | G1
	)
	m := mustGTP(t, before, "F1")
	after := before.Copy()
	if err := after.Play(m); err != nil {
		t.Fatal(err)
	}
	if got := after.Captured(game.Black); got != 6 {
		t.Fatalf("F1 captured %d stones, want the 6-stone block", got)
	}
	child := gtpSet(t, after, "F1 G1 G2 G3") // the white win's zone after the capture
	z := DilateOR(before, after, m, child)
	wantIn(t, before, z, "E1 E2 F2 F3 G3 G4", "captured block")
	wantIn(t, before, z, "D1 D2 E3 F4 G5 G2 G1", "white blocks around the captured block")
	// DL-1: each white block in the zone has a liberty in it.
	forEachBlockIn(after, &z, func(h game.Point) {
		libs := after.Liberties(h)
		if !libs.Intersects(&z) {
			t.Errorf("block at %s has no liberty in the zone", after.GTPString(h))
		}
	})
	wantOut(t, before, z, "A7 B6 C5", "far points")
}

func mustGTP(t *testing.T, pos *game.Position, v string) game.Point {
	t.Helper()
	p, err := pos.ParseGTP(v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDilateANDBorder follows Figure 6: a white block with two liberties,
// one in the zone and one outside (G4), must get the second one too, or a
// position with the same zone pattern could let Black capture it from
// outside the zone.
func TestDilateANDBorder(t *testing.T) {
	pos := diagram(t, game.Black,
		". . . . . . .",
		". . . . . . .",
		". . . . . X .",
		". . . . . X .",
		". . . . X O O",
		". . . . X O O",
		". . . . X . X",
	)
	union := gtpSet(t, pos, "F3 G3 F2 G2 F1 G1")
	all := pos.AllPoints()
	z := DilateAND(pos, union, &all, game.White)
	wantIn(t, pos, z, "G4", "the white block's second liberty")
	wantOut(t, pos, z, "A7 A1", "far points")
}

// TestDilateANDSuicide follows Figure 7: Black may not play G4 because the
// block F4 F5 G5 would be left without liberties (suicide). The black block
// and the white blocks around it and G4 join the zone; the white block
// E4 E5 brings two liberties (D4 D5); the white block F6 G6, with one
// liberty G7, brings G7 and the black block around it (E6 E7 F7).
func TestDilateANDSuicide(t *testing.T) {
	pos := diagram(t, game.Black,
		". . . . X X .", // E7 F7
		". . . . X O O", // E6 F6 G6
		". . . . O X X", // E5 F5 G5
		". . . . O X .", // E4 F4 G4=.
		". . . . X O O", // E3 F3 G3
		". . . . . . .",
		". . . . . . .",
	)
	g4 := mustGTP(t, pos, "G4")
	if pos.Board.Legal(game.Black, g4) {
		t.Fatal("G4 should be suicide for Black")
	}
	union := gtpSet(t, pos, "G4 G3 F3")
	all := pos.AllPoints()
	z := DilateAND(pos, union, &all, game.White)
	wantIn(t, pos, z, "F4 F5 G5", "the black block that G4 would kill")
	wantIn(t, pos, z, "E4 E5 F6 G6", "white blocks around it")
	wantIn(t, pos, z, "D4 D5", "two liberties of E4 E5")
	wantIn(t, pos, z, "G7 E6 E7 F7", "the single liberty of F6 G6 and the black block around it")
}

// TestNullMove: a defender move outside the child's zone that captures
// stones inside it is not a null move.
func TestNullMove(t *testing.T) {
	var zone, changed game.PointSet
	zone.Add(10)
	zone.Add(11)
	changed.Add(20)
	if !isNullMove(&changed, &zone) {
		t.Error("a move outside the zone that changes nothing inside is a null move")
	}
	changed.Add(11)
	if isNullMove(&changed, &zone) {
		t.Error("a move whose capture lies in the zone is not a null move")
	}
}
