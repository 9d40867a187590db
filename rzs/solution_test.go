package rzs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/game"
	"lifezero/sgf"
)

// TestSolutionSGFReloads writes a solved problem's solution and reads it
// back: its root alone loads as the same problem (position, crucial
// stones, region), the zones carry SQ marks, and every move of the tree is
// legal.
func TestSolutionSGFReloads(t *testing.T) {
	for _, pr := range sharedProblems(t, "cho19-dev") {
		if pr.ID != "009" {
			continue
		}
		res := Solve(context.Background(), pr, Options{Budget: 40000})
		if res.Status != Win {
			t.Fatalf("009 not solved: %v", res.Status)
		}
		path := filepath.Join(t.TempDir(), "009.sgf")
		coll := SolutionSGF(pr, res)
		if err := coll.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		if !containsAll(string(data), "SQ[", "TR[", "MA[") {
			t.Errorf("solution lacks SQ/TR/MA marks")
		}
		parsed, err := sgf.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		parsed[0].Children = nil // the root alone is the problem
		rootOnly := filepath.Join(t.TempDir(), "009-root.sgf")
		if err := parsed.WriteFile(rootOnly); err != nil {
			t.Fatal(err)
		}
		back, err := game.LoadProblem(rootOnly)
		if err != nil {
			t.Fatal(err)
		}
		if back.Start.Hash() != pr.Start.Hash() || back.Crucial != pr.Crucial || back.Region != pr.Region {
			t.Fatalf("solution file does not reload as the same problem: hash %v crucial %v region %v (%d vs %d)\n%v\n%v",
				back.Start.Hash() == pr.Start.Hash(), back.Crucial == pr.Crucial, back.Region == pr.Region,
				back.Region.Len(), pr.Region.Len(), back.Start, pr.Start)
		}
		checkTreeLegal(t, pr.StartPosition(), res.Tree)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

func checkTreeLegal(t *testing.T, pos *game.Position, tree *ProofTree) {
	t.Helper()
	for _, c := range tree.Children {
		next := pos.Copy()
		if err := next.Play(c.Move); err != nil {
			t.Fatalf("proof tree move %s: %v", pos.PointString(c.Move), err)
		}
		if c.Status == Win && c.Zone == nil {
			t.Errorf("won node %s without a zone", pos.PointString(c.Move))
		}
		checkTreeLegal(t, next, c)
	}
}

// TestUnprovenLineStall: an unproven root's line says at each visited node
// where the search stands: its moves are the position's legal moves (the
// killer's pass counted), as the game package lists them; no more are
// visited or refuted than there are, the line goes on where some are, a killer's node has at least one move
// left to refute and a living one none counted, the values are values, and
// the solution file's comments carry them.
func TestUnprovenLineStall(t *testing.T) {
	pr := sharedProblem(t, "cho19-dev", "061")
	res := Solve(context.Background(), pr, Options{Budget: 3000})
	if res.Status != Unknown {
		t.Fatalf("061 %v in %d nodes: want it unproven at this budget", res.Status, res.Nodes)
	}
	pos := pr.StartPosition()
	var moves []game.Point
	depth := 0 // the line's nodes checked: the root at depth 0
	for node := res.Tree; node.Stall != nil; {
		depth++
		st := node.Stall
		moves, _ = pos.LegalMovesSuperko(moves[:0], &pr.Region)
		want := len(moves)
		killer := pos.ToMove() != pr.Living()
		if killer {
			want++ // the pass
		}
		switch {
		case st.Moves != want:
			t.Fatalf("depth %d: %d moves, the position has %d", depth-1, st.Moves, want)
		case st.Visited > st.Moves || st.Refuted > st.Visited || (st.Visited == 0) != (len(node.Children) == 0 || node.Children[0].Visits == 0):
			t.Fatalf("depth %d: %d of %d visited, %d refuted", depth-1, st.Visited, st.Moves, st.Refuted)
		case killer && (st.Left < 1 || st.Left > st.Moves-st.Refuted):
			t.Fatalf("depth %d: the killer has %d of %d left with %d refuted", depth-1, st.Left, st.Moves, st.Refuted)
		case !killer && st.Left != 0:
			t.Fatalf("depth %d: the living side's node counts %d left", depth-1, st.Left)
		case st.LivingValue < 0 || st.LivingValue > 1:
			t.Fatalf("depth %d: living value %v", depth-1, st.LivingValue)
		}
		if len(node.Children) == 0 {
			break
		}
		node = node.Children[0] // an unproven node keeps one: its most visited
		if err := pos.Play(node.Move); err != nil {
			t.Fatalf("depth %d: %v", depth-1, err)
		}
	}
	if depth < 3 {
		t.Fatalf("a line of %d visited nodes after %d nodes", depth, res.Nodes)
	}
	var text strings.Builder
	if err := SolutionSGF(pr, res).Write(&text); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(text.String(), "moves visited"); got != depth {
		t.Errorf("the solution file reports %d nodes' standing, want the line's %d", got, depth)
	}
}
