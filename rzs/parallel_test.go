package rzs

import (
	"context"
	"testing"

	"lifezero/game"
)

// TestThreadsProveSharedProblems solves real problems with two workers on
// one tree and checks each proof against the file's winner and the
// sequential search: the parallel form changes the order of the search,
// never what it proves. Run it with -race to check the locking.
func TestThreadsProveSharedProblems(t *testing.T) {
	forSharedProofs(t, func(t *testing.T, pr *game.Problem, seq Result) {
		par := Solve(context.Background(), pr, Options{Budget: 200000, Evaluator: LDB(), Threads: 2})
		if par.Status != seq.Status {
			t.Fatalf("two threads: %v in %d nodes, sequential: %v in %d nodes", par.Status, par.Nodes, seq.Status, seq.Nodes)
		}
		if want := pr.Winner == pr.Living(); (par.Status == Win) != want {
			t.Fatalf("two threads prove %v, the file's winner is %v", par.Status, pr.Winner)
		}
		if par.FirstMove == game.NoPoint {
			t.Fatalf("two threads proved %v without a first move", par.Status)
		}
		t.Logf("%s: sequential %d nodes, two threads %d nodes", pr.ID, seq.Nodes, par.Nodes)
	})
}

// forSharedProofs solves a few real problems (one 7x7 kill-all, two
// cho19-dev) with the sequential one-leaf search, which must prove each,
// and hands each problem and that proof to check, which solves it another
// way and compares.
func forSharedProofs(t *testing.T, check func(t *testing.T, pr *game.Problem, seq Result)) {
	t.Helper()
	cases := []struct{ set, id string }{{"killall7x7", "01"}, {"cho19-dev", "035"}, {"cho19-dev", "027"}}
	for _, c := range cases {
		t.Run(c.set+"/"+c.id, func(t *testing.T) {
			for _, pr := range sharedProblems(t, c.set) {
				if pr.ID != c.id {
					continue
				}
				seq := Solve(context.Background(), pr, Options{Budget: 200000, Evaluator: LDB()})
				if seq.Status == Unknown {
					t.Fatalf("sequential one-leaf search did not prove %s in %d nodes", pr.ID, seq.Nodes)
				}
				check(t, pr, seq)
			}
		})
	}
}
