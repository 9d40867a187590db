package rzs

import (
	"context"
	"testing"

	"lifezero/game"
)

// TestEvaluatorsAllocateOnlyPriors checks that the built-in evaluators
// allocate nothing per call but the priors they return: they run at every
// node of a solve. The positions are the shared problems' starts, 7x7 and
// 19x19.
func TestEvaluatorsAllocateOnlyPriors(t *testing.T) {
	for _, set := range []string{"killall7x7", "cho19-dev"} {
		pr := sharedProblems(t, set)[0]
		pos := pr.Start
		moves, _ := pos.LegalMovesSuperko(nil, &pr.Region)
		moves = append(moves, game.Pass)
		for _, e := range []struct {
			name string
			eval Evaluator
		}{{"heuristic", Heuristic{}}, {"ld", LD{}}, {"ldb", LDB()}, {"ld-probe", LD{Probe: true}}} {
			if n := testing.AllocsPerRun(10, func() { e.eval.Evaluate(pos, pr, moves) }); n != 1 {
				t.Errorf("%s/%s: %s allocates %.1f times per call, want 1 (the priors)", set, pr.ID, e.name, n)
			}
		}
	}
}

// TestSolverAllocationsPerNode bounds the MCTS solver's heap allocations
// per node: the evaluator's priors, and the arenas' and tables' amortised
// growth. Before the per-node costs were removed a node cost about 100.
func TestSolverAllocationsPerNode(t *testing.T) {
	for _, c := range []struct{ set, id string }{{"killall7x7", "01"}, {"cho19-dev", "001"}} {
		for _, pr := range sharedProblems(t, c.set) {
			if pr.ID != c.id {
				continue
			}
			var nodes int
			allocs := testing.AllocsPerRun(1, func() {
				nodes = Solve(context.Background(), pr, Options{Budget: 3000, Evaluator: LDB()}).Nodes
			})
			if per := allocs / float64(nodes); per > 1.5 {
				t.Errorf("%s/%s: %.0f allocations over %d nodes, %.2f per node, want at most 1.5", c.set, c.id, allocs, nodes, per)
			} else {
				t.Logf("%s/%s: %.2f allocations per node (%d nodes)", c.set, c.id, per, nodes)
			}
		}
	}
}
