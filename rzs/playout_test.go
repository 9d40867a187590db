package rzs

import (
	"path/filepath"
	"strings"
	"testing"

	"lifezero/game"
)

// The playouts' value against positions whose outcome no play can change:
// a crucial block with two eyes of one point each lives in every playout
// (the killer may not play into an eye, and the living side never fills
// its own), in kill-all too (no stone crucial, the goal live_any), and a
// crucial stone in atari that cannot get out is captured
// before the playout ends, since the killer never passes while the capture
// stays open.
func TestPlayoutValueSettledPositions(t *testing.T) {
	twoEyes := []string{
		".......",
		".......",
		".......",
		".......",
		"XXXXXXX",
		"@@@@@@@",
		"@.@.@@@",
	}
	tests := []struct {
		name string
		f    fixture
		want float32
	}{
		{"two eyes, killer to move", fixture{game.Black, twoEyes}, 1},
		{"two eyes, living side to move", fixture{game.White, twoEyes}, 1},
		{"kill-all, two eyes", fixture{game.Black, strings.Split(strings.ReplaceAll(strings.Join(twoEyes, ","), "@", "O"), ",")}, 1},
		{"crucial stone in atari without escape", fixture{game.Black, []string{
			"@.X....",
			"XX.....",
			".......",
			".......",
			".......",
			".......",
			".......",
		}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pr := tc.f.problem(t)
			if got := playoutValue(pr.StartPosition(), pr, 16); got != tc.want {
				t.Errorf("value %v, want %v", got, tc.want)
			}
		})
	}
}

// The playouts are a function of the position: the same value every
// time, so a search stays deterministic, and within [0, 1].
func TestPlayoutValueDeterministic(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(sharedProblemDir(t, "cho19-dev"), "0[0-2]*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no problems: %v", err)
	}
	for _, f := range files {
		pr, err := game.LoadProblem(f)
		if err != nil {
			t.Fatal(err)
		}
		pos := pr.StartPosition()
		a, b := playoutValue(pos, pr, 8), playoutValue(pos, pr, 8)
		if a != b || a < 0 || a > 1 {
			t.Errorf("%s: values %v and %v", pr.ID, a, b)
		}
	}
}
