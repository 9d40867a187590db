package rzs

import (
	"context"
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// TestDFSBudget: the depth-first solver visits at most its budget.
func TestDFSBudget(t *testing.T) {
	pr := sharedProblem(t, "killall7x7", "03")
	for _, budget := range []int{1, 100, 5000} {
		res := SolveDFS(context.Background(), pr, Options{Budget: budget})
		if res.Status != Unknown || res.Nodes != budget {
			t.Errorf("budget %d: %v after %d nodes, want unknown after exactly %d", budget, res.Status, res.Nodes, budget)
		}
	}
	// A problem solved in n nodes is solved with a budget of n, not n-1.
	rng := rand.New(rand.NewPCG(4, 4))
	checked := 0
	for tries := 0; tries < 200 && checked < 5; tries++ {
		pr := randomProblem(rng, 10)
		full := SolveDFS(context.Background(), pr, Options{Budget: 100_000})
		if full.Status == Unknown || full.Nodes < 10 {
			continue
		}
		checked++
		if res := SolveDFS(context.Background(), pr, Options{Budget: full.Nodes}); res.Status != full.Status || res.Nodes != full.Nodes {
			t.Errorf("budget %d: %v after %d nodes, want %v", full.Nodes, res.Status, res.Nodes, full.Status)
		}
		if res := SolveDFS(context.Background(), pr, Options{Budget: full.Nodes - 1}); res.Status != Unknown || res.Nodes != full.Nodes-1 {
			t.Errorf("budget %d: %v after %d nodes, want unknown after %d", full.Nodes-1, res.Status, res.Nodes, full.Nodes-1)
		}
	}
	if checked == 0 {
		t.Fatal("no random problem solved")
	}
}

// TestDFSHistoryDependentProofs: a result that rests on the path's superko
// history stays out of the depth-first solver's transposition table, as in
// the MCTS solver. Positions are sought where a move is barred by
// positional superko alone and the reference solver's answer with the
// history differs from the answer without it; the depth-first solver,
// having searched the position with its history, must still answer the
// position without history as a fresh search does.
func TestDFSHistoryDependentProofs(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	found := 0
	for tries := 0; tries < 20000 && found < 8; tries++ {
		pr := randomProblem(rng, 10)
		pos := pr.StartPosition()
		standing := pr.Crucial
		for step := 0; step < 10; step++ {
			moves := pos.LegalMoves(nil, &pr.Region)
			if len(moves) == 0 {
				break
			}
			if err := pos.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
			standing = pr.Standing(pos, &standing)
			if pr.Judge(pos, &standing).Outcome != game.Undecided {
				break
			}
			if _, barred := pos.LegalMovesSuperko(nil, &pr.Region); barred == 0 {
				continue
			}
			clean := pos.Copy()
			clean.ClearHistory()
			if clean.Hash() != pos.Hash() {
				continue // passes differ: another position for the table
			}
			withHistory, err1 := NewReference(pr, 100_000).Solve(pos, standing)
			fresh, err2 := NewReference(pr, 100_000).Solve(clean, standing)
			if err1 != nil || err2 != nil || withHistory == fresh {
				continue
			}
			found++
			opts := Options{Budget: 1_000_000}
			opts.defaults(pr)
			d := newDFSSolver(context.Background(), pr, opts)
			if _, _, _, err := d.search(pos, standing, 0); err != nil {
				t.Fatal(err)
			}
			st, _, _, err := d.search(clean, standing, 0)
			if err != nil {
				t.Fatal(err)
			}
			if st != Unknown && st != fresh {
				t.Fatalf("after searching the position with its history (%v there), the depth-first solver says %v without history, the reference %v:\n%v",
					withHistory, st, fresh, clean)
			}
		}
	}
	if found == 0 {
		t.Fatal("no position found whose result depends on its superko history")
	}
	t.Logf("%d history-dependent positions checked", found)
}
