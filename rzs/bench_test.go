package rzs

import (
	"context"
	"testing"
)

// BenchmarkSolverNodes measures the MCTS solver's nodes per second on a
// shared 7x7 kill-all and a 19x19 problem, with a fixed budget.
func BenchmarkSolverNodes(b *testing.B) {
	for _, c := range []struct{ set, id string }{{"killall7x7", "01"}, {"cho19-dev", "001"}} {
		b.Run(c.set+"/"+c.id, func(b *testing.B) {
			for _, pr := range sharedProblemsB(b, c.set) {
				if pr.ID != c.id {
					continue
				}
				nodes := 0
				for b.Loop() {
					res := Solve(context.Background(), pr, Options{Budget: 20000})
					nodes += res.Nodes
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			}
		})
	}
}
