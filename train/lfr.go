package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// LFRModel is Latent Factor Ranking (Wistuba and Schmidt-Thieme, "Move
// Prediction in Go – Modelling Feature Interactions Using Latent Factors",
// 2013): a factorization machine
//
//	y(c) = Σ_{f∈c} w_f + Σ_{f<g ∈ c} <v_f, v_g>
//
// with k latent factors per feature, trained so that the played move outranks
// the other legal moves. Its scores are a ranking; read as logits (see
// movepred) they give the Plackett-Luce extension of the pairwise model it was
// trained on.
type LFRModel struct {
	factorMachine
	Info TrainInfo
}

// NewLFRModel returns the model with weights w (index = feature id) and
// factors v (feature-major, len(w)·k values).
func NewLFRModel(w, v []float64, k int) (*LFRModel, error) {
	fm, err := newFactorMachineFrom(w, v, k)
	if err != nil {
		return nil, err
	}
	return &LFRModel{factorMachine: *fm}, nil
}

// Name returns "lfr".
func (m *LFRModel) Name() string { return "lfr" }

// LFRConfig configures TrainLFR.
type LFRConfig struct {
	Factors      int     `json:"factors" yaml:"factors"`             // k
	Epochs       int     `json:"epochs" yaml:"epochs"`               // passes over the samples
	LearningRate float64 `json:"learning_rate" yaml:"learning_rate"` // SGD step size
	RegW         float64 `json:"reg_w" yaml:"reg_w"`                 // L2 on weights
	RegV         float64 `json:"reg_v" yaml:"reg_v"`                 // L2 on factors
	InitStd      float64 `json:"init_std" yaml:"init_std"`           // factors start as N(0, InitStd²)
	// Negatives is how many other legal moves are paired with the played move
	// per position and epoch, drawn without replacement; 0 pairs it with all.
	Negatives int `json:"negatives" yaml:"negatives"`
	// NumFeatures fixes the number of feature ids; 0 counts them from the data.
	NumFeatures int `json:"num_features" yaml:"num_features"`
	// ShuffleBuffer is the shuffle window for sources not held in memory.
	ShuffleBuffer int `json:"shuffle_buffer" yaml:"shuffle_buffer"`
	// Progress, when set, is called after each epoch with the mean pairwise loss.
	Progress Progress `json:"-" yaml:"-"`
}

// DefaultLFRConfig returns the configuration TrainLFR is meant to run with.
func DefaultLFRConfig() LFRConfig {
	return LFRConfig{
		Factors: 8, Epochs: 10, LearningRate: 0.005, RegW: 1e-4, RegV: 1e-3, InitStd: 0.05,
		ShuffleBuffer: 4096,
	}
}

func (c LFRConfig) validate() error {
	return validateSGD(c.Factors, c.Epochs, c.LearningRate, c.RegW, c.RegV, c.InitStd, c.NumFeatures, c.ShuffleBuffer, c.Negatives)
}

// validateSGD checks the settings LFR and FBT share.
func validateSGD(factors, epochs int, lr, regW, regV, initStd float64, numFeatures, shuffle, negatives int) error {
	switch {
	case factors < 1 || factors > maxFactors:
		return fmt.Errorf("factors %d: want 1..%d (start from the Default config)", factors, maxFactors)
	case epochs < 1:
		return fmt.Errorf("epochs %d: want at least 1", epochs)
	case !(lr > 0) || math.IsInf(lr, 0):
		return fmt.Errorf("learning_rate %v: want finite and > 0", lr)
	case !(regW >= 0) || !(regV >= 0) || math.IsInf(regW, 0) || math.IsInf(regV, 0):
		return fmt.Errorf("reg_w %v, reg_v %v: want finite and >= 0", regW, regV)
	case !(initStd >= 0) || math.IsInf(initStd, 0):
		return fmt.Errorf("init_std %v: want finite and >= 0", initStd)
	case numFeatures < 0:
		return fmt.Errorf("num_features %d: want >= 0", numFeatures)
	case shuffle < 1:
		return fmt.Errorf("shuffle_buffer %d: want at least 1", shuffle)
	case negatives < 0:
		return fmt.Errorf("negatives %d: want >= 0", negatives)
	}
	return nil
}

// TrainLFR trains an LFR model by SGD on the pairwise logistic ranking loss
// −ln σ(y(played) − y(other)), one step per pair, visiting the samples in an
// order drawn from rng (the same rng state gives the same model).
func TrainLFR(ctx context.Context, src SampleSource, cfg LFRConfig, rng *rand.Rand) (*LFRModel, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("lfr config: %w", err)
	}
	n, samples, err := prepareSGD(ctx, src, cfg.NumFeatures)
	if err != nil {
		return nil, fmt.Errorf("lfr: %w", err)
	}
	fm := newFactorMachine(n, cfg.Factors, cfg.InitStd, rng)
	st := newFMStep(fm, cfg.LearningRate, cfg.RegW, cfg.RegV, false)
	t := lfrTrainer{fm: fm, st: st, rng: rng, negatives: cfg.Negatives,
		sumA: make([]float64, cfg.Factors), sumB: make([]float64, cfg.Factors)}
	info := TrainInfo{Samples: samples}
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		t.loss, t.pairs = 0, 0
		if err := scanShuffled(ctx, src, rng, cfg.ShuffleBuffer, t.sample); err != nil {
			return nil, fmt.Errorf("lfr epoch %d: %w", epoch, err)
		}
		loss := t.loss / float64(max(t.pairs, 1))
		if err := fm.checkFinite(); err != nil || math.IsNaN(loss) || math.IsInf(loss, 0) {
			return nil, fmt.Errorf("lfr epoch %d diverged (%v, loss %v): lower the learning rate", epoch, err, loss)
		}
		info.Epochs = epoch
		info.Loss = append(info.Loss, loss)
		if cfg.Progress != nil {
			cfg.Progress(epoch, loss)
		}
	}
	return &LFRModel{factorMachine: *fm, Info: info}, nil
}

// lfrTrainer holds the scratch state of one LFR run.
type lfrTrainer struct {
	fm         *factorMachine
	st         *fmStep
	rng        *rand.Rand
	negatives  int
	others     []int
	sumA, sumB []float64
	loss       float64
	pairs      int
}

// sample takes one SGD step per (played, other) pair of s.
func (t *lfrTrainer) sample(s *Sample) error {
	t.others = t.others[:0]
	for i := range s.Candidates {
		if i != s.Played {
			t.others = append(t.others, i)
		}
	}
	pairs := len(t.others)
	if t.negatives > 0 && t.negatives < pairs {
		pairs = t.negatives
	}
	// A partial Fisher-Yates shuffle draws the negatives without replacement.
	for i := range pairs {
		j := i + t.rng.IntN(len(t.others)-i)
		t.others[i], t.others[j] = t.others[j], t.others[i]
	}
	played := s.Candidates[s.Played]
	for _, i := range t.others[:pairs] {
		other := s.Candidates[i]
		d := t.fm.score(played, t.sumA) - t.fm.score(other, t.sumB)
		t.loss += softplus(-d)
		g := sigmoid(-d) // −∂loss/∂d
		t.st.add(played, t.sumA, -g)
		t.st.add(other, t.sumB, g)
		t.st.apply()
	}
	t.pairs += pairs
	return nil
}

// prepareSGD validates every sample once and returns the feature count and
// the number of samples.
func prepareSGD(ctx context.Context, src SampleSource, configured int) (features, samples int, err error) {
	if configured > MaxFeatures {
		return 0, 0, fmt.Errorf("num_features %d above the limit %d", configured, MaxFeatures)
	}
	samples, features, err = countFeatures(ctx, src)
	if err != nil {
		return 0, 0, err
	}
	if samples == 0 {
		return 0, 0, fmt.Errorf("no samples to train on")
	}
	if configured > 0 {
		if features > configured {
			return 0, 0, fmt.Errorf("feature id %d in the data but num_features is %d", features-1, configured)
		}
		features = configured
	}
	return max(features, 1), samples, nil
}

// softplus returns ln(1 + eˣ) without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// sigmoid returns 1 / (1 + e⁻ˣ).
func sigmoid(x float64) float64 {
	return 1 / (1 + math.Exp(-x))
}
