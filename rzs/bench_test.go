package rzs

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkSolverNodes measures the MCTS solver's nodes per second on a
// shared 7x7 kill-all and a 19x19 problem, with a fixed budget, for each
// built-in evaluator that orders a real solve.
func BenchmarkSolverNodes(b *testing.B) {
	evaluators := []struct {
		name string
		eval Evaluator
	}{{"heuristic", Heuristic{}}, {"ld", LD{}}, {"ldb", LDB()}, {"ldb+playouts4", Playouts{Inner: LDB(), N: 4, Weight: 0.5}}}
	for _, c := range []struct{ set, id string }{{"killall7x7", "01"}, {"cho19-dev", "001"}} {
		for _, e := range evaluators {
			b.Run(c.set+"/"+c.id+"/"+e.name, func(b *testing.B) { benchSolve(b, c.set, c.id, e.eval) })
		}
	}
}

func benchSolve(b *testing.B, set, id string, eval Evaluator) {
	for _, pr := range sharedProblemsB(b, set) {
		if pr.ID != id {
			continue
		}
		nodes := 0
		for b.Loop() {
			res := Solve(context.Background(), pr, Options{Budget: 20000, Evaluator: eval})
			nodes += res.Nodes
		}
		b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	}
}

// BenchmarkPlayouts measures the Monte-Carlo playouts of the value alone
// (rzs.Playouts): four from each problem's start position, as one
// evaluation with --playouts 4 runs them.
func BenchmarkPlayouts(b *testing.B) {
	for _, c := range []struct{ set, id string }{{"killall7x7", "01"}, {"cho19-dev", "061"}} {
		b.Run(c.set+"/"+c.id, func(b *testing.B) {
			for _, pr := range sharedProblemsB(b, c.set) {
				if pr.ID != c.id {
					continue
				}
				pos := pr.StartPosition()
				for b.Loop() {
					playoutValue(pos, pr, 4)
				}
			}
		})
	}
}

// BenchmarkSolverThreads measures the parallel MCTS form's nodes per
// second with one and two threads on one 19x19 problem (ldb, fixed budget):
// on an idle machine with two cores the ratio is its speed-up.
func BenchmarkSolverThreads(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("cho19-dev/001/threads=%d", threads), func(b *testing.B) {
			for _, pr := range sharedProblemsB(b, "cho19-dev") {
				if pr.ID != "001" {
					continue
				}
				nodes := 0
				for b.Loop() {
					nodes += Solve(context.Background(), pr, Options{Budget: 40000, Evaluator: LDB(), Threads: threads}).Nodes
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			}
		})
	}
}
