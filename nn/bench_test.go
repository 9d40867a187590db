package nn

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"lifezero/internal/cputime"
)

// forwarder is what both forward passes offer.
type forwarder interface {
	Forward(planes []float32, n int) ([][]float32, []float32, [][]float32, error)
}

// BenchmarkForward measures positions per second of the dedicated forward
// pass and the gorgonia graph, at batch 1 and 64, for the 3x32 and 5x64
// nets on 7x7 and 19x19.
func BenchmarkForward(b *testing.B) {
	for _, preset := range []string{Preset3x32, Preset5x64} {
		for _, board := range []int{7, 19} {
			c := testConfig(b, preset, board)
			w, err := NewWeights(c, 1)
			if err != nil {
				b.Fatal(err)
			}
			for _, batch := range []int{1, 64} {
				planes := randomPlanes(c, batch, rand.New(rand.NewPCG(1, 2)))
				oneHotMoves(c, planes, batch, rand.New(rand.NewPCG(3, 4)))
				name := fmt.Sprintf("%s/%dx%d/batch%d", preset, board, board, batch)
				b.Run("dedicated/"+name, func(b *testing.B) {
					e, err := NewEvaluator(w)
					if err != nil {
						b.Fatal(err)
					}
					benchForward(b, e, planes, batch)
				})
				b.Run("graph/"+name, func(b *testing.B) {
					ge, err := NewGraphEvaluator(w, batch)
					if err != nil {
						b.Fatal(err)
					}
					benchForward(b, ge, planes, batch)
				})
			}
		}
	}
}

// oneHotMoves makes the move-number planes of the n positions one-hot, as
// Config.Encode writes them (randomPlanes fills them with random bits).
func oneHotMoves(c Config, planes []float32, n int, rng *rand.Rand) {
	hw, in := c.Points(), c.InputSize()
	for s := range n {
		if c.MoveNumberPlanes == 0 {
			return
		}
		k := rng.IntN(c.MoveNumberPlanes)
		for m := range c.MoveNumberPlanes {
			p := planes[s*in+(NumFixedPlanes+m)*hw:][:hw]
			for i := range p {
				p[i] = 0
				if m == k {
					p[i] = 1
				}
			}
		}
	}
}

func benchForward(b *testing.B, f forwarder, planes []float32, batch int) {
	cpu := cputime.Process()
	for b.Loop() {
		if _, _, _, err := f.Forward(planes, batch); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, batch, cputime.Process()-cpu, "pos/s")
}

// reportRates reports items per wall-clock second and the CPU time per
// op, which is steadier when other processes share the cores.
func reportRates(b *testing.B, perOp int, cpu time.Duration, unit string) {
	b.ReportMetric(float64(b.N*perOp)/b.Elapsed().Seconds(), unit)
	if cpu > 0 {
		b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkTrainStep measures training samples per second: Step at batch
// 64 for the 3x32 and 5x64 nets on 7x7 (named by the preset alone) and
// 19x19.
func BenchmarkTrainStep(b *testing.B) {
	for _, bench := range []struct {
		preset string
		board  int
	}{{Preset3x32, 7}, {Preset5x64, 7}, {Preset3x32, 19}, {Preset5x64, 19}} {
		name := bench.preset
		if bench.board != 7 {
			name = fmt.Sprintf("%s-%dx%d", bench.preset, bench.board, bench.board)
		}
		b.Run(name, func(b *testing.B) {
			c := testConfig(b, bench.preset, bench.board)
			tr, err := NewTrainer(c, DefaultTrainOptions())
			if err != nil {
				b.Fatal(err)
			}
			batch := randomBatch(c, 64, rand.New(rand.NewPCG(1, 2)))
			if _, err := tr.Step(batch); err != nil { // builds the graph
				b.Fatal(err)
			}
			cpu := cputime.Process()
			for b.Loop() {
				if _, err := tr.Step(batch); err != nil {
					b.Fatal(err)
				}
			}
			reportRates(b, batch.N, cputime.Process()-cpu, "samples/s")
		})
	}
}
