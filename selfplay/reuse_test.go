package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"lifezero/nn"
)

// countingNet evaluates each position on its own with a real network, so
// its outputs for a position do not depend on the batch in any build, and
// counts the positions it was sent.
type countingNet struct {
	e     *nn.Evaluator
	cfg   nn.Config
	calls atomic.Int64
}

func (c *countingNet) Forward(planes []float32, n int) ([][]float32, []float32, [][]float32, error) {
	c.calls.Add(int64(n))
	in := c.cfg.InputSize()
	policy, value, dwin := make([][]float32, n), make([]float32, n), make([][]float32, n)
	for i := range n {
		p, v, d, err := c.e.Forward(planes[i*in:(i+1)*in], 1)
		if err != nil {
			return nil, nil, nil, err
		}
		policy[i], value[i], dwin[i] = p[0], v[0], d[0]
	}
	return policy, value, dwin, nil
}

func newCountingNet(t *testing.T, cfg nn.Config) *countingNet {
	t.Helper()
	w, err := nn.NewWeights(cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	e, err := nn.NewEvaluator(w)
	if err != nil {
		t.Fatal(err)
	}
	return &countingNet{e: e, cfg: cfg}
}

// The evaluation cache changes no game (same moves with and without it)
// and sends fewer positions to the network; reusing the tree sends fewer
// still.
func TestCacheAndReuse(t *testing.T) {
	games := map[string][]string{}
	calls := map[string]int64{}
	for _, reuse := range []bool{false, true} {
		for _, cache := range []int{0, 1 << 12} {
			name := fmt.Sprintf("reuse=%v/cache=%d", reuse, cache)
			opts := killAllOptions(t, 4)
			opts.Simulations = 24
			opts.ReuseTree, opts.CacheEntries = reuse, cache
			net := newCountingNet(t, opts.Config)
			opts.Net, opts.NetName = net, "random"
			res, err := Run(context.Background(), t.TempDir(), opts)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, g := range res.Games {
				games[name] = append(games[name], g.SGF)
			}
			calls[name] = net.calls.Load()
			t.Logf("%s: %d positions evaluated", name, calls[name])
		}
	}
	for _, reuse := range []string{"reuse=false", "reuse=true"} {
		off, on := reuse+"/cache=0", reuse+fmt.Sprintf("/cache=%d", 1<<12)
		if !slices.Equal(games[off], games[on]) {
			t.Errorf("%s: the cache changed the games", reuse)
		}
		if calls[on] >= calls[off] {
			t.Errorf("%s: %d evaluations with the cache, %d without", reuse, calls[on], calls[off])
		}
	}
	if a, b := calls["reuse=true/cache=0"], calls["reuse=false/cache=0"]; a >= b {
		t.Errorf("reusing the tree: %d evaluations, %d without", a, b)
	}
}

// A search that adopts the subtree of the move played starts with that
// child's visits, and tops its root up to the simulations wanted.
func TestAdoptKeepsVisits(t *testing.T) {
	ka, err := KillAll(7)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, 7)
	p := &player{opts: &Options{LeavesPerGame: 1, Net: newCountingNet(t, cfg)}, cfg: cfg}
	bt := p.newBatcher(1)
	params := gameParams{sims: 40, dw: 40, maxMove: 98, alpha: 0.03, eps: 0.25}
	rng := rand.New(rand.NewPCG(3, 4))
	run := func(s *search) {
		for !s.core.Finished() {
			batch, err := p.collect(s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.evaluate(batch, bt); err != nil {
				t.Fatal(err)
			}
		}
	}
	pos := ka.Problem.StartPosition()
	s := newSearch(ka, pos.Copy(), ka.Problem.Crucial, &params, rng, nil)
	run(s)
	child := s.tree.MostVisited(0)
	move, visits := s.tree.Node(child).Move, s.tree.Node(child).Visits
	if err := pos.Play(move); err != nil {
		t.Fatal(err)
	}
	next := newSearch(ka, pos.Copy(), ka.Problem.Crucial, &params, rng, nil)
	next.adopt(s, child)
	if got := next.tree.Node(0).Visits; got != visits || next.core.Done() != int(visits) {
		t.Fatalf("adopted root: %d visits, %d done, want %d", got, next.core.Done(), visits)
	}
	if visits < 2 || int(visits) >= params.sims {
		t.Fatalf("test needs a child with 2..%d visits, got %d", params.sims-1, visits)
	}
	run(next)
	if got := next.tree.Node(0).Visits; int(got) != params.sims {
		t.Fatalf("after the search the root has %d visits, want %d", got, params.sims)
	}
	// Every visit of the old subtree is still there below the new root.
	var sum int32
	for _, c := range next.tree.Children(0) {
		sum += next.tree.Node(c).Visits
	}
	if int(sum) != params.sims-1 {
		t.Fatalf("children hold %d visits, want %d", sum, params.sims-1)
	}
}
