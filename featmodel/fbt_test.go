package featmodel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

func TestFactorMachineScoreIsPairwiseSum(t *testing.T) {
	// y = Σ w_f + Σ_{f<g} <v_f, v_g>, checked against the explicit double
	// loop (the model computes it in O(|c|·k) by the square-of-sums form).
	w := []float64{0.5, -1, 2, 0.25}
	v := []float64{1, 2, -1, 0.5, 3, -2, 0, 1}
	m, err := NewFBTModel(w, v, 2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		c    Candidate
		want float64
	}{
		{Candidate{}, 0},
		{Candidate{0}, 0.5},
		{Candidate{0, 1}, 0.5 - 1 + (1*-1 + 2*0.5)},
		{Candidate{0, 1, 2}, 0.5 - 1 + 2 + (1*-1 + 2*0.5) + (1*3 + 2*-2) + (-1*3 + 0.5*-2)},
		{Candidate{3, 0, 99, -4}, 0.25 + 0.5 + (0*1 + 1*2)}, // unknown ids ignored
	}
	for _, tt := range tests {
		if got := m.Score(tt.c); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Score(%v) = %v, want %v", tt.c, got, tt.want)
		}
	}
	if got := m.Interaction(1, 2); got != -1*3+0.5*-2 {
		t.Errorf("Interaction(1, 2) = %v, want -4", got)
	}
}

func TestLFRAndFBTBeatRandomRanking(t *testing.T) {
	rng := newRand(3)
	_, gen := btTruth(rng, 40, 20, 1)
	trainSet, testSet := gen.samples(rng, 4000), gen.samples(rng, 2000)
	oracle := top1(testSet, gen.logStrength)
	const random = 1.0 / 20 // expected top-1 of a uniformly random ranking
	lfr, err := TrainLFR(context.Background(), trainSet, DefaultLFRConfig(), newRand(1))
	if err != nil {
		t.Fatal(err)
	}
	fbt, err := TrainFBT(context.Background(), trainSet, DefaultFBTConfig(), newRand(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Model{lfr, fbt} {
		// The true model is the best any ranker can do on average; ask for
		// at least 80% of its gain over random ranking.
		got := top1(testSet, m.Score)
		t.Logf("held-out top-1: %s %.3f, true model %.3f, random %.3f", m.Name(), got, oracle, random)
		if got < random+0.8*(oracle-random) {
			t.Errorf("%s top-1 %.3f on held-out data: want near the true model's %.3f, far above random %.3f", m.Name(), got, oracle, random)
		}
	}
}

// interactionSynth has two features, A = 0 and B = 1, that are weak alone
// (ln-strength −1 each) and strong together (+2 in all): BT, being
// log-additive, cannot represent it. Features 2..21 carry random
// log-strengths of their own.
func interactionSynth(rng *rand.Rand) synth {
	const a, b = 0, 1
	noise := make([]float64, 22)
	for i := 2; i < len(noise); i++ {
		noise[i] = 0.5 * rng.NormFloat64()
	}
	return synth{
		candidates: 10,
		draw: func(r *rand.Rand) Candidate {
			c := drawDistinct(1, 2, 2, 22)(r)
			if r.Float64() < 0.25 {
				c = append(c, a)
			}
			if r.Float64() < 0.25 {
				c = append(c, b)
			}
			return c
		},
		logStrength: func(c Candidate) float64 {
			s := 0.0
			hasA, hasB := containsFeature(c, a), containsFeature(c, b)
			for _, f := range c {
				s += noise[f]
			}
			if hasA {
				s--
			}
			if hasB {
				s--
			}
			if hasA && hasB {
				s += 4
			}
			return s
		},
	}
}

func TestFBTRecoversPlantedInteraction(t *testing.T) {
	rng := newRand(8)
	gen := interactionSynth(rng)
	trainSet, testSet := gen.samples(rng, 4000), gen.samples(rng, 2000)
	bt, err := TrainBT(context.Background(), trainSet, DefaultBTConfig())
	if err != nil {
		t.Fatal(err)
	}
	fbt, err := TrainFBT(context.Background(), trainSet, DefaultFBTConfig(), newRand(2))
	if err != nil {
		t.Fatal(err)
	}
	btAcc, fbtAcc := top1(testSet, bt.Score), top1(testSet, fbt.Score)
	if fbtAcc < btAcc+0.05 {
		t.Errorf("held-out top-1: FBT %.3f, BT %.3f; want FBT ahead by 0.05", fbtAcc, btAcc)
	}
	btLL, fbtLL := meanLogLikelihood(testSet, bt.Score), meanLogLikelihood(testSet, fbt.Score)
	t.Logf("held-out top-1 / mean log-likelihood: BT %.3f / %.3f, FBT %.3f / %.3f, true model %.3f / %.3f",
		btAcc, btLL, fbtAcc, fbtLL, top1(testSet, gen.logStrength), meanLogLikelihood(testSet, gen.logStrength))
	if fbtLL <= btLL {
		t.Errorf("held-out mean log-likelihood: FBT %.3f, BT %.3f; want FBT higher", fbtLL, btLL)
	}
	// The planted interaction is +4: FBT should find a large <v_A, v_B>,
	// the largest of all pairs, with A and B weak on their own.
	ab := fbt.Interaction(0, 1)
	t.Logf("FBT: <v_A, v_B> = %.3f, w_A = %.3f, w_B = %.3f", ab, fbt.Weight(0), fbt.Weight(1))
	if ab < 2 {
		t.Errorf("<v_A, v_B> = %.3f, want about 4", ab)
	}
	for f := range int32(22) {
		for g := f + 1; g < 22; g++ {
			if (f != 0 || g != 1) && fbt.Interaction(f, g) >= ab {
				t.Errorf("<v_%d, v_%d> = %.3f is not below <v_A, v_B> = %.3f", f, g, fbt.Interaction(f, g), ab)
			}
		}
	}
	if wa, wb := fbt.Weight(0), fbt.Weight(1); wa >= 0 || wb >= 0 {
		t.Errorf("w_A = %.3f, w_B = %.3f: want both negative (weak alone)", wa, wb)
	}
}
