package featmodel

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// scoredTrainer returns an LFR trainer over a model whose feature f scores
// ys[f] (no interactions), and the sample whose candidate i is feature i.
func scoredTrainer(t *testing.T, ys []float64, played int, sampling string, negatives int, temperature float64) (*lfrTrainer, *Sample) {
	t.Helper()
	m, err := NewLFRModel(ys, make([]float64, len(ys)), 1)
	if err != nil {
		t.Fatal(err)
	}
	s := &Sample{Played: played}
	for f := range ys {
		s.Candidates = append(s.Candidates, Candidate{int32(f)})
	}
	return &lfrTrainer{fm: &m.factorMachine, rng: newRand(5), sampling: sampling, negatives: negatives,
		temperature: temperature, sumA: make([]float64, 1), sumB: make([]float64, 1)}, s
}

func TestSoftmaxSamplingDrawsByScore(t *testing.T) {
	// Candidate 0 is played; the others score 0, 1, 2 and 2, so each draw
	// should pick one with probability ∝ exp(y/T), never the played move.
	ys := []float64{5, 0, 1, 2, 2}
	for _, temperature := range []float64{1, 2, 0.5} {
		tr, s := scoredTrainer(t, ys, 0, SamplingSoftmax, 20000, temperature)
		tr.drawSoftmax(s)
		if len(tr.others) != 20000 || tr.weights != nil {
			t.Fatalf("T=%g: %d negatives (weights %v), want 20000 of weight 1", temperature, len(tr.others), tr.weights != nil)
		}
		count := make([]int, len(ys))
		for _, o := range tr.others {
			count[o]++
		}
		z := 0.0
		for _, y := range ys[1:] {
			z += math.Exp(y / temperature)
		}
		if count[0] != 0 {
			t.Errorf("T=%g: drew the played move %d times", temperature, count[0])
		}
		for i := 1; i < len(ys); i++ {
			got, want := float64(count[i])/20000, math.Exp(ys[i]/temperature)/z
			if math.Abs(got-want) > 0.015 {
				t.Errorf("T=%g: candidate %d drawn %.3f of the time, want %.3f", temperature, i, got, want)
			}
		}
	}
}

func TestWARPSamplingFindsViolatorsAndWeightsByRank(t *testing.T) {
	tests := []struct {
		name       string
		ys         []float64 // candidate 0 is played
		negatives  int
		violators  []int   // the moves within the margin of the played one
		pairs      int     // how many of them it should pair
		wantWeight float64 // the weight of each pair
	}{
		// Every other move outscores the played one: the first draw
		// violates, so the rank estimate is all 5 others: L(5) = 137/60.
		{"played last", []float64{-3, 0, 0, 0, 0, 0}, 1, []int{1, 2, 3, 4, 5}, 1, 137.0 / 60},
		// Two of five others score within the margin (0.5 > 1−1, and 2 > 0):
		// searching for 5 exhausts the others, so V̂ = 2 exactly and the
		// two pairs share L(2) = 1.5.
		{"two violators", []float64{1, 0.5, -1, 2, -5, -0.5}, 5, []int{1, 3}, 2, 0.75},
		// Nothing within the margin: no pair, no step.
		{"played far ahead", []float64{3, 1, 0, -2}, 4, nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, s := scoredTrainer(t, tt.ys, 0, SamplingWARP, tt.negatives, 1)
			tr.drawWARP(s)
			if len(tr.others) != tt.pairs || len(tr.weights) != tt.pairs {
				t.Fatalf("%d pairs, %d weights, want %d", len(tr.others), len(tr.weights), tt.pairs)
			}
			seen := map[int]bool{}
			for i, o := range tr.others {
				if !slices.Contains(tt.violators, o) || seen[o] {
					t.Errorf("paired %v: want distinct moves of %v", tr.others, tt.violators)
				}
				seen[o] = true
				if w := tr.weights[i]; math.Abs(w-tt.wantWeight) > 1e-12 {
					t.Errorf("weight %v, want %v", w, tt.wantWeight)
				}
			}
		})
	}
}

// nearFarSynth has a few plausible moves among many hopeless ones, as in Go:
// each position has 4 "near" moves (feature 1 and one id of 10..29) and 96
// "far" moves (feature 0, log-strength −6, and a neutral id of 2..9). Among
// the near moves' ids, 10..19 are common (drawn 9 times in 10) and weak,
// 20..29 rare and strong. Pairs of the played (near) move with a uniformly
// drawn other move are mostly near-far pairs: they push up the ids of the
// played moves by how often they are played, which favours the common weak
// ids, and rarely compare two near moves.
func nearFarSynth(rng *rand.Rand) synth {
	strength := make([]float64, 30)
	strength[0] = -6
	for f := 10; f < 30; f++ {
		strength[f] = 0.5 * rng.NormFloat64()
		if f < 20 {
			strength[f]--
		} else {
			strength[f]++
		}
	}
	const near, candidates = 4, 100
	n := 0 // candidates drawn so far in the position: the first ones are near
	return synth{
		candidates: candidates,
		draw: func(r *rand.Rand) Candidate {
			n = (n + 1) % candidates
			switch {
			case n > near || n == 0:
				return Candidate{0, 2 + r.Int32N(8)}
			case r.Float64() < 0.9:
				return Candidate{1, 10 + r.Int32N(10)}
			}
			return Candidate{1, 20 + r.Int32N(10)}
		},
		logStrength: func(c Candidate) float64 {
			s := 0.0
			for _, f := range c {
				s += strength[f]
			}
			return s
		},
	}
}

func TestHardSamplingSeparatesThePlausibleMoves(t *testing.T) {
	rng := newRand(11)
	gen := nearFarSynth(rng)
	trainSet, testSet := gen.samples(rng, 2000), gen.samples(rng, 2000)
	oracle := top1(testSet, gen.logStrength)
	const random = 1.0 / 4 // a ranker that only knows near from far
	tests := []struct {
		sampling string
		wantNear bool // reaches 80% of the true model's gain over random
	}{
		// A uniform negative is a near move 3 times in 99.
		{SamplingUniform, false},
		{SamplingSoftmax, true},
		{SamplingWARP, true},
	}
	for _, tt := range tests {
		t.Run(tt.sampling, func(t *testing.T) {
			cfg := DefaultLFRConfig()
			cfg.Sampling, cfg.Negatives, cfg.Epochs, cfg.LearningRate = tt.sampling, 1, 2, 0.05
			m, err := TrainLFR(context.Background(), trainSet, cfg, newRand(1))
			if err != nil {
				t.Fatal(err)
			}
			got := top1(testSet, m.Score)
			t.Logf("held-out top-1 %.3f, true model %.3f, near-far only %.3f", got, oracle, random)
			if near := got >= random+0.8*(oracle-random); near != tt.wantNear {
				t.Errorf("top-1 %.3f: near the true model's %.3f is %v, want %v", got, oracle, near, tt.wantNear)
			}
		})
	}
}

func TestLFRSamplingDefaultIsUniform(t *testing.T) {
	// Configs from before the sampling field (empty) must train exactly as
	// uniform sampling does.
	samples := smallSamples(4, 300)
	var models []*LFRModel
	for _, sampling := range []string{"", SamplingUniform} {
		cfg := DefaultLFRConfig()
		cfg.Sampling, cfg.Epochs, cfg.Negatives = sampling, 2, 3
		m, err := TrainLFR(context.Background(), samples, cfg, newRand(9))
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	if !reflect.DeepEqual(models[0].w, models[1].w) || !reflect.DeepEqual(models[0].v, models[1].v) {
		t.Error("sampling \"\" and \"uniform\" trained different models")
	}
}

func TestLFRSamplingConfigErrors(t *testing.T) {
	samples := smallSamples(2, 50)
	tests := []struct {
		name string
		edit func(*LFRConfig)
		want string // in the error; "" for none
	}{
		{"unknown sampling", func(c *LFRConfig) { c.Sampling = "hardest" }, `sampling "hardest"`},
		{"negative temperature", func(c *LFRConfig) { c.Temperature = -1 }, "temperature"},
		{"infinite temperature", func(c *LFRConfig) { c.Temperature = math.Inf(1) }, "temperature"},
		{"softmax, negatives default", func(c *LFRConfig) { c.Sampling = SamplingSoftmax }, ""},
		{"warp", func(c *LFRConfig) { c.Sampling, c.Negatives = SamplingWARP, 2 }, ""},
		{"unknown optimizer", func(c *LFRConfig) { c.Optimizer = "adam" }, `optimizer "adam"`},
		{"adagrad", func(c *LFRConfig) { c.Optimizer = OptimizerAdagrad }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultLFRConfig()
			cfg.Epochs = 1
			tt.edit(&cfg)
			_, err := TrainLFR(context.Background(), samples, cfg, newRand(1))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}
