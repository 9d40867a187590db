package rzs

import (
	"math"

	"lifezero/game"
)

// MoveRanker scores a position's candidate moves for its side to move as
// log-strengths: a move of score s is e^(s-t) times as likely to be right as
// one of score t (a Bradley-Terry model's sum of log-gammas, a logit). A
// feature model trained on life-and-death problems (package tsumego) is one.
type MoveRanker interface {
	Rank(pos *game.Position, moves []game.Point, scores []float64) error
}

// Learned is an evaluator whose move priors come from a learned ranker on
// top of a base evaluator: the base's value, the base's pass share, and the
// board moves' priors reweighted by the ranker's scores. Like every
// evaluator it only orders the search. It is a BatchEvaluator that hands
// batches on to its base (see EvaluateBatch).
type Learned struct {
	Base   Evaluator
	Ranker MoveRanker
	// Weight scales the ranker's log-strengths (0 means 1): the prior of a
	// move becomes base prior x e^(Weight x score), renormalised.
	Weight float64
	// Replace drops the base's board-move priors and keeps the ranker's
	// alone (an ablation).
	Replace bool
}

var (
	_ BatchEvaluator = Learned{}
	_ PriorRefiner   = Learned{}
)

// Coarse implements PriorRefiner: the base.
func (l Learned) Coarse() Evaluator { return l.Base }

// Refine implements PriorRefiner: the ranker's reweighting.
func (l Learned) Refine(pos *game.Position, moves []game.Point, priors []float32) {
	l.rerank(pos, moves, priors)
}

// Evaluate implements Evaluator.
func (l Learned) Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) ([]float32, float32) {
	priors, value := l.Base.Evaluate(pos, pr, moves)
	l.rerank(pos, moves, priors)
	return priors, value
}

// EvaluateBatch implements BatchEvaluator: the batch goes whole to the
// base when it is a BatchEvaluator (a network, alone or mixed), and the
// ranker reweights each position's priors after. Each request gets what
// Evaluate gives its position, provided the base's batch gives what the
// base gives alone.
func (l Learned) EvaluateBatch(reqs []EvalRequest) error {
	if err := evaluateAll(l.Base, reqs); err != nil {
		return err
	}
	for i := range reqs {
		l.rerank(reqs[i].Pos, reqs[i].Moves, reqs[i].Priors)
	}
	return nil
}

// rerank reweights the base's priors of a position's moves in place by the
// ranker's scores.
func (l Learned) rerank(pos *game.Position, moves []game.Point, priors []float32) {
	scores := make([]float64, len(moves))
	if err := l.Ranker.Rank(pos, moves, scores); err != nil {
		// The moves come from the solver's legal-move generation, so this
		// does not happen; the base's priors are still a sound ordering.
		return
	}
	w := l.Weight
	if w == 0 {
		w = 1
	}
	top := math.Inf(-1)
	for i, m := range moves {
		if m != game.Pass {
			top = max(top, scores[i])
		}
	}
	for i, m := range moves {
		if m == game.Pass {
			continue
		}
		// Subtracting the largest score keeps exp in range.
		s := math.Exp(w * (scores[i] - top))
		if !l.Replace {
			s *= float64(priors[i])
		}
		scores[i] = s
	}
	reweight(priors, moves, func(i int) float64 { return scores[i] })
}

// reweight sets the board moves' priors in proportion to weight(i),
// keeping the board moves' total prior and the pass's prior (the base
// evaluator's pass share), and reports whether it did: weights without a
// finite positive mass leave priors as they are. weight(i) is asked before
// priors[i] is set, so it may read priors[i].
func reweight(priors []float32, moves []game.Point, weight func(i int) float64) bool {
	var mass, sum float64
	for i, m := range moves {
		if m != game.Pass {
			mass += float64(priors[i])
			sum += weight(i)
		}
	}
	if sum <= 0 || math.IsInf(sum, 0) || math.IsNaN(sum) {
		return false
	}
	for i, m := range moves {
		if m != game.Pass {
			priors[i] = float32(mass * weight(i) / sum)
		}
	}
	return true
}
