package movepred

import (
	"context"
	"fmt"

	"lifezero/featmodel"
)

// Evaluate runs every ranker on every sample of src in one pass and returns
// one Result per ranker, in the rankers' order. A ranker's log-likelihood
// comes from its LogProb when it is a LogProber, else from LogSoftmax of its
// scores.
func Evaluate(ctx context.Context, src featmodel.SampleSource, opt Options, rankers ...Ranker) ([]Result, error) {
	if len(rankers) == 0 {
		return nil, fmt.Errorf("movepred: no players to evaluate")
	}
	evals := make([]*Evaluator, len(rankers))
	for i, r := range rankers {
		e, err := NewEvaluator(r.Name(), opt)
		if err != nil {
			return nil, err
		}
		evals[i] = e
	}
	var scores []float64
	n := 0
	err := src.Scan(ctx, func(s *featmodel.Sample) error {
		if _, err := s.Validate(featmodel.MaxFeatures); err != nil {
			return fmt.Errorf("sample %d: %w", n, err)
		}
		if cap(scores) < len(s.Candidates) {
			scores = make([]float64, len(s.Candidates))
		}
		scores = scores[:len(s.Candidates)]
		for i, r := range rankers {
			clear(scores)
			if err := r.Scores(s, scores); err != nil {
				return fmt.Errorf("player %s, sample %d: %w", r.Name(), n, err)
			}
			if err := evals[i].Add(s, scores, logProb(r, scores, s.Played)); err != nil {
				return fmt.Errorf("player %s, sample %d: %w", r.Name(), n, err)
			}
		}
		n++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("movepred: %w", err)
	}
	results := make([]Result, len(evals))
	for i, e := range evals {
		results[i] = e.Result()
	}
	return results, nil
}

// logProb returns the log-probability r gives candidate i.
func logProb(r Ranker, scores []float64, i int) float64 {
	if lp, ok := r.(LogProber); ok {
		return lp.LogProb(scores, i)
	}
	return LogSoftmax(scores, i)
}
