package recindex

import (
	"strings"
	"testing"
)

func TestParseDiagram(t *testing.T) {
	for _, c := range []struct {
		name, in string
		w, h     int
		fixed    bool
		x, y     int
		want     string // String() of the result
	}{
		{"plain", "X O .\n. X ?\n", 3, 2, false, 0, 0, "X O .\n. X ?\n"},
		{"no spaces, comments", "# a corner\nXO.\n\n.X?\n", 3, 2, false, 0, 0, "X O .\n. X ?\n"},
		{"masks", "x o *\n? . X", 3, 2, false, 0, 0, "x o *\n? . X\n"},
		{"fixed", "at 1 1\n. .\n. X", 2, 2, true, 0, 0, "at 1 1 on 19\n. .\n. X\n"},
		{"fixed on 9x9", "at 7 8 on 9\nX O", 2, 1, true, 6, 7, "at 7 8 on 9\nX O\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseDiagram([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if p.W != c.w || p.H != c.h || p.Fixed != c.fixed || p.X != c.x || p.Y != c.y || p.String() != c.want {
				t.Errorf("got %dx%d fixed %v at (%d,%d):\n%s", p.W, p.H, p.Fixed, p.X, p.Y, p)
			}
		})
	}
}

// TestBadPatterns: malformed patterns give errors that say what is wrong,
// never a panic.
func TestBadPatterns(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "no pattern rows"},
		{"only comments", "# nothing\n", "no pattern rows"},
		{"bad char", "X O\n. Z", `line 2: column 3: 'Z' is not a point`},
		{"ragged", "X O .\n. X", "line 2: 2 points, the rows above have 3"},
		{"no stone", ". . ?\n? . .", "no point that requires a stone"},
		{"off the board", "at 19 19\nX O", "does not fit on a 19x19 board"},
		{"bad at", "at one two\nX", `want "at COL ROW"`},
		{"too wide", strings.Repeat("X", 20), "want sides 1..19"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseDiagram([]byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
	for _, c := range []struct{ name, in, want string }{
		{"not sgf", "hello", "sgf"},
		{"no stones", "(;SZ[19])", "no stones"},
		{"bad point", "(;SZ[19]AB[zz])", "AB"},
		{"only empty view", "(;SZ[19]VW[aa:cc])", "no point that requires a stone"},
	} {
		t.Run("sgf "+c.name, func(t *testing.T) {
			_, err := ParseSGF([]byte(c.in), false)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestParseSGF(t *testing.T) {
	p, err := ParseSGF([]byte("(;FF[4]SZ[19]AB[dd][ed]AW[de]MA[ee]VW[cc:ee])"), true)
	if err != nil {
		t.Fatal(err)
	}
	want := "at 3 3 on 19\n. . .\n. X X\n. O ?\n"
	if p.String() != want {
		t.Errorf("got\n%swant\n%s", p, want)
	}
	p, err = ParseSGF([]byte("(;SZ[9]AB[cc]AW[dc])"), false)
	if err != nil || p.String() != "X O\n" {
		t.Errorf("bounding box: %v\n%s", err, p)
	}
}

// TestVariants: the symmetric and colour-swapped forms are kept once each.
func TestVariants(t *testing.T) {
	for _, c := range []struct {
		in            string
		noSym, noSwap bool
		want          int
	}{
		{"X", false, false, 2},                    // a stone: itself and its swap
		{"X", false, true, 1},                     // no swap
		{"X O", false, false, 4},                  // horizontal and vertical, each the swap of a rotation
		{"X O .\n. X ?\n? . O", false, false, 16}, // no symmetry
		{"X O .\n. X ?\n? . O", true, false, 2},
		{"X O .\n. X ?\n? . O", true, true, 1},
		{". . .\n. X .\n. . .", false, false, 2},
		{"at 1 1\nX", false, true, 4}, // the four corners
	} {
		p := mustDiagram(t, c.in)
		if got := len(variants(p, c.noSym, c.noSwap)); got != c.want {
			t.Errorf("%q noSym %v noSwap %v: %d variants, want %d", c.in, c.noSym, c.noSwap, got, c.want)
		}
	}
}
