package rzs

import (
	"context"
	"testing"

	"lifezero/game"
)

// Positions whose searches hold megabytes: the memory bound's reclaim needs
// a tree several times the arenas' first chunks (about 1 MB), or the bound
// is reached by those alone and the solver stops without reclaiming. They
// come from randomProblem (seed 21, 23; maxEmpty 16): the losses need 60k
// to 110k nodes with uniform priors and no zones or table, the win 80k
// with noise priors; the reference solves each in a few thousand nodes.
var (
	reclaimLoss143 = fixture{game.White, []string{"xo.XXx", "xX@@x,", ",@@..o", "..,X.o", ",o,..o", "x,,xo,"}}
	reclaimLoss303 = fixture{game.Black, []string{"o,.Ooo", ".X.Oo,", "O...xx", "X.Ox,x", "xOxxox", "o.xooo"}}
	reclaimLoss311 = fixture{game.White, []string{",,x,,o,", ",xoooo,", ",,,o,oo", "xx.oxoo", ".,XOX,x", "O..OX,x", "X...X.o"}}
	reclaimWin1102 = fixture{game.White, []string{",o..XX", "x,oO.X", "o,,oX.", ",,ooXX", ",,xx.O", ",,ooX,"}}
)

// TestReclaimAgreesWithReference: under a memory bound that the search
// reaches (a fraction of what the same search holds unbounded), the MCTS
// form reclaims (proven subtrees, unpromising subtrees that it expands
// again when it comes back, the transposition table, unused zones), and
// every result it still proves agrees with the exhaustive reference.
// Each case must reclaim; a proof after a reclaim must be found for a win
// and for a loss, and some search must go on differently after its
// reclaims than unbounded (it came back to subtrees it had freed), or the
// test would not tell a reclaim that loses or invents proofs. (Most
// reclaims here free only what the search never comes back to: the
// bounded search then takes exactly the unbounded one's nodes.)
func TestReclaimAgreesWithReference(t *testing.T) {
	uniform := Options{Evaluator: Uniform{}, NoRZ: true, NoTT: true}
	noise := Options{Evaluator: Learned{Base: Uniform{}, Ranker: noiseRanker{}}, NoRZ: true, NoTT: true}
	withThreads := func(o Options, n int) Options { o.Threads = n; return o }
	withBatch := func(o Options, n int) Options { o.Batch = n; return o }
	provedAfterReclaim := map[Status]int{}
	changed := 0
	for _, c := range []struct {
		name string
		f    fixture
		opts Options
		// frac is the bound as a fraction of the memory the unbounded
		// solve held at its end.
		frac float64
		long bool // left out of -short
	}{
		{"loss303-uniform-batch8", reclaimLoss303, withBatch(uniform, 8), 1.0, false},
		{"win1102-noise", reclaimWin1102, noise, 1.0, false},
		{"loss311-uniform", reclaimLoss311, uniform, 0.8, true},
		{"loss143-uniform", reclaimLoss143, uniform, 1.0, true},
		{"loss143-uniform-rz-tt", reclaimLoss143, Options{Evaluator: Uniform{}}, 1.0, true},
		{"win1102-noise-tight", reclaimWin1102, noise, 0.8, true},
		{"loss311-uniform-2threads", reclaimLoss311, withThreads(uniform, 2), 0.9, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long case")
			}
			pr := c.f.problem(t)
			ref, err := NewReference(pr, 200_000).Solve(pr.StartPosition(), pr.Crucial)
			if err != nil {
				t.Fatal(err)
			}
			opts := c.opts
			opts.Budget = 400_000
			free := Solve(context.Background(), pr, opts)
			opts.MaxMemory = int64(c.frac * float64(free.MemoryBytes))
			opts.MemorySolverOnly = true
			opts.defaults(pr)
			s := newMCTSSolver(pr, opts)
			res := s.run(context.Background())
			t.Logf("reference %v; unbounded %v in %d nodes holding %d bytes; bound %d: %v in %d nodes, %d reclaims freed %d bytes %s",
				ref, free.Status, free.Nodes, free.MemoryBytes, opts.MaxMemory, res.Status, res.Nodes, s.mem.reclaims, s.mem.reclaimed, res.Reason)
			if res.Status != Unknown && res.Status != ref {
				t.Fatalf("proved %v under a %d-byte bound after %d reclaims, the reference says %v:\n%v", res.Status, opts.MaxMemory, s.mem.reclaims, ref, pr.Start)
			}
			if s.mem.reclaims == 0 {
				t.Fatalf("no reclaim under a %d-byte bound: nothing tested", opts.MaxMemory)
			}
			if res.Status != Unknown {
				provedAfterReclaim[res.Status]++
			}
			if res.Nodes != free.Nodes {
				changed++
			}
		})
	}
	if provedAfterReclaim[Win] == 0 || provedAfterReclaim[Loss] == 0 {
		t.Errorf("proofs after a reclaim: %d wins, %d losses; want both", provedAfterReclaim[Win], provedAfterReclaim[Loss])
	}
	if changed == 0 {
		t.Errorf("no search went on differently after its reclaims: the proofs did not rest on what was freed and built again")
	}
}
