package rzs

import (
	"context"
	"reflect"
	"testing"
)

// evaluateOnly hides an evaluator's PriorRefiner methods, so the solver
// evaluates each leaf in full.
type evaluateOnly struct{ Evaluator }

// TestRefinedLaterSearchesTheSame: the MCTS form refines a PriorRefiner's
// priors only when it first chooses among a node's children, and the
// search must be node for node the one that evaluates every leaf in full:
// the same result, nodes, first move, table counts and searched tree, on
// kill-all and 19x19 problems, proven and not, with and without the
// pattern table, one leaf at a time and in batches.
func TestRefinedLaterSearchesTheSame(t *testing.T) {
	// The noise ranker at a small weight leaves LDB's order nearly
	// intact, so some of these are proven; at weight 3 none is.
	cases := []struct {
		set, id string
		budget  int
		weight  float64
		table   bool
		batch   int
	}{
		{"killall7x7", "01", 100_000, 0.1, false, 0},
		{"killall7x7", "03", 20_000, 3, true, 0},
		{"killall7x7", "08", 10_000, 3, true, 4},
		{"cho19-dev", "001", 30_000, 0.1, true, 0},
		{"cho19-dev", "027", 20_000, 0.1, false, 0},
		{"cho19-dev", "055", 10_000, 3, true, 0},
	}
	for _, c := range cases {
		t.Run(c.set+"/"+c.id, func(t *testing.T) {
			pr := sharedProblem(t, c.set, c.id)
			learned := Learned{Base: LDB(), Ranker: noiseRanker{}, Weight: c.weight}
			solve := func(ev Evaluator) Result {
				opts := Options{Budget: c.budget, Evaluator: ev, Batch: c.batch}
				if c.table {
					opts.Table = NewTreeTable(pr, TableOptions{})
				}
				return Solve(context.Background(), pr, opts)
			}
			later, full := solve(learned), solve(evaluateOnly{learned})
			if later.Status != full.Status || later.Nodes != full.Nodes || later.FirstMove != full.FirstMove ||
				later.TTHits != full.TTHits || later.TableHits != full.TableHits {
				t.Fatalf("refined later: %v in %d nodes, first %v, %d tt and %d table hits; in full: %v in %d nodes, first %v, %d and %d",
					later.Status, later.Nodes, later.FirstMove, later.TTHits, later.TableHits,
					full.Status, full.Nodes, full.FirstMove, full.TTHits, full.TableHits)
			}
			if !reflect.DeepEqual(later.Tree, full.Tree) {
				t.Fatal("the searched trees differ")
			}
			t.Logf("%v in %d nodes both ways", later.Status, later.Nodes)
		})
	}
}
