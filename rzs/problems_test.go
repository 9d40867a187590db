package rzs

import (
	"context"
	"testing"

	"lifezero/game"
	"lifezero/internal/testdata"
)

// sharedProblems loads a shared problem set or skips.
func sharedProblems(t *testing.T, set string) []*game.Problem { return sharedProblemsB(t, set) }

func sharedProblemsB(t testing.TB, set string) []*game.Problem {
	t.Helper()
	probs, err := game.LoadProblemDir(testdata.Path(t, "problems", set))
	if err != nil {
		t.Fatal(err)
	}
	return probs
}

// TestSharedProblemsWinner is soundness test (c) with test (d): every
// shared problem the solver proves comes out as the file's winner (the
// living side in every shared file), and where the side to play wins and
// the file gives a book answer, the position after the solver's own first
// move is again proven a win. The budgets are small for CI; a few problems
// known to be solved within them make sure the test exercises proofs.
func TestSharedProblemsWinner(t *testing.T) {
	budget := 5000
	mustSolve := map[string]int{"killall7x7/01": 40000, "cho19-dev/005": 40000, "cho19-dev/009": 40000}
	solved, replayed := 0, 0
	for _, set := range []string{"killall7x7", "cho19-dev"} {
		for _, pr := range sharedProblems(t, set) {
			b := budget
			must := mustSolve[set+"/"+pr.ID]
			if must > 0 {
				b = must
			} else if testing.Short() {
				continue
			}
			res := Solve(context.Background(), pr, Options{Budget: b})
			if must > 0 && res.Status == Unknown {
				t.Errorf("%s/%s: unproven within %d nodes (was solved before)", set, pr.ID, b)
			}
			if res.Status == Unknown {
				continue
			}
			solved++
			if pr.Winner != pr.Living() || res.Status != Win {
				t.Errorf("%s/%s: solver says %v for living side %v, file's winner is %v", set, pr.ID, res.Status, pr.Living(), pr.Winner)
				continue
			}
			if pr.Answer == game.NoPoint || pr.Start.ToMove() != pr.Living() {
				continue
			}
			after := afterMove(t, pr, res.FirstMove)
			again := Solve(context.Background(), after, Options{Budget: b})
			if again.Status != Win {
				t.Errorf("%s/%s: after the solver's first move %s (book %s) the win is %v", set, pr.ID,
					pr.Start.PointString(res.FirstMove), pr.Start.PointString(pr.Answer), again.Status)
			}
			replayed++
		}
	}
	t.Logf("%d shared problems solved, all for the file's winner; %d re-solved after the first move", solved, replayed)
}

// afterMove returns the problem with its first move m played.
func afterMove(t *testing.T, pr *game.Problem, m game.Point) *game.Problem {
	t.Helper()
	next := *pr
	next.Start = pr.StartPosition()
	if err := next.Start.Play(m); err != nil {
		t.Fatalf("%s: solver's first move %s: %v", pr.ID, pr.Start.PointString(m), err)
	}
	next.Crucial = pr.Standing(next.Start, &pr.Crucial)
	return &next
}
