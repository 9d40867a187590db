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
