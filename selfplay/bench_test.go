//go:build unix

package selfplay

import (
	"context"
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
