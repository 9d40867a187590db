package rzs

import (
	"context"
	"math"
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

// TestUnprovenLineStall checks what an unproven root's line says of each
// visited node. Its moves are the legal moves the game package lists for
// the position (the killer's pass counted); no more are visited or
// refuted than there are; the line goes on exactly where some are
// visited. A killer's node with a move left to refute short of all its
// moves must have refuted one (its must-play region shrinks only then),
// and a living node with every move refuted would be lost, not on the
// line. The values follow the backups: a parent's living value differs
// from its line child's by at most the share of its visits that went
// elsewhere (a value read from the wrong side would differ by |1-2v|,
// which the line's nearly forced killer nodes show). The solution
// file's comments carry every node's standing.
func TestUnprovenLineStall(t *testing.T) {
	pr := sharedProblem(t, "cho19-dev", "061")
	res := Solve(context.Background(), pr, Options{Budget: 20000, Evaluator: LDB(), Safety: true, DepthDiscount: 0.9, ProofBonus: 0.1})
	if res.Status != Unknown {
		t.Fatalf("061 %v in %d nodes: want it unproven at this budget", res.Status, res.Nodes)
	}
	pos := pr.StartPosition()
	var moves []game.Point
	nodes, compared := 0, 0
	for node := res.Tree; node.Stall != nil; {
		at := nodes // the node's depth on the line
		nodes++
		st := node.Stall
		moves, _ = pos.LegalMovesSuperko(moves[:0], &pr.Region)
		want := len(moves)
		killer := pos.ToMove() != pr.Living()
		if killer {
			want++ // the pass
		}
		goesOn := len(node.Children) > 0 && node.Children[0].Visits > 0
		switch {
		case !st.Expanded:
			t.Fatalf("ply %d: not expanded after %d visits", at, node.Visits)
		case st.Moves != want:
			t.Fatalf("ply %d: %d moves, the position has %d", at, st.Moves, want)
		case st.Visited > st.Moves || st.Refuted > st.Visited:
			t.Fatalf("ply %d: %d of %d moves visited, %d refuted", at, st.Visited, st.Moves, st.Refuted)
		case (st.Visited > 0) != goesOn:
			t.Fatalf("ply %d: %d moves visited, and the line goes on: %t", at, st.Visited, goesOn)
		case killer && (st.Left < 1 || st.Left > st.Moves-st.Refuted):
			t.Fatalf("ply %d: the killer has %d of %d moves left with %d refuted", at, st.Left, st.Moves, st.Refuted)
		case killer && st.Left < st.Moves && st.Refuted == 0:
			t.Fatalf("ply %d: the killer's %d moves cut to %d with none refuted", at, st.Moves, st.Left)
		case !killer && st.Refuted >= st.Moves:
			t.Fatalf("ply %d: every living move refuted on an unproven node", at)
		case st.LivingValue < 0 || st.LivingValue > 1:
			t.Fatalf("ply %d: living value %v", at, st.LivingValue)
		}
		if !goesOn {
			break
		}
		child := node.Children[0]
		if child.Stall != nil {
			// The parent's mean is the child's with the other visits'
			// values (each in [0,1]) mixed in at their share; the slack
			// is for the tree's float32 sums.
			others := 1 - float64(child.Visits)/float64(node.Visits)
			if d := math.Abs(st.LivingValue - child.Stall.LivingValue); d > others+1e-3 {
				t.Fatalf("ply %d: living value %.3f, its child with %d of its %d visits %.3f",
					at, st.LivingValue, child.Visits, node.Visits, child.Stall.LivingValue)
			}
			if math.Abs(1-2*child.Stall.LivingValue) > others+0.01 {
				compared++ // a pair where a flipped value would show
			}
		}
		if err := pos.Play(child.Move); err != nil {
			t.Fatalf("ply %d: %v", at, err)
		}
		node = child
	}
	if nodes < 3 || compared == 0 {
		t.Fatalf("a line of %d visited nodes (%d values that would show a flip) after %d nodes", nodes, compared, res.Nodes)
	}
	var text strings.Builder
	if err := SolutionSGF(pr, res).Write(&text); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(text.String(), "moves visited"); got != nodes {
		t.Errorf("the solution file reports %d nodes' standing, want the line's %d", got, nodes)
	}
}
