package featmodel

import (
	"math"
	"math/rand/v2"
	"testing"

	"lifezero/mcts"
)

// The helpers here generate samples from a known ("true") model, so that the
// tests can compare what training recovers with what generated the data.

// synth describes synthetic positions: every candidate is drawn by draw and
// the played move is drawn with probability proportional to exp(logStrength).
type synth struct {
	candidates  int
	draw        func(*rand.Rand) Candidate
	logStrength func(Candidate) float64
}

// samples draws n positions, numbering their moves 0, 1, 2, ... so that
// per-phase code has something to bucket.
func (s synth) samples(rng *rand.Rand, n int) Samples {
	out := make(Samples, n)
	weights := make([]float64, s.candidates)
	for i := range out {
		cands := make([]Candidate, s.candidates)
		for j := range cands {
			cands[j] = s.draw(rng)
			weights[j] = math.Exp(s.logStrength(cands[j]))
		}
		played := mcts.DrawWeighted(rng, weights)
		out[i] = Sample{Candidates: cands, Played: played, MoveNumber: i % 300}
	}
	return out
}

// drawDistinct returns a candidate of between lo and hi distinct features
// drawn uniformly from ids [from, to).
func drawDistinct(lo, hi int, from, to int32) func(*rand.Rand) Candidate {
	return func(rng *rand.Rand) Candidate {
		n := lo + rng.IntN(hi-lo+1)
		c := make(Candidate, 0, n)
		for len(c) < n {
			f := from + rng.Int32N(to-from)
			if !containsFeature(c, f) {
				c = append(c, f)
			}
		}
		return c
	}
}

func containsFeature(c Candidate, f int32) bool {
	for _, g := range c {
		if g == f {
			return true
		}
	}
	return false
}

// btTruth returns random true log-gammas and the synth that plays by them.
func btTruth(rng *rand.Rand, features, candidates int, spread float64) ([]float64, synth) {
	logGamma := make([]float64, features)
	for i := range logGamma {
		logGamma[i] = spread * rng.NormFloat64()
	}
	return logGamma, synth{
		candidates: candidates,
		draw:       drawDistinct(1, 4, 0, int32(features)),
		logStrength: func(c Candidate) float64 {
			s := 0.0
			for _, f := range c {
				s += logGamma[f]
			}
			return s
		},
	}
}

// top1 returns the fraction of samples whose played move scores highest under
// score, a tie of t moves at the top earning 1/t (the expected accuracy of a
// uniform random tie-break).
func top1(samples Samples, score func(Candidate) float64) float64 {
	credit := 0.0
	for _, s := range samples {
		p := score(s.Candidates[s.Played])
		above, ties := 0, 0
		for _, c := range s.Candidates {
			switch y := score(c); {
			case y > p:
				above++
			case y == p:
				ties++
			}
		}
		if above == 0 {
			credit += 1 / float64(ties)
		}
	}
	return credit / float64(len(samples))
}

// meanLogLikelihood returns the mean ln softmax(score)[played].
func meanLogLikelihood(samples Samples, score func(Candidate) float64) float64 {
	total := 0.0
	for _, s := range samples {
		ys := make([]float64, len(s.Candidates))
		top := math.Inf(-1)
		for i, c := range s.Candidates {
			ys[i] = score(c)
			top = max(top, ys[i])
		}
		z := 0.0
		for _, y := range ys {
			z += math.Exp(y - top)
		}
		total += ys[s.Played] - top - math.Log(z)
	}
	return total / float64(len(samples))
}

// correlation returns Pearson's r of xs and ys.
func correlation(xs, ys []float64) float64 {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i] / n
		my += ys[i] / n
	}
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / math.Sqrt(sxx*syy)
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

func TestSynthPlaysByStrength(t *testing.T) {
	// Two candidates, strengths 1 and e²: the strong one should be played
	// with probability e²/(1+e²) ≈ 0.881.
	s := synth{
		candidates: 2,
		draw:       drawDistinct(1, 1, 0, 2),
		logStrength: func(c Candidate) float64 {
			return 2 * float64(c[0])
		},
	}
	samples := s.samples(newRand(1), 20000)
	strong, both := 0, 0
	for _, x := range samples {
		if x.Candidates[0][0] != x.Candidates[1][0] {
			both++
			if x.Candidates[x.Played][0] == 1 {
				strong++
			}
		}
	}
	got, want := float64(strong)/float64(both), math.Exp(2)/(1+math.Exp(2))
	if math.Abs(got-want) > 0.02 {
		t.Errorf("strong move played %.3f of the time, want %.3f", got, want)
	}
}
