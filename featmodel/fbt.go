package featmodel

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// FBTModel is Factorization Bradley-Terry (Xiao and Müller, "Factorization
// Ranking Model for Move Prediction in the Game of Go", AAAI 2016): the
// factorization machine
//
//	y(c) = Σ_{f∈c} w_f + Σ_{f<g ∈ c} <v_f, v_g>
//
// read as a log-strength, so that the probability of a move is the softmax of
// the scores of all legal moves. Unlike BT it represents pairwise feature
// interactions; unlike LFR it is trained as a probability model.
type FBTModel struct {
	factorMachine
	Info TrainInfo
}

// NewFBTModel returns the model with weights w (index = feature id) and
// factors v (feature-major, len(w)·k values).
func NewFBTModel(w, v []float64, k int) (*FBTModel, error) {
	fm, err := newFactorMachineFrom(w, v, k)
	if err != nil {
		return nil, err
	}
	return &FBTModel{factorMachine: *fm}, nil
}

// Name returns "fbt".
func (m *FBTModel) Name() string { return "fbt" }

// machine returns the model's factor machine, nil for a nil model.
func (m *FBTModel) machine() *factorMachine {
	if m == nil {
		return nil
	}
	return &m.factorMachine
}

// checkOptimizer fails unless o is one of the optimizers.
func checkOptimizer(o string) error {
	if o != OptimizerSGD && o != OptimizerAdagrad {
		return fmt.Errorf("optimizer %q: want %q or %q", o, OptimizerAdagrad, OptimizerSGD)
	}
	return nil
}

// Optimizers TrainFBT and TrainLFR know.
const (
	OptimizerSGD     = "sgd"
	OptimizerAdagrad = "adagrad"
)

// FBTConfig configures TrainFBT.
type FBTConfig struct {
	Factors      int     `json:"factors" yaml:"factors"`             // k
	Epochs       int     `json:"epochs" yaml:"epochs"`               // passes over the samples
	LearningRate float64 `json:"learning_rate" yaml:"learning_rate"` // step size (Adagrad: initial)
	RegW         float64 `json:"reg_w" yaml:"reg_w"`                 // L2 on weights
	RegV         float64 `json:"reg_v" yaml:"reg_v"`                 // L2 on factors
	InitStd      float64 `json:"init_std" yaml:"init_std"`           // factors start as N(0, InitStd²)
	Optimizer    string  `json:"optimizer" yaml:"optimizer"`         // OptimizerAdagrad or OptimizerSGD
	// NumFeatures fixes the number of feature ids; 0 counts them from the data.
	NumFeatures int `json:"num_features" yaml:"num_features"`
	// ShuffleBuffer is the shuffle window for sources not held in memory.
	ShuffleBuffer int `json:"shuffle_buffer" yaml:"shuffle_buffer"`
	// OnEpoch, when set, is called after each epoch with the mean negative
	// log-likelihood of the played moves.
	OnEpoch EpochFunc `json:"-" yaml:"-"`
	// Visited, when set, is called during each epoch with the number of
	// samples visited since its last call (a progress bar's steps).
	Visited func(samples int) `json:"-" yaml:"-"`
	// Init, when set, is a warm start as in LFRConfig. Adagrad's
	// accumulated squared gradients are not in a weights file, so they
	// start from zero: the first steps are as large as a fresh run's.
	Init *FBTModel `json:"-" yaml:"-"`
}

// DefaultFBTConfig returns the configuration TrainFBT is meant to run with:
// Adagrad at 0.1 for 2 epochs, chosen on a hold-out of 100,000 tom9d
// training positions (docs/results/movepred.md); more epochs overfit there.
func DefaultFBTConfig() FBTConfig {
	return FBTConfig{
		Factors: 8, Epochs: 2, LearningRate: 0.1, RegW: 1e-4, RegV: 1e-3, InitStd: 0.05,
		Optimizer: OptimizerAdagrad, ShuffleBuffer: DefaultShuffleBuffer,
	}
}

func (c FBTConfig) validate() error {
	if err := checkOptimizer(c.Optimizer); err != nil {
		return err
	}
	return validateSGD(c.Factors, c.Epochs, c.LearningRate, c.RegW, c.RegV, c.InitStd, c.NumFeatures, c.ShuffleBuffer, 0)
}

// TrainFBT trains an FBT model on the log-likelihood of the played moves,
// one step per position: the gradient of −ln softmax(y)[played] over all its
// legal moves, applied by SGD or Adagrad. Samples are visited in an order
// drawn from rng (the same rng state gives the same model).
func TrainFBT(ctx context.Context, src SampleSource, cfg FBTConfig, rng *rand.Rand) (*FBTModel, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("fbt config: %w", err)
	}
	n, samples, err := prepareSGD(ctx, src, cfg.NumFeatures)
	if err != nil {
		return nil, fmt.Errorf("fbt: %w", err)
	}
	fm, err := startFactorMachine(cfg.Init.machine(), n, cfg.Factors, cfg.InitStd, rng)
	if err != nil {
		return nil, fmt.Errorf("fbt: %w", err)
	}
	t := fbtTrainer{fm: fm, st: newFMStep(fm, cfg.LearningRate, cfg.RegW, cfg.RegV, cfg.Optimizer == OptimizerAdagrad)}
	info := TrainInfo{Samples: samples}
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		t.loss, t.samples = 0, 0
		if err := scanShuffled(ctx, src, rng, cfg.ShuffleBuffer, cfg.Visited, t.sample); err != nil {
			return nil, fmt.Errorf("fbt epoch %d: %w", epoch, err)
		}
		loss := t.loss / float64(max(t.samples, 1))
		if err := fm.checkFinite(); err != nil || math.IsNaN(loss) || math.IsInf(loss, 0) {
			return nil, fmt.Errorf("fbt epoch %d diverged (%v, loss %v): lower the learning rate", epoch, err, loss)
		}
		info.Epochs = epoch
		info.Loss = append(info.Loss, loss)
		if cfg.OnEpoch != nil {
			cfg.OnEpoch(epoch, loss)
		}
	}
	return &FBTModel{factorMachine: *fm, Info: info}, nil
}

// fbtTrainer holds the scratch state of one FBT run.
type fbtTrainer struct {
	fm      *factorMachine
	st      *fmStep
	y       []float64 // score of each candidate
	sums    []float64 // Σ v_f of each candidate, k per candidate
	loss    float64
	samples int
}

// sample takes one step on the negative log-likelihood of s's played move:
// ∂/∂y(c) = p(c) − [c played], with p the softmax of the scores.
func (t *fbtTrainer) sample(s *Sample) error {
	k := t.fm.k
	nc := len(s.Candidates)
	if cap(t.y) < nc {
		t.y = make([]float64, nc)
		t.sums = make([]float64, nc*k)
	}
	y, sums := t.y[:nc], t.sums[:nc*k]
	top := math.Inf(-1)
	for i, c := range s.Candidates {
		y[i] = t.fm.score(c, sums[i*k:(i+1)*k])
		top = max(top, y[i])
	}
	z := 0.0
	for i := range y {
		y[i] = math.Exp(y[i] - top) // y now holds unnormalised probabilities
		z += y[i]
	}
	t.loss -= math.Log(y[s.Played] / z)
	t.samples++
	for i, c := range s.Candidates {
		coef := y[i] / z
		if i == s.Played {
			coef--
		}
		t.st.add(c, sums[i*k:(i+1)*k], coef)
	}
	t.st.apply()
	return nil
}
