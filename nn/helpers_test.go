package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// testConfig returns a preset, failing the test on error.
func testConfig(t testing.TB, preset string, board int) Config {
	t.Helper()
	c, err := Preset(preset, board)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// randomPlanes returns n inputs with a random legal-looking stone layout
// (own, opponent and empty planes consistent) and random 0/1 other planes.
func randomPlanes(c Config, n int, rng *rand.Rand) []float32 {
	out := make([]float32, n*c.InputSize())
	hw := c.Points()
	for s := 0; s < n; s++ {
		x := out[s*c.InputSize() : (s+1)*c.InputSize()]
		for i := 0; i < hw; i++ {
			x[rng.IntN(3)*hw+i] = 1 // own, opponent or empty
		}
		for p := PlaneBlackToMove; p < c.Planes(); p++ {
			for i := 0; i < hw; i++ {
				x[p*hw+i] = float32(rng.IntN(2))
			}
		}
	}
	return out
}

// randomBatch returns a batch with random inputs and valid random targets.
func randomBatch(c Config, n int, rng *rand.Rand) Batch {
	b := Batch{N: n, Planes: randomPlanes(c, n, rng),
		Policy: make([]float32, n*c.PolicySize()), Value: make([]float32, n),
		DWin: make([]float32, n*c.D), DMask: make([]float32, n)}
	for i := 0; i < n; i++ {
		b.Policy[i*c.PolicySize()+rng.IntN(c.PolicySize())] = 1
		b.Value[i] = float32(rng.Float64()*2 - 1)
		k := rng.IntN(c.D + 1)
		for d := k; d < c.D; d++ {
			b.DWin[i*c.D+d] = 1
		}
		b.DMask[i] = float32(rng.IntN(2))
	}
	return b
}

// trainedWeights takes a few steps on random batches so that every
// parameter and batch-norm statistic is non-trivial.
func trainedWeights(t testing.TB, c Config, steps, batch int, seed uint64) *Weights {
	t.Helper()
	opts := DefaultTrainOptions()
	opts.Seed = seed
	tr, err := NewTrainer(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for range steps {
		if _, err := tr.Step(randomBatch(c, batch, rng)); err != nil {
			t.Fatal(err)
		}
	}
	return tr.Weights()
}

// maxDiff returns the largest absolute difference between two outputs.
func maxDiff(p1, p2 [][]float32, v1, v2 []float32, d1, d2 [][]float32) float64 {
	var m float64
	for i := range v1 {
		m = max(m, math.Abs(float64(v1[i]-v2[i])))
		for j := range p1[i] {
			m = max(m, math.Abs(float64(p1[i][j]-p2[i][j])))
		}
		for j := range d1[i] {
			m = max(m, math.Abs(float64(d1[i][j]-d2[i][j])))
		}
	}
	return m
}

// checkNumericGradient compares grad, the gradient of loss with respect to
// v, with central differences of step h at samples random elements of v,
// each within tol relative to the numeric value (absolute below 1).
func checkNumericGradient(t *testing.T, rng *rand.Rand, name string, v []float64, grad []float32, loss func() float64, h, tol float64, samples int) {
	t.Helper()
	for range samples {
		j := rng.IntN(len(v))
		old := v[j]
		v[j] = old + h
		up := loss()
		v[j] = old - h
		down := loss()
		v[j] = old
		num := (up - down) / (2 * h)
		if math.Abs(num-float64(grad[j])) > tol*max(1, math.Abs(num)) {
			t.Errorf("d%s[%d] = %v, numeric %v", name, j, grad[j], num)
		}
	}
}
