package mcts

import (
	"math"
	"math/rand/v2"
)

// AddDirichletNoise mixes Dirichlet(alpha) noise into priors with weight eps,
// as AlphaZero does at the root of self-play searches (the reference
// training used alpha 0.03, eps 0.25).
func AddDirichletNoise(priors []float32, alpha, eps float64, rng *rand.Rand) {
	if len(priors) == 0 {
		return
	}
	noise := make([]float64, len(priors))
	sum := 0.0
	for i := range noise {
		noise[i] = gammaSample(alpha, rng)
		sum += noise[i]
	}
	if sum == 0 {
		return
	}
	for i := range priors {
		priors[i] = float32((1-eps)*float64(priors[i]) + eps*noise[i]/sum)
	}
}

// gammaSample draws from Gamma(alpha, 1) by Marsaglia and Tsang, with the
// alpha < 1 boost.
func gammaSample(alpha float64, rng *rand.Rand) float64 {
	if alpha < 1 {
		u := rng.Float64()
		return gammaSample(alpha+1, rng) * math.Pow(u, 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
