package tsumego

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"lifezero/featmodel"
	"lifezero/features"
	"lifezero/game"
	"lifezero/internal/atomicfile"
	"lifezero/internal/readfile"
)

// The files of a model directory: the weights and the feature set as the
// features-train stage writes them (so the GTP engine can load the same
// directory), and Meta.
const (
	WeightsFile    = "model.weights"
	FeatureSetFile = "features.json"
	MetaFile       = "tsumego.json"
)

// Meta says how a model directory was trained.
type Meta struct {
	Source       string   `json:"source"`        // the collection trained on
	Problems     int      `json:"problems"`      // problems trained on (the final model)
	Excluded     []string `json:"excluded"`      // problems left out because a measured position contains them
	LDFeatures   int      `json:"ld_features"`   // NumLD, or 0 when trained without them
	ProofSamples int      `json:"proof_samples"` // samples labelled by the solver's proofs (ProofSamples), fitted besides
	// ProofSamplesExcluded counts the proof-labelled samples left out
	// because they overlap a measured position (either way).
	ProofSamplesExcluded int      `json:"proof_samples_excluded,omitempty"`
	Folds                int      `json:"folds"`           // cross-validation folds
	CrossValidated       Accuracy `json:"cross_validated"` // every problem predicted by a model that did not see it
	Iterations           int      `json:"iterations"`
}

// DefaultFolds is the cross-validation folds measuring a model when
// TrainConfig.Folds is 0.
const DefaultFolds = 9

// TrainConfig configures Train.
type TrainConfig struct {
	Folds int  // cross-validation folds measuring the model (0: DefaultFolds)
	NoLD  bool // train on the Fuego-style features only (an ablation)
	BT    featmodel.BTConfig
	// Extra are further samples to fit, each taken From a book problem
	// (ProofSamples). They are fitted, never measured, and left out of the
	// fold that measures their book problem. Samples From KillAllName
	// (KillAllSamples) come from no book problem and are fitted in every
	// fold.
	Extra []Problem
}

// Train fits a Bradley-Terry model to problems. It measures the model's
// move prediction by k-fold cross-validation first (problem i is in fold
// i mod k; each fold is predicted by a model fitted on the others, so no
// problem is measured by a model that saw it), then returns the model
// fitted on all of them. The feature set is set, followed by the LD
// features.
func Train(ctx context.Context, problems []Problem, set *features.Extractor, cfg TrainConfig) (*featmodel.BTModel, Meta, error) {
	k := cfg.Folds
	if k <= 0 {
		k = DefaultFolds
	}
	if k < 2 || k > len(problems) {
		return nil, Meta{}, fmt.Errorf("tsumego: %d folds for %d problems", k, len(problems))
	}
	f := NewFeaturizer(set)
	if cfg.NoLD {
		f.LD = LD{Base: -1}
	}
	samples, err := f.Samples(problems)
	if err != nil {
		return nil, Meta{}, err
	}
	extra, extraFold, err := extraSamples(f, problems, cfg.Extra, k)
	if err != nil {
		return nil, Meta{}, err
	}
	bt := cfg.BT
	bt.NumFeatures = f.NumFeatures()
	var folds []Accuracy
	for fold := range k {
		var fit, held featmodel.Samples
		for i, s := range samples {
			if i%k == fold {
				held = append(held, s)
			} else {
				fit = append(fit, s)
			}
		}
		for i, s := range extra {
			if extraFold[i] != fold {
				fit = append(fit, s)
			}
		}
		model, err := featmodel.TrainBT(ctx, fit, bt)
		if err != nil {
			return nil, Meta{}, err
		}
		acc, err := Measure(ctx, held, model.Score)
		if err != nil {
			return nil, Meta{}, err
		}
		folds = append(folds, acc)
	}
	final, err := featmodel.TrainBT(ctx, append(slices.Clip(samples), extra...), bt)
	if err != nil {
		return nil, Meta{}, err
	}
	meta := Meta{Problems: len(samples), ProofSamples: len(extra), Folds: k, CrossValidated: pool(folds), Iterations: final.Info.Epochs}
	if !cfg.NoLD {
		meta.LDFeatures = NumLD
	}
	return final, meta, nil
}

// extraSamples turns the extra problems into samples and gives each the
// fold of its book problem (problem i is in fold i mod k).
func extraSamples(f Featurizer, problems, extra []Problem, k int) (featmodel.Samples, []int, error) {
	if len(extra) == 0 {
		return nil, nil, nil
	}
	foldOf := make(map[string]int, len(problems))
	for i, p := range problems {
		foldOf[p.Name] = i % k
	}
	samples, err := f.Samples(extra)
	if err != nil {
		return nil, nil, err
	}
	folds := make([]int, len(extra))
	for i, p := range extra {
		fold, ok := foldOf[p.From]
		if p.From == KillAllName {
			fold, ok = -1, true // no book problem: in every fold's fit
		}
		if !ok {
			return nil, nil, fmt.Errorf("tsumego: sample %s comes from %q, which is not a problem trained on", p.Name, p.From)
		}
		folds[i] = fold
	}
	return samples, folds, nil
}

// pool combines the accuracies of disjoint sample sets.
func pool(parts []Accuracy) Accuracy {
	var a Accuracy
	for _, p := range parts {
		n := float64(p.Samples)
		a.Samples += p.Samples
		a.Top1 += n * p.Top1
		a.Top3 += n * p.Top3
		a.MeanRank += n * p.MeanRank
		a.MeanMoves += n * p.MeanMoves
		a.UniformTop1 += n * p.UniformTop1
	}
	a.average()
	return a
}

// Save writes a model directory: the weights, the feature set and meta.
func Save(dir string, m featmodel.Model, set *features.Extractor, meta Meta) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("tsumego: %w", err)
	}
	if err := featmodel.SaveModel(filepath.Join(dir, WeightsFile), m); err != nil {
		return err
	}
	if err := set.Save(filepath.Join(dir, FeatureSetFile)); err != nil {
		return err
	}
	data, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return fmt.Errorf("tsumego: %w", err)
	}
	return atomicfile.WriteFile(filepath.Join(dir, MetaFile), append(data, '\n'))
}

// Ranker scores a position's candidate moves by a model trained here. It is
// safe for concurrent use.
type Ranker struct {
	f       Featurizer
	model   featmodel.Model
	scratch sync.Pool
}

// LoadRanker reads a model directory written by Save.
func LoadRanker(dir string) (*Ranker, Meta, error) {
	var meta Meta
	data, err := readfile.Read(filepath.Join(dir, MetaFile), readfile.MaxText)
	if err != nil {
		return nil, meta, fmt.Errorf("tsumego: %w", err)
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return nil, meta, fmt.Errorf("tsumego: %s: %w", filepath.Join(dir, MetaFile), err)
	}
	if meta.LDFeatures != 0 && meta.LDFeatures != NumLD {
		return nil, meta, fmt.Errorf("tsumego: %s: ld_features %d, this version has %d: retrain the model", filepath.Join(dir, MetaFile), meta.LDFeatures, NumLD)
	}
	set, err := features.Load(filepath.Join(dir, FeatureSetFile))
	if err != nil {
		return nil, meta, err
	}
	m, err := featmodel.LoadModel(filepath.Join(dir, WeightsFile))
	if err != nil {
		return nil, meta, err
	}
	f := NewFeaturizer(set)
	if meta.LDFeatures == 0 {
		f.LD = LD{Base: -1}
	}
	if bt, ok := m.(*featmodel.BTModel); ok && bt.NumFeatures() != f.NumFeatures() {
		return nil, meta, fmt.Errorf("tsumego: %s: the model has %d features, its feature set %d", dir, bt.NumFeatures(), f.NumFeatures())
	}
	return newRanker(f, m), meta, nil
}

// newRanker returns the ranker of model m on f's features.
func newRanker(f Featurizer, m featmodel.Model) *Ranker {
	r := &Ranker{f: f, model: m}
	r.scratch.New = func() any { return new(Scratch) }
	return r
}

// Rank writes the model's score of each move (legal board moves or
// game.Pass) for pos's side to move into scores.
func (r *Ranker) Rank(pos *game.Position, moves []game.Point, scores []float64) error {
	return r.rank(pos, moves, scores, nil)
}

// rank is Rank with each score raised by the sum of delta over the move's
// feature ids (an OnlineRanker's corrections; nil for none).
func (r *Ranker) rank(pos *game.Position, moves []game.Point, scores, delta []float64) error {
	if len(scores) < len(moves) {
		return errors.New("tsumego: Rank: scores shorter than moves")
	}
	s := r.scratch.Get().(*Scratch)
	defer r.scratch.Put(s)
	return r.f.Candidates(pos, moves, s, func(i int, ids []int32) {
		scores[i] = r.model.Score(ids)
		if delta != nil {
			scores[i] += correction(delta, ids)
		}
	})
}
