package nn

import (
	"testing"

	"lifezero/game"
)

// koPosition returns a 7x7 position after Black's ko capture at (3,2):
// White to move, the ko point at (2,2), move number 1.
func koPosition(t *testing.T) *game.Position {
	t.Helper()
	pos, err := game.NewPosition(7)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		c    game.Color
		x, y int
	}{
		{game.Black, 1, 2}, {game.Black, 2, 1}, {game.Black, 2, 3},
		{game.White, 2, 2}, {game.White, 3, 1}, {game.White, 4, 2}, {game.White, 3, 3},
	} {
		if err := pos.Place(s.c, pos.Point(s.x, s.y)); err != nil {
			t.Fatal(err)
		}
	}
	if err := pos.Play(pos.Point(3, 2)); err != nil {
		t.Fatal(err)
	}
	return pos
}

func TestEncode(t *testing.T) {
	pos := koPosition(t)
	c := Config{Board: 7, Blocks: 1, Filters: 4, D: 3, MoveNumberPlanes: 3, ValueHidden: 4}
	pt := func(x, y int) int { return y*7 + x }
	black := []int{pt(1, 2), pt(2, 1), pt(2, 3), pt(3, 2)}
	white := []int{pt(3, 1), pt(4, 2), pt(3, 3)}

	pr := &game.Problem{}
	pr.Goal[game.White] = game.GoalLive
	pr.Goal[game.Black] = game.GoalKill
	pr.Crucial.Add(pos.Point(3, 1))
	pr.Crucial.Add(pos.Point(5, 5)) // empty: not marked
	region := []int{pt(0, 0), pt(2, 2), pt(6, 6)}
	for _, i := range region {
		pr.Region.Add(pos.Point(i%7, i/7))
	}

	tests := []struct {
		name string
		pr   *game.Problem
		// ones lists the points that are 1 in each plane; nil = all zero,
		// "all" is spelled allPoints.
		ones map[int][]int
	}{
		{name: "problem", pr: pr, ones: map[int][]int{
			PlaneOwn: white, PlaneOpponent: black, PlaneRegion: region,
			PlaneCrucial: {pt(3, 1)}, PlaneLiving: white, PlaneKilling: black,
			PlaneKo: {pt(2, 2)}, NumFixedPlanes + 1: allPoints(49),
		}},
		{name: "plain game", pr: nil, ones: map[int][]int{
			PlaneOwn: white, PlaneOpponent: black, PlaneRegion: allPoints(49),
			PlaneKo: {pt(2, 2)}, NumFixedPlanes + 1: allPoints(49),
		}},
	}
	for _, tt := range tests {
		dst := make([]float32, c.InputSize())
		for i := range dst {
			dst[i] = 7 // Encode must overwrite everything
		}
		if err := c.Encode(pos, tt.pr, dst); err != nil {
			t.Fatal(err)
		}
		// Empty is the complement of the stones.
		want := map[int]map[int]bool{PlaneEmpty: {}}
		for i := range 49 {
			want[PlaneEmpty][i] = true
		}
		for _, i := range append(append([]int{}, black...), white...) {
			delete(want[PlaneEmpty], i)
		}
		for p, pts := range tt.ones {
			want[p] = map[int]bool{}
			for _, i := range pts {
				want[p][i] = true
			}
		}
		for p := 0; p < c.Planes(); p++ {
			for i := range 49 {
				w := float32(0)
				if want[p][i] {
					w = 1
				}
				if got := dst[p*49+i]; got != w {
					t.Errorf("%s: plane %d point (%d,%d) = %v, want %v", tt.name, p, i%7, i/7, got, w)
				}
			}
		}
	}
}

func TestEncodeBlackToMoveAndMoveNumberClamp(t *testing.T) {
	pos, _ := game.NewPosition(5)
	for range 4 {
		if err := pos.Play(game.Pass); err != nil {
			t.Fatal(err)
		}
	}
	c := Config{Board: 5, Blocks: 0, Filters: 2, D: 1, MoveNumberPlanes: 2, ValueHidden: 2}
	dst := make([]float32, c.InputSize())
	if err := c.Encode(pos, nil, dst); err != nil {
		t.Fatal(err)
	}
	plane := func(p int) []float32 { return dst[p*25 : (p+1)*25] }
	if plane(PlaneBlackToMove)[0] != 1 || plane(PlaneBlackToMove)[24] != 1 {
		t.Errorf("black-to-move plane not all ones with Black to move")
	}
	// Move number 4 is past the last plane: the last one is set.
	if plane(NumFixedPlanes)[0] != 0 || plane(NumFixedPlanes + 1)[0] != 1 {
		t.Errorf("move-number planes %v %v", plane(NumFixedPlanes)[0], plane(NumFixedPlanes + 1)[0])
	}
}

func TestEncodeErrors(t *testing.T) {
	pos, _ := game.NewPosition(9)
	c := testConfig(t, Preset2x16, 7)
	if err := c.Encode(pos, nil, make([]float32, c.InputSize())); err == nil {
		t.Error("9x9 position on a 7x7 network: no error")
	}
	pos, _ = game.NewPosition(7)
	if err := c.Encode(pos, nil, make([]float32, 3)); err == nil {
		t.Error("short dst: no error")
	}
}

func TestMoveIndexRoundTrip(t *testing.T) {
	b, _ := game.NewBoard(7)
	seen := map[int]bool{}
	for y := range 7 {
		for x := range 7 {
			p := b.Point(x, y)
			i := MoveIndex(b, p)
			if i != y*7+x || IndexMove(b, i) != p {
				t.Errorf("(%d,%d): index %d, back %v", x, y, i, IndexMove(b, i))
			}
			seen[i] = true
		}
	}
	if MoveIndex(b, game.Pass) != 49 || IndexMove(b, 49) != game.Pass {
		t.Error("pass is not index 49")
	}
	if MoveIndex(b, game.NoPoint) != -1 || IndexMove(b, 50) != game.NoPoint || IndexMove(b, -1) != game.NoPoint {
		t.Error("out-of-range moves and indices are not rejected")
	}
	if len(seen) != 49 {
		t.Errorf("%d distinct indices", len(seen))
	}
}

func allPoints(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
