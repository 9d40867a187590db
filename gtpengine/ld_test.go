package gtpengine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/game"
	"lifezero/internal/testdata"
	"lifezero/rzs"
)

// TestSolveCommandsOnSharedProblems loads shared 19x19 problems with
// loadsgf and asks lz-solve about a crucial stone. The command's region
// (what the block reaches inside the opponent's wall) is the inside of the
// file's wall, so the answer must be the file's winner; lz-solve-gfx must
// draw a legal winning move, a zone and the same verdict.
func TestSolveCommandsOnSharedProblems(t *testing.T) {
	dir := testdata.Path(t, "problems", "cho19-dev")
	for _, id := range []string{"027", "035"} {
		t.Run(id, func(t *testing.T) {
			pr, err := game.LoadProblem(filepath.Join(dir, id+".json"))
			if err != nil {
				t.Fatal(err)
			}
			e := newBTEngine(t, Options{})
			okText(t, e, "loadsgf "+filepath.Join(dir, id+".sgf"))
			if e.game.Position().ToMove() != pr.Start.ToMove() {
				t.Fatalf("loadsgf: %v to move, the file says %v", e.game.Position().ToMove(), pr.Start.ToMove())
			}
			vertex := pr.Start.GTPString(pr.Crucial.Points()[0])
			text := okText(t, e, "lz-solve "+vertex+" 100000")
			living := ColorName(pr.Living())
			if pr.Winner != pr.Living() {
				t.Fatalf("the shared files' winners live; %s's is %v", id, pr.Winner)
			}
			if !strings.HasPrefix(text, living+" lives: ") {
				t.Fatalf("lz-solve %s: %q, the file says %s lives", vertex, text, living)
			}
			gfx := okText(t, e, "lz-solve-gfx "+vertex+" 100000")
			lines := strings.Split(gfx, "\n")
			if len(lines) != 3 || !strings.HasPrefix(lines[0], "VAR ") || !strings.HasPrefix(lines[1], "SQUARE ") || !strings.HasPrefix(lines[2], "TEXT "+living+" lives") {
				t.Fatalf("lz-solve-gfx: %q, want VAR, SQUARE and TEXT lines", gfx)
			}
			move, err := e.game.Position().ParseGTP(strings.Fields(lines[0])[2])
			if err != nil || !e.game.Position().IsLegal(move) {
				t.Fatalf("lz-solve-gfx's move %q is not a legal move: %v", lines[0], err)
			}
		})
	}
}

// TestSolveCommandErrors: bad vertices, an empty point and an open group
// get "?" replies.
func TestSolveCommandErrors(t *testing.T) {
	e := newBTEngine(t, Options{}) // 19x19: a lone stone's region is the board
	okText(t, e, "play b E5")
	for _, tt := range []struct{ line, want string }{
		{"lz-solve", "? syntax error"},
		{"lz-solve Z9", "? invalid coordinate"},
		{"lz-solve D4", "? no stone at that vertex"},
		{"lz-solve E5 -3", "? syntax error: NODES"},
		{"lz-solve E5", "? the block is not walled in"},
	} {
		if got := send(t, e, tt.line); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%q: got %q, want %q...", tt.line, got, tt.want)
		}
	}
}

// TestBlockProblemRegion checks the region on a walled corner: the block's
// area and the wall stones bordering it, nothing outside.
func TestBlockProblemRegion(t *testing.T) {
	pos, err := game.NewPosition(9)
	if err != nil {
		t.Fatal(err)
	}
	setup := func(c game.Color, vs ...string) {
		for _, v := range vs {
			p, err := pos.ParseGTP(v)
			if err != nil {
				t.Fatal(err)
			}
			if err := pos.Place(c, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	setup(game.White, "A3", "B3", "C3", "C2", "C1") // the wall
	setup(game.Black, "A1", "B2")
	a1, _ := pos.ParseGTP("A1")
	pr, err := blockProblem(pos, a1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	pr.Region.ForEach(func(p game.Point) { got = append(got, pos.GTPString(p)) })
	want := "A1 A2 A3 B1 B2 B3 C1 C2" // C3 touches no point the block reaches
	if g := strings.Join(sortedVertices(got), " "); g != want {
		t.Errorf("region %s, want %s", g, want)
	}
	if pr.Living() != game.Black || !pr.Crucial.Has(a1) {
		t.Errorf("living %v crucial %v", pr.Living(), pr.Crucial.Points())
	}
	// The solver agrees with the exhaustive reference on it.
	ref, err := rzs.NewReference(pr, 200000).Solve(pr.StartPosition(), pr.Crucial)
	if err != nil {
		t.Fatal(err)
	}
	if res := rzs.Solve(context.Background(), pr, rzs.Options{Evaluator: rzs.LDB()}); res.Status != ref {
		t.Errorf("solver %v, reference %v", res.Status, ref)
	}
}

func sortedVertices(vs []string) []string {
	out := append([]string(nil), vs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
