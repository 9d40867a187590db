package featmodel

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
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

// machine returns the model's factor machine, nil for a nil model.
func (m *LFRModel) machine() *factorMachine {
	if m == nil {
		return nil
	}
	return &m.factorMachine
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
	// Sampling chooses the other legal moves paired with the played move:
	// SamplingUniform (or empty), SamplingSoftmax or SamplingWARP.
	Sampling string `json:"sampling,omitempty" yaml:"sampling"`
	// Negatives is how many other legal moves are paired with the played move
	// per position and epoch. Uniform sampling draws them without
	// replacement, 0 pairing it with all; softmax sampling draws them with
	// replacement and WARP searches for that many violating moves, 0 meaning
	// DefaultHardNegatives.
	Negatives int `json:"negatives" yaml:"negatives"`
	// Temperature divides the scores softmax sampling draws by: high values
	// tend to uniform sampling, low ones to the top-scoring moves; 0 means 1.
	Temperature float64 `json:"temperature,omitempty" yaml:"temperature"`
	// NumFeatures fixes the number of feature ids; 0 counts them from the data.
	NumFeatures int `json:"num_features" yaml:"num_features"`
	// Optimizer is OptimizerSGD (or empty: the paper's plain SGD) or
	// OptimizerAdagrad, whose per-parameter steps lr·g/√Σg² give the rare
	// features (most shapes) large steps where one SGD step size is too
	// small for them or too large for the common ones. Adagrad's steps do
	// not change when every gradient is scaled by a constant, so a learning
	// rate suits both LFR's pairwise loss and FBT's softmax.
	Optimizer string `json:"optimizer,omitempty" yaml:"optimizer"`
	// ShuffleBuffer is the shuffle window for sources not held in memory.
	ShuffleBuffer int `json:"shuffle_buffer" yaml:"shuffle_buffer"`
	// OnEpoch, when set, is called after each epoch with the mean pairwise loss.
	OnEpoch EpochFunc `json:"-" yaml:"-"`
	// Visited, when set, is called during each epoch with the number of
	// samples visited since its last call (a progress bar's steps).
	Visited func(samples int) `json:"-" yaml:"-"`
	// Init, when set, is a warm start: training continues from a copy of
	// its weights (more epochs, or new game records) instead of fresh
	// factors. It must have the data's number of features; its k replaces
	// Factors.
	Init *LFRModel `json:"-" yaml:"-"`
}

// DefaultLFRConfig returns the configuration TrainLFR is meant to run with:
// WARP pairs at learning rate 0.0005 for 10 epochs, the setting chosen on a
// hold-out of 100,000 tom9d training positions (docs/results/movepred.md:
// 8 points top-1 above the paper's uniform pairs). An empty Sampling, as in
// configs written before the field existed, still means uniform.
func DefaultLFRConfig() LFRConfig {
	return LFRConfig{
		Factors: 8, Epochs: 10, LearningRate: 0.0005, RegW: 1e-4, RegV: 1e-3, InitStd: 0.05,
		Sampling: SamplingWARP, ShuffleBuffer: DefaultShuffleBuffer,
	}
}

// The pair samplings of TrainLFR.
const (
	// SamplingUniform pairs the played move with other legal moves drawn
	// uniformly (Wistuba and Schmidt-Thieme's LFR): most pairs are easy, a
	// far-away move against the played one.
	SamplingUniform = "uniform"
	// SamplingSoftmax draws the other moves in proportion to
	// exp(y/Temperature) under the current model, scored once per position:
	// the moves the model confuses with the played one get the steps.
	SamplingSoftmax = "softmax"
	// SamplingWARP draws other moves uniformly until it finds one that scores
	// within warpMargin of the played move (Weston et al.'s WARP) and weights
	// the step by the rank of the played move that the number of draws
	// suggests.
	SamplingWARP = "warp"
)

// DefaultHardNegatives is the number of negatives softmax and WARP sampling
// take per position when Negatives is 0.
const DefaultHardNegatives = 16

// warpMargin is the score gap below which an other move violates the played
// one in WARP sampling: the logistic loss of a pair at gap 1 is still 0.31.
const warpMargin = 1

func (c LFRConfig) validate() error {
	switch c.Sampling {
	case "", SamplingUniform, SamplingSoftmax, SamplingWARP:
	default:
		return fmt.Errorf("sampling %q: want %q, %q or %q", c.Sampling, SamplingUniform, SamplingSoftmax, SamplingWARP)
	}
	if c.Optimizer != "" {
		if err := checkOptimizer(c.Optimizer); err != nil {
			return err
		}
	}
	if !(c.Temperature >= 0) || math.IsInf(c.Temperature, 0) {
		return fmt.Errorf("temperature %v: want finite and >= 0 (0: 1)", c.Temperature)
	}
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
// order drawn from rng (the same rng state gives the same model). The pairs
// are those cfg.Sampling draws.
func TrainLFR(ctx context.Context, src SampleSource, cfg LFRConfig, rng *rand.Rand) (*LFRModel, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("lfr config: %w", err)
	}
	n, samples, err := prepareSGD(ctx, src, cfg.NumFeatures)
	if err != nil {
		return nil, fmt.Errorf("lfr: %w", err)
	}
	fm, err := startFactorMachine(cfg.Init.machine(), n, cfg.Factors, cfg.InitStd, rng)
	if err != nil {
		return nil, fmt.Errorf("lfr: %w", err)
	}
	st := newFMStep(fm, cfg.LearningRate, cfg.RegW, cfg.RegV, cfg.Optimizer == OptimizerAdagrad)
	t := lfrTrainer{fm: fm, st: st, rng: rng, sampling: cfg.Sampling, negatives: cfg.Negatives, temperature: cfg.Temperature,
		sumA: make([]float64, fm.k), sumB: make([]float64, fm.k)}
	if t.sampling != SamplingUniform && t.sampling != "" {
		t.negatives = cmp.Or(t.negatives, DefaultHardNegatives)
	}
	if t.temperature == 0 {
		t.temperature = 1
	}
	info := TrainInfo{Samples: samples}
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		t.loss, t.pairs = 0, 0
		if err := scanShuffled(ctx, src, rng, cfg.ShuffleBuffer, cfg.Visited, t.sample); err != nil {
			return nil, fmt.Errorf("lfr epoch %d: %w", epoch, err)
		}
		loss := t.loss / float64(max(t.pairs, 1))
		if err := fm.checkFinite(); err != nil || math.IsNaN(loss) || math.IsInf(loss, 0) {
			return nil, fmt.Errorf("lfr epoch %d diverged (%v, loss %v): lower the learning rate", epoch, err, loss)
		}
		info.Epochs = epoch
		info.Loss = append(info.Loss, loss)
		if cfg.OnEpoch != nil {
			cfg.OnEpoch(epoch, loss)
		}
	}
	return &LFRModel{factorMachine: *fm, Info: info}, nil
}

// lfrTrainer holds the scratch state of one LFR run.
type lfrTrainer struct {
	fm          *factorMachine
	st          *fmStep
	rng         *rand.Rand
	sampling    string
	negatives   int
	temperature float64
	others      []int     // indices of the moves paired with the played one
	pool        []int     // WARP: the other moves, drawn ones first
	weights     []float64 // their steps' weights; nil: all 1
	cum         []float64 // softmax sampling: cumulative weights
	harmonic    []float64 // WARP: harmonic[r] = Σ_{i≤r} 1/i
	sumA, sumB  []float64
	loss        float64
	pairs       int
}

// sample takes one SGD step per (played, other) pair of s.
func (t *lfrTrainer) sample(s *Sample) error {
	switch t.sampling {
	case SamplingSoftmax:
		t.drawSoftmax(s)
	case SamplingWARP:
		t.drawWARP(s)
	default:
		t.drawUniform(s)
	}
	played := s.Candidates[s.Played]
	for i, o := range t.others {
		weight := 1.0
		if t.weights != nil {
			weight = t.weights[i]
		}
		t.step(played, s.Candidates[o], weight)
	}
	return nil
}

// step takes one SGD step on weight·(−ln σ(y(played) − y(other))).
func (t *lfrTrainer) step(played, other Candidate, weight float64) {
	d := t.fm.score(played, t.sumA) - t.fm.score(other, t.sumB)
	t.loss += softplus(-d)
	t.pairs++
	g := weight * sigmoid(-d) // −∂loss/∂d
	t.st.add(played, t.sumA, -g)
	t.st.add(other, t.sumB, g)
	t.st.apply()
}

// drawUniform leaves in t.others negatives other moves of s drawn uniformly
// without replacement, or all of them.
func (t *lfrTrainer) drawUniform(s *Sample) {
	t.others, t.weights = t.others[:0], nil
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
	t.others = t.others[:pairs]
}

// drawSoftmax leaves in t.others negatives other moves of s drawn with
// replacement, each with probability ∝ exp(y/temperature) under the model
// before this position's steps. Unlike mcts.DrawWeighted (one draw, a
// linear walk) it draws many times from one distribution, so it builds the
// cumulative weights once and finds each draw by binary search.
func (t *lfrTrainer) drawSoftmax(s *Sample) {
	t.others, t.weights = t.others[:0], nil
	nc := len(s.Candidates)
	if nc < 2 {
		return
	}
	if cap(t.cum) < nc {
		t.cum = make([]float64, nc)
	}
	cum := t.cum[:nc] // scores first, then cumulative weights
	top := math.Inf(-1)
	for i, c := range s.Candidates {
		if i != s.Played {
			cum[i] = t.fm.score(c, t.sumB) / t.temperature
			top = max(top, cum[i])
		}
	}
	total := 0.0
	for i := range cum {
		if i != s.Played {
			total += math.Exp(cum[i] - top)
		}
		cum[i] = total // the played move adds nothing: never drawn
	}
	for range t.negatives {
		u := t.rng.Float64() * total
		t.others = append(t.others, sort.Search(nc, func(i int) bool { return cum[i] > u }))
	}
}

// drawWARP leaves in t.others up to negatives other moves of s that score
// within warpMargin of the played move, found by drawing the others
// uniformly without replacement, and in t.weights the WARP weight of each:
// with V̂ = found·(moves)/(draws) the estimated number of violating moves,
// the rank loss L(V̂) = Σ_{i≤V̂} 1/i shared by the pairs found. A played move
// that nothing violates gets no step.
func (t *lfrTrainer) drawWARP(s *Sample) {
	t.others, t.weights, t.pool = t.others[:0], t.weights[:0], t.pool[:0]
	for i := range s.Candidates {
		if i != s.Played {
			t.pool = append(t.pool, i)
		}
	}
	m := len(t.pool)
	played := t.fm.score(s.Candidates[s.Played], t.sumA)
	draws := 0
	for draws < m && len(t.others) < t.negatives {
		j := draws + t.rng.IntN(m-draws)
		t.pool[draws], t.pool[j] = t.pool[j], t.pool[draws]
		o := t.pool[draws]
		draws++
		if t.fm.score(s.Candidates[o], t.sumB) > played-warpMargin {
			t.others = append(t.others, o)
		}
	}
	found := len(t.others)
	if found == 0 {
		return
	}
	w := t.rankLoss(found*m/draws) / float64(found)
	for range found {
		t.weights = append(t.weights, w)
	}
}

// rankLoss returns WARP's L(r) = Σ_{i=1}^{r} 1/i, which grows like ln r: a
// played move ranked low gets larger steps than one just below the top.
func (t *lfrTrainer) rankLoss(r int) float64 {
	for len(t.harmonic) <= r {
		n := len(t.harmonic)
		if n == 0 {
			t.harmonic = append(t.harmonic, 0)
			continue
		}
		t.harmonic = append(t.harmonic, t.harmonic[n-1]+1/float64(n))
	}
	return t.harmonic[r]
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
