package movepred

import (
	"fmt"
	"math"
	"slices"

	"lifezero/featmodel"
)

// Options configures an evaluation. The zero value uses the defaults.
type Options struct {
	// PhaseSize is the number of moves per game-phase bucket (default 50, as
	// in paper 004): bucket b holds move numbers b·PhaseSize .. (b+1)·PhaseSize−1.
	PhaseSize int `json:"phase_size" yaml:"phase_size"`
	// MaxK is the length of Result.TopK (default 10).
	MaxK int `json:"max_k" yaml:"max_k"`
	// Frequencies turns on the feature frequency analysis.
	Frequencies bool `json:"frequencies" yaml:"frequencies"`
}

const (
	// DefaultPhaseSize is paper 004's game phase: 50 moves.
	DefaultPhaseSize = 50
	defaultMaxK      = 10
	// minLogProb floors one position's log-likelihood (about ln 1e-304), so
	// that a move a player deems impossible cannot make the mean infinite.
	minLogProb = -700
)

func (o Options) withDefaults() (Options, error) {
	if o.PhaseSize < 0 || o.MaxK < 0 {
		return o, fmt.Errorf("phase_size %d, max_k %d: want >= 0 (0 for the default)", o.PhaseSize, o.MaxK)
	}
	if o.PhaseSize == 0 {
		o.PhaseSize = DefaultPhaseSize
	}
	if o.MaxK == 0 {
		o.MaxK = defaultMaxK
	}
	o.MaxK = max(o.MaxK, 5) // top5 is always reported
	return o, nil
}

// Result is one player's move-prediction record. Accuracies are fractions of
// positions; a played move tied with other moves gets the expected credit of
// a uniformly random tie-break (see Credit).
type Result struct {
	Player    string  `json:"player"`
	Positions int     `json:"positions"`
	Top1      float64 `json:"top1"`
	Top5      float64 `json:"top5"`
	// TopK[i] is the fraction of positions whose played move is among the
	// player's first i+1 moves.
	TopK []float64 `json:"top_k"`
	// MeanRank is the mean expected rank of the played move (1 = first).
	MeanRank float64 `json:"mean_rank"`
	// MeanLogLikelihood is the mean natural log of the probability the player
	// gives the played move (see LogProber; floored at -700 per position).
	MeanLogLikelihood float64 `json:"mean_log_likelihood"`
	// LegalMoves counts the candidates of all positions.
	LegalMoves int     `json:"legal_moves"`
	Phases     []Phase `json:"phase"`
	// Features is the frequency analysis, by feature id (when asked for).
	Features []FeatureFrequency `json:"features,omitempty"`
}

// Phase is the record of one game-phase bucket: move numbers From..To.
type Phase struct {
	From              int     `json:"from"`
	To                int     `json:"to"`
	Positions         int     `json:"positions"`
	Top1              float64 `json:"top1"`
	Top5              float64 `json:"top5"`
	MeanLogLikelihood float64 `json:"mean_log_likelihood"`
}

// FeatureFrequency says how often one feature is active (paper 004 Sec. 4.4).
type FeatureFrequency struct {
	Feature int32 `json:"feature"`
	// Legal is the fraction of all legal moves that have it.
	Legal float64 `json:"legal"`
	// Played is the fraction of positions whose played move has it.
	Played float64 `json:"played"`
	// Predicted is the fraction of positions whose top-1 move has it; when t
	// moves tie for the top, each counts 1/t.
	Predicted float64 `json:"predicted"`
}

// LargestDifferences returns the n features whose Predicted and Played
// frequencies differ most (paper 004 Figs 4.6-4.9 plot such top-10 lists),
// largest |Predicted − Played| first, ties by feature id.
func (r *Result) LargestDifferences(n int) []FeatureFrequency {
	out := slices.Clone(r.Features)
	slices.SortStableFunc(out, func(a, b FeatureFrequency) int {
		da, db := math.Abs(a.Predicted-a.Played), math.Abs(b.Predicted-b.Played)
		switch {
		case da > db:
			return -1
		case da < db:
			return 1
		}
		return int(a.Feature) - int(b.Feature)
	})
	return out[:min(n, len(out))]
}

// Credit returns the expected rank of candidate i and the probability that it
// is among the first k (for k = 1..len(within)), when moves are ordered by
// descending score and ties broken uniformly at random: with g moves scoring
// strictly higher and t moves (i included) scoring the same, its rank is
// uniform on g+1..g+t, so P(rank ≤ k) = clamp((k−g)/t, 0, 1). within must be
// preallocated; its length sets the largest k.
func Credit(scores []float64, i int, within []float64) (rank float64) {
	above, ties := 0, 0
	for _, s := range scores {
		switch {
		case s > scores[i]:
			above++
		case s == scores[i]:
			ties++
		}
	}
	for k := range within {
		within[k] = min(max(float64(k+1-above)/float64(ties), 0), 1)
	}
	return float64(above) + float64(ties+1)/2
}

// LogSoftmax returns ln softmax(scores)[i]. Infinite scores are read as
// limits: when the best score is +Inf, or every score is −Inf, the moves at
// the best score share the probability equally and the others get none.
func LogSoftmax(scores []float64, i int) float64 {
	top := math.Inf(-1)
	for _, s := range scores {
		top = max(top, s)
	}
	if math.IsInf(top, 0) {
		n := 0
		for _, s := range scores {
			if s == top {
				n++
			}
		}
		if scores[i] != top {
			return math.Inf(-1)
		}
		return -math.Log(float64(n))
	}
	z := 0.0
	for _, s := range scores {
		z += math.Exp(s - top)
	}
	return scores[i] - top - math.Log(z)
}

// Evaluator accumulates one player's results position by position; Evaluate
// drives one per ranker.
type Evaluator struct {
	player    string
	opt       Options
	all       tally
	phases    []tally
	within    []float64
	legal     int
	frequency map[int32]*featureCount
}

// tally sums the credits of a set of positions.
type tally struct {
	positions int
	within    []float64 // Σ P(rank ≤ k), k = 1..MaxK
	rank      float64
	logProb   float64
}

type featureCount struct {
	legal, played int
	predicted     float64
}

// NewEvaluator returns an empty evaluator for the named player.
func NewEvaluator(player string, opt Options) (*Evaluator, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("movepred options: %w", err)
	}
	e := &Evaluator{player: player, opt: opt, within: make([]float64, opt.MaxK)}
	e.all.within = make([]float64, opt.MaxK)
	if opt.Frequencies {
		e.frequency = make(map[int32]*featureCount)
	}
	return e, nil
}

// Add records one position: the player's scores of its candidates and the
// log-probability it gives the played move. The sample must be valid (see
// featmodel.Sample.Validate) and the scores free of NaN.
func (e *Evaluator) Add(s *featmodel.Sample, scores []float64, logProb float64) error {
	if len(scores) != len(s.Candidates) {
		return fmt.Errorf("%d scores for %d candidates", len(scores), len(s.Candidates))
	}
	for i, x := range scores {
		if math.IsNaN(x) {
			return fmt.Errorf("score of candidate %d is NaN", i)
		}
	}
	if math.IsNaN(logProb) || logProb > 1e-9 {
		return fmt.Errorf("log-probability %v of the played move: want <= 0", logProb)
	}
	logProb = max(min(logProb, 0), minLogProb)
	rank := Credit(scores, s.Played, e.within)
	e.all.add(e.within, rank, logProb)
	b := s.MoveNumber / e.opt.PhaseSize
	for len(e.phases) <= b {
		e.phases = append(e.phases, tally{within: make([]float64, e.opt.MaxK)})
	}
	e.phases[b].add(e.within, rank, logProb)
	e.legal += len(s.Candidates)
	if e.frequency != nil {
		e.countFeatures(s, scores)
	}
	return nil
}

func (t *tally) add(within []float64, rank, logProb float64) {
	t.positions++
	for k, p := range within {
		t.within[k] += p
	}
	t.rank += rank
	t.logProb += logProb
}

// countFeatures adds s's features to the frequency tables: every legal move,
// the played move, and the top-scoring moves (1/t each for a t-way tie).
func (e *Evaluator) countFeatures(s *featmodel.Sample, scores []float64) {
	top := slices.Max(scores)
	ties := 0
	for _, x := range scores {
		if x == top {
			ties++
		}
	}
	for i, c := range s.Candidates {
		for _, f := range c {
			fc := e.frequency[f]
			if fc == nil {
				fc = &featureCount{}
				e.frequency[f] = fc
			}
			fc.legal++
			if i == s.Played {
				fc.played++
			}
			if scores[i] == top {
				fc.predicted += 1 / float64(ties)
			}
		}
	}
}

// Result returns the record of the positions added so far.
func (e *Evaluator) Result() Result {
	r := Result{Player: e.player, Positions: e.all.positions, LegalMoves: e.legal, TopK: make([]float64, e.opt.MaxK)}
	n := float64(max(e.all.positions, 1))
	for k, w := range e.all.within {
		r.TopK[k] = w / n
	}
	r.Top1, r.Top5 = r.TopK[0], r.TopK[4]
	r.MeanRank = e.all.rank / n
	r.MeanLogLikelihood = e.all.logProb / n
	r.Phases = make([]Phase, len(e.phases))
	for b, t := range e.phases {
		m := float64(max(t.positions, 1))
		r.Phases[b] = Phase{
			From: b * e.opt.PhaseSize, To: (b+1)*e.opt.PhaseSize - 1, Positions: t.positions,
			Top1: t.within[0] / m, Top5: t.within[4] / m, MeanLogLikelihood: t.logProb / m,
		}
	}
	if e.frequency != nil {
		r.Features = e.frequencies(n)
	}
	return r
}

func (e *Evaluator) frequencies(positions float64) []FeatureFrequency {
	out := make([]FeatureFrequency, 0, len(e.frequency))
	legal := float64(max(e.legal, 1))
	for f, c := range e.frequency {
		out = append(out, FeatureFrequency{
			Feature: f, Legal: float64(c.legal) / legal,
			Played: float64(c.played) / positions, Predicted: c.predicted / positions,
		})
	}
	slices.SortFunc(out, func(a, b FeatureFrequency) int { return int(a.Feature) - int(b.Feature) })
	return out
}
