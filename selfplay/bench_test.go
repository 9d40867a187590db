//go:build unix

package selfplay

import (
	"context"
	"math/rand/v2"
	"testing"

	"lifezero/internal/cputime"
	"lifezero/nn"
)

// BenchmarkSelfPlay measures 7x7 kill-all games per hour with the 3x32
// network (random weights, seed 1) at 64 simulations a move, 16 games in
// two chunks of 8 on two workers: the settings of the long run in
// docs/results/ftl.md, so its figure can be compared. One op is a whole
// run of 16 games.
func BenchmarkSelfPlay(b *testing.B) {
	for _, preset := range []string{nn.Preset3x32, nn.Preset5x64} {
		b.Run(preset, func(b *testing.B) {
			c, err := nn.Preset(preset, 7)
			if err != nil {
				b.Fatal(err)
			}
			w, err := nn.NewWeights(c, 1)
			if err != nil {
				b.Fatal(err)
			}
			e, err := nn.NewEvaluator(w)
			if err != nil {
				b.Fatal(err)
			}
			ka, err := KillAll(7)
			if err != nil {
				b.Fatal(err)
			}
			o := DefaultOptions()
			o.Starts, o.Config, o.Net, o.NetName = []Start{ka}, c, e, "random-"+preset
			o.Games, o.Simulations, o.DW, o.GamesPerFile, o.Workers, o.Seed = 16, 64, 44, 8, 2, 101
			var moves int
			cpu := cputime.Process()
			for b.Loop() {
				res, err := Run(context.Background(), b.TempDir(), o)
				if err != nil {
					b.Fatal(err)
				}
				moves = 0
				for _, g := range res.Games {
					moves += g.EndMove
				}
			}
			cpu = cputime.Process() - cpu
			games := float64(b.N * o.Games)
			b.ReportMetric(games*3600/b.Elapsed().Seconds(), "games/h")
			b.ReportMetric(games*3600/cpu.Seconds(), "games/cpu-h")
			b.ReportMetric(float64(moves)/float64(o.Games), "moves/game")
		})
	}
}

// BenchmarkSearchLeaves measures the search's own cost per leaf, without a
// network: one op is a whole 256-simulation search of the 7x7 kill-all
// opening, 8 leaves a batch, evaluated by generation 0's UniformNet, the
// next search taking over the last one's tree as a game's does. allocs/op
// over leaves/op is the allocations per leaf.
func BenchmarkSearchLeaves(b *testing.B) {
	ka, err := KillAll(7)
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := nn.Preset(nn.Preset2x16, 7)
	if err != nil {
		b.Fatal(err)
	}
	p := &player{opts: &Options{LeavesPerGame: 8, Net: UniformNet{Config: cfg}, CacheEntries: 4096}, cfg: cfg}
	bt := p.newBatcher(1)
	params := gameParams{sims: 256, dw: 40, maxMove: 98, alpha: 0.03, eps: 0.25}
	rng := rand.New(rand.NewPCG(1, 2))
	var spare *search
	var batch []*leaf
	cpu := cputime.Process()
	for b.Loop() {
		pos := ka.Problem.StartPosition()
		s := newSearch(ka, pos, ka.Problem.Crucial, &params, rng, spare)
		for !s.core.Finished() {
			if batch, err = p.collect(s, batch[:0]); err != nil {
				b.Fatal(err)
			}
			if err := p.evaluate(batch, bt); err != nil {
				b.Fatal(err)
			}
		}
		spare = s
	}
	cpu = cputime.Process() - cpu
	b.ReportMetric(float64(bt.evaluated+bt.hits)/float64(b.N), "leaves/op")
	b.ReportMetric(cpu.Seconds()*1e6/float64(b.N), "cpu-µs/op")
}
