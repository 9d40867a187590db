package mcts

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDrawWeightedFrequencies draws many times from fixed weights and
// checks each index's count against its closed form n·w[i]/Σw: within five
// binomial standard deviations, and exactly zero for a weight of zero or
// less.
func TestDrawWeightedFrequencies(t *testing.T) {
	tests := []struct {
		name string
		w    []float64
	}{
		{"one", []float64{3}},
		{"uniform", []float64{1, 1, 1, 1}},
		{"skewed", []float64{0.01, 0.5, 2, 10}},
		{"zeros between", []float64{0, 5, 0, 1, 0}},
		{"negative counts as zero", []float64{-4, 2, 6, -1}},
		{"visit counts", []float64{61, 2, 0, 1, 0, 0}},
		{"zero last", []float64{0.6, 0.2, 0.9, 0}},
	}
	const n = 200000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			counts := drawCounts(tc.w, n, 7)
			checkCounts(t, tc.w, counts, n)
			// float32 weights give the same draws as their float64 values.
			w32 := make([]float32, len(tc.w))
			for i, x := range tc.w {
				w32[i] = float32(x)
			}
			r64, r32 := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
			w64 := make([]float64, len(w32))
			for i, x := range w32 {
				w64[i] = float64(x)
			}
			for range 1000 {
				if a, b := DrawWeighted(r64, w64), DrawWeighted(r32, w32); a != b {
					t.Fatalf("float64 drew %d, float32 drew %d", a, b)
				}
			}
		})
	}
}

// drawCounts counts n draws from w with a generator seeded by seed.
func drawCounts(w []float64, n int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0))
	counts := make([]int, len(w))
	for range n {
		counts[DrawWeighted(rng, w)]++
	}
	return counts
}

func checkCounts(t *testing.T, w []float64, counts []int, n int) {
	t.Helper()
	var sum float64
	for _, x := range w {
		sum += max(x, 0)
	}
	for i, x := range w {
		p := max(x, 0) / sum
		if p == 0 {
			if counts[i] != 0 {
				t.Errorf("weight %v at %d drawn %d times", x, i, counts[i])
			}
			continue
		}
		mean, sd := float64(n)*p, math.Sqrt(float64(n)*p*(1-p))
		if math.Abs(float64(counts[i])-mean) > 5*sd+1 {
			t.Errorf("index %d (p=%.4f) drawn %d times in %d, want %.0f ± %.0f", i, p, counts[i], n, mean, 5*sd+1)
		}
	}
}

// TestDrawWeightedNoMass: weights without positive mass give -1 and leave
// the generator untouched, so a caller's own fallback draw sees the same
// stream as if it had been called alone.
func TestDrawWeightedNoMass(t *testing.T) {
	for _, w := range [][]float64{nil, {}, {0}, {0, 0, 0}, {-1, 0, -2}, {1, math.NaN()}} {
		rng, twin := rand.New(rand.NewPCG(5, 6)), rand.New(rand.NewPCG(5, 6))
		if got := DrawWeighted(rng, w); got != -1 {
			t.Errorf("DrawWeighted(%v) = %d, want -1", w, got)
		}
		if a, b := rng.Uint64(), twin.Uint64(); a != b {
			t.Errorf("DrawWeighted(%v) used the generator", w)
		}
	}
}

// maxSource is a rand.Source whose every output is all ones, so that
// Float64 returns its largest value, 1-2⁻⁵³.
type maxSource struct{}

func (maxSource) Uint64() uint64 { return math.MaxUint64 }

// TestDrawWeightedRoundsToLastPositive: with u = 1-2⁻⁵³ and these weights
// the rest u·Σw stays above zero after every weight is subtracted (the
// sums round differently); the draw is then the last positive weight, not
// the zero weight after it.
func TestDrawWeightedRoundsToLastPositive(t *testing.T) {
	w := []float64{0.6, 0.2, 0.9, 0}
	rng := rand.New(maxSource{})
	// The premise: the walk really runs past the end here.
	u := rand.New(maxSource{}).Float64()
	r := u * (w[0] + w[1] + w[2])
	for _, x := range w {
		r -= x
	}
	if r < 0 {
		t.Fatalf("premise: rest %g after every weight, want >= 0", r)
	}
	if got := DrawWeighted(rng, w); got != 2 {
		t.Errorf("DrawWeighted(%v) at u=1-2⁻⁵³ = %d, want 2", w, got)
	}
}
