package rzs

import (
	"strings"
	"testing"

	"lifezero/game"
)

// enclosedFixture encloses an eye shape (rows of '.', eye, 'X', a killer
// stone in it, and '@', wall)
// in a crucial White wall one stone thick, the wall in a Black ring with
// liberties outside it; the region is the eye space, so the fight is the
// eye shape alone: the wall has no liberty outside.
func enclosedFixture(shape []string, toMove game.Color) fixture {
	w := 0
	for _, r := range shape {
		w = max(w, len(r))
	}
	n := max(w, len(shape)) + 6
	rows := make([]string, n)
	for y := range n {
		var b strings.Builder
		for x := range n {
			sy, sx := y-3, x-3
			switch {
			case sy >= 0 && sy < len(shape) && sx >= 0 && sx < len(shape[sy]) && shape[sy][sx] == '.':
				b.WriteByte('.')
			case sy >= 0 && sy < len(shape) && sx >= 0 && sx < len(shape[sy]) && shape[sy][sx] == 'X':
				b.WriteByte('X')
			case sy >= -1 && sy <= max(w, len(shape)) && sx >= -1 && sx <= max(w, len(shape)):
				b.WriteByte('&') // the wall, outside the region
			case sy >= -2 && sy <= max(w, len(shape))+1 && sx >= -2 && sx <= max(w, len(shape))+1:
				b.WriteByte('x')
			default:
				b.WriteByte(',')
			}
		}
		rows[y] = b.String()
	}
	return fixture{toMove: toMove, rows: rows}
}

// enclosedReading is an enclosed fixture read by an evaluator and solved
// by the exhaustive reference solver.
type enclosedReading struct {
	eyes     float64 // the eye count
	killable bool    // a killable shape's extra eye is counted
	ref      Status  // the reference's result for White, the wall
	pos      *game.Position
}

// readEnclosed reads enclosedFixture(shape, toMove) with cfg's eye count
// and solves it with the reference.
func readEnclosed(t *testing.T, shape []string, toMove game.Color, cfg LD) enclosedReading {
	t.Helper()
	pr := enclosedFixture(shape, toMove).problem(t)
	pos := pr.StartPosition()
	var ld ldScratch
	ld.cfg = cfg
	ld.read(pos, pr, game.White, true)
	ref, err := NewReference(pr, 2_000_000).Solve(pos, pr.Crucial)
	if err != nil {
		t.Fatalf("%q: %v", shape, err)
	}
	return enclosedReading{eyes: ld.eyes, killable: ld.killable, ref: ref, pos: pos}
}

// TestEnclosedShapes checks the eye count of the classic shapes against
// the exhaustive reference solver: the wall around each lives exactly when
// its eyes (two for most shapes, one for the square four, and one more for
// a killable shape when White moves first) come to two.
func TestEnclosedShapes(t *testing.T) {
	for _, tt := range []struct {
		name     string
		shape    []string
		base     float64
		killable bool
	}{
		{"straight three", []string{"..."}, 1, true},
		{"bent three", []string{"..", ".@"}, 1, true},
		{"straight four", []string{"...."}, 2, false},
		{"bent four", []string{"...", ".@@"}, 2, false},
		{"square four", []string{"..", ".."}, 1, false},
		{"pyramid four", []string{"...", "@.@"}, 1, true},
		{"crossed five", []string{"@.@", "...", "@.@"}, 1, true},
		{"bulky five", []string{"...", "..@"}, 1, true},
		{"straight five", []string{"....."}, 2, false},
		{"rabbity six", []string{"@.@", "...", "..@"}, 1, true},
		{"rectangular six", []string{"...", "..."}, 2, false},
	} {
		for _, toMove := range []game.Color{game.White, game.Black} {
			cfg := LDB()
			cfg.Shapes = true
			r := readEnclosed(t, tt.shape, toMove, cfg)
			if r.eyes != tt.base || r.killable != tt.killable {
				t.Errorf("%s, %v to move: %v eyes, killable %v; want %v, %v", tt.name, toMove, r.eyes, r.killable, tt.base, tt.killable)
			}
			lives := tt.base >= 2 || tt.killable && toMove == game.White
			if (r.ref == Win) != lives {
				t.Errorf("%s, %v to move: the reference says %v, the shape says lives %v\n%v", tt.name, toMove, r.ref, lives, r.pos)
			}
		}
	}
}

// TestNakadeRegions checks the count of enclosed regions holding killer
// stones against the exhaustive reference solver: each such region is one
// eye, so the wall dies when it is its only eye space (a nakade) and lives
// with a second eye beside it, whoever moves first.
func TestNakadeRegions(t *testing.T) {
	for _, tt := range []struct {
		name  string
		shape []string
		eyes  float64
	}{
		{"bent three, the killer on the vital point", []string{"X.", ".@"}, 1},
		{"the same and an eye", []string{"X.@.", ".@@@"}, 2},
		{"straight three, the killer in the middle", []string{".X."}, 1},
		{"the same and an eye", []string{".X.@."}, 2},
		{"pyramid four, the killer in the centre", []string{".X.", "@.@"}, 1},
		{"bulky five, two killer stones", []string{"XX.", "..@"}, 1},
		{"a throw-in and an eye", []string{"X.@."}, 2},
	} {
		for _, toMove := range []game.Color{game.White, game.Black} {
			cfg := LDB()
			cfg.Nakade = true
			r := readEnclosed(t, tt.shape, toMove, cfg)
			if r.eyes != tt.eyes || r.killable {
				t.Errorf("%s, %v to move: %v eyes, killable %v; want %v, false", tt.name, toMove, r.eyes, r.killable, tt.eyes)
			}
			if (r.ref == Win) != (tt.eyes >= 2) {
				t.Errorf("%s, %v to move: the reference says %v, the count says lives %v\n%v", tt.name, toMove, r.ref, tt.eyes >= 2, r.pos)
			}
		}
	}
}
