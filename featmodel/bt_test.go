package featmodel

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestBTOneIterationByHand(t *testing.T) {
	// Four positions, moves {0} and {1}; {0} played three times, {1} once.
	// Starting from γ = 1, feature 0 is updated first:
	//   γ0 = (3 + 1) / (4·(1/2) + 2/(1+1)) = 4/3;
	// then feature 1, with the new γ0 (E_j = 4/3 + 1 = 7/3):
	//   γ1 = (1 + 1) / (4·(3/7) + 2/(1+1)) = 2/(19/7) = 14/19.
	var samples Samples
	for i := range 4 {
		played := 0
		if i == 3 {
			played = 1
		}
		samples = append(samples, Sample{Candidates: []Candidate{{0}, {1}}, Played: played})
	}
	cfg := DefaultBTConfig()
	cfg.MaxIterations = 1
	m, err := TrainBT(context.Background(), samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for f, want := range []float64{4.0 / 3, 14.0 / 19} {
		if got := m.Gamma(int32(f)); math.Abs(got-want) > 1e-12 {
			t.Errorf("γ%d = %v, want %v", f, got, want)
		}
	}
	if got, want := m.Info.LogLikelihood[0], 4*math.Log(0.5); math.Abs(got-want) > 1e-12 {
		t.Errorf("initial log-likelihood %v, want %v", got, want)
	}
	p0 := (4.0 / 3) / (4.0/3 + 14.0/19)
	if got, want := m.Info.LogLikelihood[1], 3*math.Log(p0)+math.Log(1-p0); math.Abs(got-want) > 1e-12 {
		t.Errorf("log-likelihood after one iteration %v, want %v", got, want)
	}
	if got := m.Gamma(7); got != 1 {
		t.Errorf("γ of an unknown feature = %v, want 1", got)
	}
}

func TestBTRecoversTrueGammas(t *testing.T) {
	rng := newRand(11)
	truth, gen := btTruth(rng, 40, 20, 1)
	samples := gen.samples(rng, 8000)
	cfg := DefaultBTConfig()
	cfg.Tolerance = 1e-9
	cfg.MaxIterations = 2000
	m, err := TrainBT(context.Background(), samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	learned := make([]float64, len(truth))
	for f := range learned {
		learned[f] = math.Log(m.Gamma(int32(f)))
	}
	if r := correlation(truth, learned); r < 0.95 {
		t.Errorf("correlation of true and learned ln γ is %.3f, want > 0.95", r)
	}
	checkNonDecreasing(t, m.Info.LogPosterior)
	checkStationary(t, samples, m)
}

func TestBTPosteriorNeverDecreasesWithOverlappingFeatures(t *testing.T) {
	// Feature 0 is in every candidate and features 1..5 come in heavily
	// correlated pairs: updating all gammas at once would not be safe here,
	// one at a time is.
	rng := newRand(5)
	gen := synth{
		candidates: 8,
		draw: func(r *rand.Rand) Candidate {
			c := Candidate{0}
			base := 1 + r.Int32N(5)
			c = append(c, base)
			if r.IntN(3) > 0 {
				c = append(c, 1+base%5)
			}
			return c
		},
		logStrength: func(c Candidate) float64 { return float64(len(c)) - 0.3*float64(c[1]) },
	}
	samples := gen.samples(rng, 500)
	cfg := DefaultBTConfig()
	cfg.Tolerance = 0
	cfg.MaxIterations = 60
	m, err := TrainBT(context.Background(), samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Info.LogPosterior) != 61 {
		t.Fatalf("%d log-posterior values, want 61", len(m.Info.LogPosterior))
	}
	checkNonDecreasing(t, m.Info.LogPosterior)
	if first, last := m.Info.LogPosterior[0], m.Info.LogPosterior[60]; !(last > first) {
		t.Errorf("log posterior did not rise: %v -> %v", first, last)
	}
}

func checkNonDecreasing(t *testing.T, xs []float64) {
	t.Helper()
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1]-1e-9*math.Abs(xs[i-1]) {
			t.Errorf("log posterior fell at iteration %d: %v -> %v", i, xs[i-1], xs[i])
		}
	}
}

// checkStationary verifies, directly from the samples, that the gradient of
// the log posterior with respect to every ln γ_i vanishes at m's gammas:
// (W_i + 1) − γ_i (Σ_j C_ij/E_j + 2/(γ_i + 1)) = 0.
func checkStationary(t *testing.T, samples Samples, m *BTModel) {
	t.Helper()
	n := m.NumFeatures()
	grad := make([]float64, n)
	for f := range n {
		g := m.Gamma(int32(f))
		grad[f] = 1 - 2*g/(g+1)
	}
	for _, s := range samples {
		total := 0.0
		for _, c := range s.Candidates {
			total += math.Exp(m.Score(c))
		}
		for i, c := range s.Candidates {
			p := math.Exp(m.Score(c)) / total
			for _, f := range c {
				grad[f] -= p
				if i == s.Played {
					grad[f]++
				}
			}
		}
	}
	for f, g := range grad {
		if math.Abs(g) > 1e-3 {
			t.Errorf("∂ log posterior / ∂ ln γ%d = %v at convergence, want 0", f, g)
		}
	}
}

// shiftingSource yields different samples on every scan, as a data
// directory rewritten during training would.
type shiftingSource struct{ scans int }

func (s *shiftingSource) Scan(ctx context.Context, visit func(*Sample) error) error {
	s.scans++
	for i := range 3 + s.scans {
		if err := visit(&Sample{Candidates: []Candidate{{int32(i % 2)}, {2}}, Played: 0}); err != nil {
			return err
		}
	}
	return nil
}

func TestBTRefusesSamplesThatChangeBetweenPasses(t *testing.T) {
	_, err := TrainBT(context.Background(), &shiftingSource{}, DefaultBTConfig())
	if err == nil || !strings.Contains(err.Error(), "changed between the two passes") {
		t.Errorf("got %v, want an error saying the samples changed", err)
	}
}
