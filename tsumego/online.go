package tsumego

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"lifezero/game"
	"lifezero/rzs"
)

// The online learner's fit (see OnlineRanker.fit). Each is a choice, not
// a measured optimum: the prior keeps a feature seen in a handful of
// verdicts near the trained model, the step and the bound keep one fit
// from overturning the model's order on the evidence of one region.
const (
	// onlinePrior is the precision of the Gaussian prior that holds each
	// correction at 0 (the trained model), in units of the fit's
	// curvature: where a feature tells a verdict's winner from one other
	// move at even odds, the verdict adds 1/4 to it, so the correction
	// goes half-way to what such verdicts alone would make it after about
	// 4 x onlinePrior of them.
	onlinePrior = 4.0
	// onlineNewton is the Newton iterations of one fit.
	onlineNewton = 3
	// onlineMaxStep bounds one iteration's change of a correction, and
	// onlineMaxDelta the correction itself, in nats of strength.
	onlineMaxStep  = 0.5
	onlineMaxDelta = 3.0
	// onlineMaxSamples bounds the verdicts kept (the newest are kept), so
	// a long search's fits cost a bounded time each.
	onlineMaxSamples = 20000
	// onlineFirstFit is the verdicts before the first fit; after it, a fit
	// follows every quarter of the verdicts kept, so the fits of a search
	// cost a few times one fit of all its verdicts.
	onlineFirstFit = 32
)

// OnlineRanker is a Ranker that learns during a search from the search's
// own verdicts (rzs.ProofLearner), or from those of the searches that
// share it (a portfolio's members, rzs.Options.Learner): where the search
// proved that a move wins for the side to move and other moves it visited
// there had not won, the winner should have ranked above them. It fits a
// correction of each feature's log-strength to those verdicts (a
// Bradley-Terry model over the winner and the others, with a Gaussian
// prior at the trained model) and adds it to the trained model's scores.
// This is online learning during a long solve (Wu et al., NeurIPS 2023;
// issue 14's lever 6) with a feature model in place of the network: the
// region's own shapes (a first-line hane that lives where the model
// prefers an atari) are learnt where they were proven, and the search's
// later priors follow them. It only orders the search.
//
// It is safe for concurrent use: Rank reads the corrections of the last
// fit without a lock. Learn fits in the caller's goroutine, so that a
// search on one thread stays deterministic; the fits' cost is bounded (see
// onlineFirstFit) but a threaded search waits for them under its lock,
// and searches that share the learner wait for each other's. Shared, the
// verdicts kept and the fits' schedule count every search's verdicts.
type OnlineRanker struct {
	r *Ranker
	// delta is the last fit's correction by feature id, nil before the
	// first fit.
	delta atomic.Pointer[[]float64]

	mu       sync.Mutex
	scratch  Scratch
	moves    []game.Point
	samples  []verdict
	next     int // the oldest sample, once onlineMaxSamples are kept
	sinceFit int
	fits     int
	learnt   int
}

// verdict is one comparison: candidate 0 won, the others did not.
// base is the trained model's score of each candidate.
type verdict struct {
	ids  [][]int32
	base []float64
}

var _ rzs.LearnerSource = (*Ranker)(nil)

// NewLearner implements rzs.LearnerSource: a fresh OnlineRanker on r, for
// one search or for the searches that share it.
func (r *Ranker) NewLearner() rzs.ProofLearner { return r.Online() }

// Online returns an OnlineRanker on r with no verdicts yet: until its first
// fit it ranks as r does.
func (r *Ranker) Online() *OnlineRanker { return &OnlineRanker{r: r} }

// Rank implements rzs.MoveRanker: the trained model's score plus the
// learnt corrections of the move's features.
func (o *OnlineRanker) Rank(pos *game.Position, moves []game.Point, scores []float64) error {
	var delta []float64
	if d := o.delta.Load(); d != nil {
		delta = *d
	}
	return o.r.rank(pos, moves, scores, delta)
}

// Stats returns the verdicts learnt and the fits made.
func (o *OnlineRanker) Stats() (verdicts, fits int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.learnt, o.fits
}

// correction sums delta over ids.
func correction(delta []float64, ids []int32) float64 {
	c := 0.0
	for _, f := range ids {
		if f >= 0 && int(f) < len(delta) {
			c += delta[f]
		}
	}
	return c
}

// Learn implements rzs.ProofLearner: in pos, winner won for the side to
// move where the moves of others, visited too, did not. Passes are left
// out (the ranker does not order them: rzs.Learned keeps the base's pass
// share).
func (o *OnlineRanker) Learn(pos *game.Position, winner game.Point, others []game.Point) {
	if winner == game.Pass {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.moves = append(o.moves[:0], winner)
	for _, m := range others {
		if m != game.Pass && m != winner {
			o.moves = append(o.moves, m)
		}
	}
	if len(o.moves) < 2 {
		return
	}
	v := verdict{ids: make([][]int32, len(o.moves)), base: make([]float64, len(o.moves))}
	n := int32(o.r.f.NumFeatures())
	err := o.r.f.Candidates(pos, o.moves, &o.scratch, func(i int, ids []int32) {
		// A defensive bound: Candidates gives ids below NumFeatures, and
		// fit indexes its arrays by them.
		v.ids[i] = slices.DeleteFunc(slices.Clone(ids), func(f int32) bool { return f < 0 || f >= n })
		v.base[i] = o.r.model.Score(ids)
	})
	if err != nil {
		// The moves are the search's own legal moves, so this does not
		// happen; a verdict lost only orders the search less well.
		return
	}
	if len(o.samples) < onlineMaxSamples {
		o.samples = append(o.samples, v)
	} else {
		o.samples[o.next] = v
		o.next = (o.next + 1) % onlineMaxSamples
	}
	o.learnt++
	o.sinceFit++
	if o.sinceFit >= max(onlineFirstFit, len(o.samples)/4) {
		o.fit()
		o.sinceFit = 0
	}
}

// fit maximises the verdicts' log-likelihood under the Gaussian prior by a
// few diagonal Newton steps from the last fit's corrections, and publishes
// the result. Each verdict's likelihood is the softmax of its candidates'
// scores at the winner; the gradient of a feature's correction is its count
// in the winner less its expected count. The curvature taken is
// p(1-p) summed over the candidates holding the feature, which bounds its
// true variance from above (a feature every candidate holds has none), so
// the steps fall short rather than overshoot.
func (o *OnlineRanker) fit() {
	delta := make([]float64, o.r.f.NumFeatures())
	if last := o.delta.Load(); last != nil {
		copy(delta, *last)
	}
	grad := make([]float64, len(delta))
	curv := make([]float64, len(delta))
	var p []float64
	for range onlineNewton {
		clear(grad)
		clear(curv)
		for _, v := range o.samples {
			p = softmax(p[:0], v, delta)
			for j, ids := range v.ids {
				g := -p[j]
				if j == 0 {
					g++
				}
				h := p[j] * (1 - p[j])
				for _, f := range ids {
					grad[f] += g
					curv[f] += h
				}
			}
		}
		for f := range delta {
			if grad[f] == 0 && delta[f] == 0 {
				continue
			}
			step := (grad[f] - onlinePrior*delta[f]) / (curv[f] + onlinePrior)
			step = math.Max(-onlineMaxStep, math.Min(onlineMaxStep, step))
			delta[f] = math.Max(-onlineMaxDelta, math.Min(onlineMaxDelta, delta[f]+step))
		}
	}
	o.delta.Store(&delta)
	o.fits++
}

// softmax appends to p the probabilities of v's candidates under the
// trained scores plus delta.
func softmax(p []float64, v verdict, delta []float64) []float64 {
	top := math.Inf(-1)
	for j, ids := range v.ids {
		s := v.base[j] + correction(delta, ids)
		p = append(p, s)
		top = math.Max(top, s)
	}
	sum := 0.0
	for j := range p {
		p[j] = math.Exp(p[j] - top)
		sum += p[j]
	}
	for j := range p {
		p[j] /= sum
	}
	return p
}
