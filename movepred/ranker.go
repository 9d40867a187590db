package movepred

import (
	"math"
	"math/rand/v2"

	"lifezero/featmodel"
)

// Ranker scores the legal moves of a position; higher is better. Scores are
// compared only within one position.
type Ranker interface {
	// Name identifies the player in results.
	Name() string
	// Scores writes one score per candidate of s into scores, which has
	// len(s.Candidates) elements. NaN is an error; ±Inf are allowed.
	Scores(s *featmodel.Sample, scores []float64) error
}

// LogProber is implemented by rankers whose scores are not logits: it returns
// the natural log of the probability the ranker gives to candidate i, given
// the scores it produced for the position. Rankers without it are read as
// logits: the probability of a move is the softmax of the scores.
type LogProber interface {
	LogProb(scores []float64, i int) float64
}

// ModelRanker ranks moves by a feature model's scores. Its log-likelihood is
// the softmax of those scores, which is exactly the model's probability for
// BT (scores are ln of team strengths) and FBT (scores are its log-strengths);
// for LFR, trained only to rank, it is the Plackett-Luce extension of the
// pairwise logistic model LFR is trained on (P(a beats b) = σ(y_a − y_b)).
type ModelRanker struct {
	Model featmodel.Model
	Label string // the player's name; the model's Name when empty
}

// FromModel returns a ranker for m, named after it.
func FromModel(m featmodel.Model) *ModelRanker {
	return &ModelRanker{Model: m}
}

// Name returns the label, or the model's name.
func (r *ModelRanker) Name() string {
	if r.Label != "" {
		return r.Label
	}
	return r.Model.Name()
}

// Scores writes the model's score of every candidate.
func (r *ModelRanker) Scores(s *featmodel.Sample, scores []float64) error {
	for i, c := range s.Candidates {
		scores[i] = r.Model.Score(c)
	}
	return nil
}

// Random is the random legal player: it ranks the moves in a uniformly random
// order and gives each the same probability, 1/(number of legal moves). Its
// top-1 rate is the chance baseline.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a random player drawing from rng; the same rng state
// gives the same rankings.
func NewRandom(rng *rand.Rand) *Random {
	return &Random{rng: rng}
}

// Name returns "random".
func (r *Random) Name() string { return "random" }

// Scores draws an independent uniform score per candidate.
func (r *Random) Scores(s *featmodel.Sample, scores []float64) error {
	for i := range scores {
		scores[i] = r.rng.Float64()
	}
	return nil
}

// LogProb returns −ln(number of moves): the player picks uniformly.
func (r *Random) LogProb(scores []float64, i int) float64 {
	return -math.Log(float64(len(scores)))
}
