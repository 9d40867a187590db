package game

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestKillAllMatchesProblemSet checks the constructor against the papers'
// 7x7 kill-all set as loaded from its files: the same goals, living side,
// ko rule per colour, whole-board region and no crucial stones in every
// one of the 20 problems.
func TestKillAllMatchesProblemSet(t *testing.T) {
	ka, err := KillAll(7)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(sharedData(t, filepath.Join("problems", "killall7x7")), "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 20 {
		t.Fatalf("%d kill-all problem files, want 20", len(files))
	}
	for _, f := range files {
		pr, err := LoadProblem(f)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Goal != ka.Goal || pr.Living() != ka.Living() {
			t.Errorf("%s: goals %v (living %v), KillAll's %v (living %v)", f, pr.Goal, pr.Living(), ka.Goal, ka.Living())
		}
		for _, c := range []Color{Black, White} {
			if got, want := ka.Start.KoRule(c), pr.Start.KoRule(c); got != want {
				t.Errorf("%s: %v's ko rule %v, KillAll's %v", f, c, want, got)
			}
		}
		if pr.Region != ka.Region || !pr.Crucial.Empty() {
			t.Errorf("%s: region of %d points, crucial %d; KillAll's region %d points", f, pr.Region.Len(), pr.Crucial.Len(), ka.Region.Len())
		}
	}
}

// TestKillAll checks the start on every size: an empty board, Black to
// move, every point in the region, and the fields a file leaves unset.
func TestKillAll(t *testing.T) {
	for _, size := range []int{MinSize, 7, 9, MaxSize} {
		pr, err := KillAll(size)
		if err != nil {
			t.Fatal(err)
		}
		pos := pr.Start
		stones := 0
		for y := range size {
			for x := range size {
				if pos.At(pos.Point(x, y)) != Empty {
					stones++
				}
			}
		}
		if pos.Size() != size || stones != 0 || pos.ToMove() != Black || pos.MoveNumber() != 0 || pos.Passes() != 0 {
			t.Errorf("size %d: start %dx%d with %d stones, %v to move, move %d", size, pos.Size(), pos.Size(), stones, pos.ToMove(), pos.MoveNumber())
		}
		if pr.Region.Len() != size*size || pr.Killer() != Black {
			t.Errorf("size %d: region %d points, killer %v", size, pr.Region.Len(), pr.Killer())
		}
		if want := fmt.Sprintf("killall%dx%d", size, size); pr.ID != want || pr.Winner != Empty || pr.Answer != NoPoint || pr.FTLD != 0 {
			t.Errorf("size %d: ID %q winner %v answer %v FTLD %d", size, pr.ID, pr.Winner, pr.Answer, pr.FTLD)
		}
		if j := pr.Judge(pos, &pr.Crucial); j.Outcome != Undecided {
			t.Errorf("size %d: the empty board is judged %v", size, j.Outcome)
		}
	}
	for _, size := range []int{MinSize - 1, MaxSize + 1} {
		if _, err := KillAll(size); err == nil || !strings.Contains(err.Error(), "kill-all") {
			t.Errorf("size %d: error %v, want a kill-all problem's size error", size, err)
		}
	}
}
