package featmodel

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Candidate is one legal move seen through its features: the ids of the
// features active for that move. Ids are small non-negative integers (the
// models keep dense arrays indexed by id) and appear at most once per
// candidate: a candidate is a set, its order does not matter.
type Candidate []int32

// Sample is one position of a game record: every legal move (pass included if
// the data has it), the one that was played, and the move number for per-phase
// analysis.
type Sample struct {
	Candidates []Candidate
	Played     int // index of the played move in Candidates
	MoveNumber int // number of the move in its game, as the data counts it
}

// MaxFeatures bounds feature ids: the models keep dense per-feature arrays,
// and an id past this bound is almost certainly a corrupt sample rather than
// a real feature set.
const MaxFeatures = 1 << 24

// Model scores a move from its features; higher means more likely to be
// played. Scores are comparable only between candidates of the same position.
// Feature ids the model has never seen contribute nothing to a score.
type Model interface {
	Name() string
	Score(c Candidate) float64
}

// EpochFunc is called after every epoch (an MM iteration for Bradley-Terry)
// with the 1-based epoch number and that epoch's mean training loss, so that
// callers can log loss curves and count epochs on a progress.Reporter. It is
// a hook rather than a Reporter because it carries the loss.
type EpochFunc func(epoch int, loss float64)

// TrainInfo records how a model was trained; it is saved with the weights.
type TrainInfo struct {
	Samples int `json:"samples"`
	Epochs  int `json:"epochs"`
	// Loss[e-1] is the mean training loss per sample after epoch e: the mean
	// negative log-likelihood of the played move for BT and FBT, the mean
	// pairwise logistic loss for LFR.
	Loss []float64 `json:"loss,omitempty"`
	// LogLikelihood[i] (BT only) is the total log-likelihood of the played
	// moves after i MM iterations (index 0: the starting gammas, all 1).
	LogLikelihood []float64 `json:"log_likelihood,omitempty"`
	// LogPosterior[i] (BT only) adds the prior's virtual games to
	// LogLikelihood[i]. MM never lets it decrease.
	LogPosterior []float64 `json:"log_posterior,omitempty"`
}

// SampleSource is a restartable stream of samples: every Scan visits the same
// samples in the same order, stopping at the first error visit returns. The
// callee may keep the sample passed to visit but must not modify it (the
// trainers keep samples in their shuffle buffer).
type SampleSource interface {
	Scan(ctx context.Context, visit func(*Sample) error) error
}

// randomAccess is a SampleSource held in memory, which the SGD trainers
// shuffle exactly instead of through a shuffle buffer.
type randomAccess interface {
	Len() int
	At(i int) *Sample
}

// Samples is an in-memory SampleSource.
type Samples []Sample

// Len returns the number of samples.
func (s Samples) Len() int { return len(s) }

// At returns the i-th sample.
func (s Samples) At(i int) *Sample { return &s[i] }

// Scan visits the samples in order, checking ctx every 256 samples.
func (s Samples) Scan(ctx context.Context, visit func(*Sample) error) error {
	for i := range s {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := visit(&s[i]); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Validate checks one sample: at least one candidate, Played in range, a
// non-negative move number, and feature ids in [0, numFeatures) without
// duplicates inside a candidate. It returns the largest feature id seen (-1
// when no candidate has a feature).
func (s *Sample) Validate(numFeatures int) (maxID int32, err error) {
	if len(s.Candidates) == 0 {
		return -1, fmt.Errorf("no candidates")
	}
	if s.Played < 0 || s.Played >= len(s.Candidates) {
		return -1, fmt.Errorf("played index %d outside the %d candidates", s.Played, len(s.Candidates))
	}
	if s.MoveNumber < 0 {
		return -1, fmt.Errorf("negative move number %d", s.MoveNumber)
	}
	maxID = -1
	for ci, c := range s.Candidates {
		for fi, f := range c {
			if f < 0 || int(f) >= numFeatures {
				return -1, fmt.Errorf("candidate %d: feature id %d outside [0, %d)", ci, f, numFeatures)
			}
			for _, g := range c[:fi] {
				if g == f {
					return -1, fmt.Errorf("candidate %d: feature id %d listed twice", ci, f)
				}
			}
			maxID = max(maxID, f)
		}
	}
	return maxID, nil
}

// countFeatures scans src once, validating every sample, and returns the
// number of samples and the number of features (largest id + 1).
func countFeatures(ctx context.Context, src SampleSource) (samples, features int, err error) {
	maxID := int32(-1)
	err = src.Scan(ctx, func(s *Sample) error {
		id, err := s.Validate(MaxFeatures)
		if err != nil {
			return fmt.Errorf("sample %d: %w", samples, err)
		}
		maxID = max(maxID, id)
		samples++
		return nil
	})
	return samples, int(maxID) + 1, err
}

// DefaultShuffleBuffer is the shuffle window of LFR and FBT for streamed
// sources, in samples: on 19x19 a few hundred MB.
const DefaultShuffleBuffer = 4096

// visitedBatch is how many samples pass between two calls of a Visited hook:
// often enough for a progress bar, rarely enough to cost nothing.
const visitedBatch = 1024

// coarseShuffler is a stream that can also visit its samples in an order
// random at a coarse grain, such as whole files drawn from rng.
type coarseShuffler interface {
	ScanShuffled(ctx context.Context, rng *rand.Rand, visit func(*Sample) error) error
}

// scanShuffled visits every sample of src in a random order drawn from rng.
// In-memory sources are shuffled exactly; streams pass through a shuffle
// buffer of bufSize samples (the order is then only locally random). A
// coarseShuffler's coarse order goes under the buffer, so that a stream
// stored in game or date order is also mixed beyond the buffer's window, and
// differently every epoch.
//
// visited, when not nil, is called with the number of samples visited since
// its last call, every visitedBatch samples and once more at the end.
func scanShuffled(ctx context.Context, src SampleSource, rng *rand.Rand, bufSize int, visited func(samples int), visit func(*Sample) error) error {
	if visited != nil {
		inner, pending := visit, 0
		visit = func(s *Sample) error {
			if pending++; pending == visitedBatch {
				visited(pending)
				pending = 0
			}
			return inner(s)
		}
		defer func() {
			if pending > 0 {
				visited(pending)
			}
		}()
	}
	if ra, ok := src.(randomAccess); ok {
		order := rng.Perm(ra.Len())
		for n, i := range order {
			if n%256 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if err := visit(ra.At(i)); err != nil {
				return err
			}
		}
		return ctx.Err()
	}
	scan := src.Scan
	if cs, ok := src.(coarseShuffler); ok {
		scan = func(ctx context.Context, visit func(*Sample) error) error { return cs.ScanShuffled(ctx, rng, visit) }
	}
	buf := make([]*Sample, 0, bufSize)
	err := scan(ctx, func(s *Sample) error {
		if len(buf) < bufSize {
			buf = append(buf, s)
			return nil
		}
		i := rng.IntN(len(buf))
		next := buf[i]
		buf[i] = s
		return visit(next)
	})
	if err != nil {
		return err
	}
	rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
	for _, s := range buf {
		if err := visit(s); err != nil {
			return err
		}
	}
	return ctx.Err()
}
