package featmodel

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// BTModel is the generalized Bradley-Terry model of move choice (Coulom,
// "Computing Elo Ratings of Move Patterns in the Game of Go", 2007): each
// feature f has a strength γ_f > 0, a move is a team whose strength is the
// product of its features' gammas, and the probability that a move is played
// is its strength over the sum of the strengths of all legal moves. Score is
// the log-strength Σ ln γ_f, so a softmax of the scores of a position gives
// the model's move probabilities.
type BTModel struct {
	gamma    []float64
	logGamma []float64
	Info     TrainInfo
}

// NewBTModel returns the model with the given gammas (index = feature id),
// which must be finite and positive.
func NewBTModel(gammas []float64) (*BTModel, error) {
	m := &BTModel{gamma: make([]float64, len(gammas)), logGamma: make([]float64, len(gammas))}
	for f, g := range gammas {
		if !(g > 0) || math.IsInf(g, 0) {
			return nil, fmt.Errorf("gamma of feature %d is %v, want finite and positive", f, g)
		}
		m.gamma[f] = g
		m.logGamma[f] = math.Log(g)
	}
	return m, nil
}

// Name returns "bt".
func (m *BTModel) Name() string { return "bt" }

// Score returns the log-strength of the move: Σ ln γ_f over its features
// (unknown features count as γ = 1).
func (m *BTModel) Score(c Candidate) float64 {
	s := 0.0
	for _, f := range c {
		if f >= 0 && int(f) < len(m.logGamma) {
			s += m.logGamma[f]
		}
	}
	return s
}

// Gamma returns γ_f (1 for a feature the model does not know).
func (m *BTModel) Gamma(f int32) float64 {
	if f < 0 || int(f) >= len(m.gamma) {
		return 1
	}
	return m.gamma[f]
}

// NumFeatures returns the number of feature ids the model has gammas for.
func (m *BTModel) NumFeatures() int { return len(m.gamma) }

// BTConfig configures TrainBT.
type BTConfig struct {
	// MaxIterations bounds the number of MM iterations (each updates every
	// feature once).
	MaxIterations int `json:"max_iterations" yaml:"max_iterations"`
	// Tolerance stops the iterations once no ln γ moved by more than this in
	// a whole iteration; 0 runs all MaxIterations.
	Tolerance float64 `json:"tolerance" yaml:"tolerance"`
	// NumFeatures fixes the number of feature ids; 0 counts them from the data.
	NumFeatures int `json:"num_features" yaml:"num_features"`
	// OnEpoch, when set, is called after each iteration with the mean
	// negative log-likelihood of the played moves.
	OnEpoch EpochFunc `json:"-" yaml:"-"`
}

// DefaultBTConfig returns the configuration TrainBT is meant to run with.
func DefaultBTConfig() BTConfig {
	return BTConfig{MaxIterations: 200, Tolerance: 1e-6}
}

func (c BTConfig) validate() error {
	if c.MaxIterations < 1 {
		return fmt.Errorf("max_iterations %d: want at least 1 (start from DefaultBTConfig)", c.MaxIterations)
	}
	if c.Tolerance < 0 || math.IsNaN(c.Tolerance) {
		return fmt.Errorf("tolerance %v: want >= 0", c.Tolerance)
	}
	if c.NumFeatures < 0 {
		return fmt.Errorf("num_features %d: want >= 0", c.NumFeatures)
	}
	return nil
}

// TrainBT fits a Bradley-Terry model to the samples by Coulom's
// minorization-maximization. The prior is one virtual win and one virtual
// loss per feature against a virtual opponent of strength 1. Every iteration
// updates the features one at a time in id order with the exact MM step
//
//	γ_i ← (W_i + 1) / (Σ_j C_ij/E_j + 2/(γ_i + 1)),
//
// where W_i counts the played moves that have feature i, E_j is the total
// strength of the moves of position j, and C_ij is the strength of the moves
// of position j that have feature i, divided by γ_i. Updating one feature at a
// time keeps each step an exact maximization of a minorizer, so the log
// posterior (Info.LogPosterior) never decreases, whatever features occur
// together. The samples are packed in memory (4 bytes per active feature plus
// 20 bytes per candidate), in two passes over src.
func TrainBT(ctx context.Context, src SampleSource, cfg BTConfig) (*BTModel, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("bt config: %w", err)
	}
	d, err := packBT(ctx, src, cfg.NumFeatures)
	if err != nil {
		return nil, fmt.Errorf("bt: %w", err)
	}
	m := &BTModel{gamma: make([]float64, d.numFeatures), logGamma: make([]float64, d.numFeatures)}
	for f := range m.gamma {
		m.gamma[f] = 1
	}
	info := TrainInfo{Samples: d.numSamples()}
	ll := d.refresh(m.gamma)
	info.LogLikelihood = append(info.LogLikelihood, ll)
	info.LogPosterior = append(info.LogPosterior, ll+btLogPrior(m.gamma))
	for it := 1; it <= cfg.MaxIterations; it++ {
		maxStep, err := d.sweep(ctx, m.gamma)
		if err != nil {
			return nil, fmt.Errorf("bt iteration %d: %w", it, err)
		}
		ll := d.refresh(m.gamma)
		info.Epochs = it
		info.LogLikelihood = append(info.LogLikelihood, ll)
		info.LogPosterior = append(info.LogPosterior, ll+btLogPrior(m.gamma))
		loss := -ll / float64(max(d.numSamples(), 1))
		info.Loss = append(info.Loss, loss)
		if cfg.OnEpoch != nil {
			cfg.OnEpoch(it, loss)
		}
		if maxStep < cfg.Tolerance {
			break
		}
	}
	for f, g := range m.gamma {
		m.logGamma[f] = math.Log(g)
	}
	m.Info = info
	return m, nil
}

// btLogPrior is the log-likelihood of the virtual games: for each feature one
// win and one loss against strength 1, ln γ − 2 ln(γ + 1).
func btLogPrior(gamma []float64) float64 {
	s := 0.0
	for _, g := range gamma {
		s += math.Log(g) - 2*math.Log1p(g)
	}
	return s
}

// btData is the training set packed for MM: candidates are numbered globally
// in sample order, and for each feature the candidates that have it are
// listed in ascending order (so grouped by sample).
type btData struct {
	numFeatures int
	sampleStart []int32   // candidates of sample j: sampleStart[j] .. sampleStart[j+1]-1
	played      []int32   // global index of each sample's played candidate
	candSample  []int32   // sample of each candidate
	occStart    []int64   // candidates with feature f: occCand[occStart[f]:occStart[f+1]]
	occCand     []int32   //
	wins        []float64 // W_f: played moves with feature f
	strength    []float64 // current strength of each candidate
	total       []float64 // E_j: current total strength of sample j
}

func (d *btData) numSamples() int { return len(d.played) }

// packBT reads src into a btData, validating every sample. It reads src
// twice, first to count each feature's occurrences and then to place them,
// so that nothing but the packed arrays is held: a flat copy of the
// features (what one pass would need) doubled the peak memory.
func packBT(ctx context.Context, src SampleSource, configured int) (*btData, error) {
	limit := MaxFeatures
	if configured > 0 {
		limit = min(configured, MaxFeatures)
	}
	var counts []int64 // occurrences of each feature id
	var samples, cands int64
	maxID := int32(-1)
	err := src.Scan(ctx, func(s *Sample) error {
		id, err := s.Validate(limit)
		if err != nil {
			return fmt.Errorf("sample %d: %w", samples, err)
		}
		if cands+int64(len(s.Candidates)) > math.MaxInt32 {
			return fmt.Errorf("sample %d: more than %d candidates in all, too many for in-memory MM", samples, math.MaxInt32)
		}
		if int(id) >= len(counts) {
			counts = append(counts, make([]int64, int(id)+1-len(counts))...)
		}
		for _, c := range s.Candidates {
			for _, f := range c {
				counts[f]++
			}
		}
		maxID = max(maxID, id)
		samples++
		cands += int64(len(s.Candidates))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if samples == 0 {
		return nil, fmt.Errorf("no samples to train on")
	}
	d := &btData{
		numFeatures: max(int(maxID)+1, configured, 1),
		sampleStart: make([]int32, 1, samples+1),
		played:      make([]int32, 0, samples),
		candSample:  make([]int32, 0, cands),
	}
	d.occStart = make([]int64, d.numFeatures+1)
	for f, n := range counts {
		d.occStart[f+1] = n
	}
	for f := 1; f <= d.numFeatures; f++ {
		d.occStart[f] += d.occStart[f-1]
	}
	next := append([]int64(nil), d.occStart[:d.numFeatures]...)
	d.occCand = make([]int32, d.occStart[d.numFeatures])
	d.wins = make([]float64, d.numFeatures)
	changed := errors.New("the samples changed between the two passes over them")
	err = src.Scan(ctx, func(s *Sample) error {
		j := len(d.played)
		if int64(j) == samples {
			return changed
		}
		if _, err := s.Validate(d.numFeatures); err != nil {
			return fmt.Errorf("sample %d: %w", j, err)
		}
		first := d.sampleStart[j]
		for i, c := range s.Candidates {
			cand := int32(len(d.candSample))
			d.candSample = append(d.candSample, int32(j))
			for _, f := range c {
				if next[f] == d.occStart[f+1] {
					return changed
				}
				d.occCand[next[f]] = cand
				next[f]++
				if i == s.Played {
					d.wins[f]++
				}
			}
		}
		d.sampleStart = append(d.sampleStart, first+int32(len(s.Candidates)))
		d.played = append(d.played, first+int32(s.Played))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if int64(len(d.played)) != samples || int64(len(d.candSample)) != cands {
		return nil, changed
	}
	d.strength = make([]float64, len(d.candSample))
	d.total = make([]float64, len(d.played))
	return d, nil
}

// refresh recomputes every candidate strength and sample total from gamma
// (undoing the rounding drift of the incremental updates) and returns the
// log-likelihood of the played moves.
func (d *btData) refresh(gamma []float64) float64 {
	for c := range d.strength {
		d.strength[c] = 1
	}
	for f := range d.numFeatures {
		g := gamma[f]
		for _, c := range d.occCand[d.occStart[f]:d.occStart[f+1]] {
			d.strength[c] *= g
		}
	}
	ll := 0.0
	for j, p := range d.played {
		e := 0.0
		for c := d.sampleStart[j]; c < d.sampleStart[j+1]; c++ {
			e += d.strength[c]
		}
		d.total[j] = e
		ll += math.Log(d.strength[p]) - math.Log(e)
	}
	return ll
}

// sweep applies the MM update to every feature in id order, keeping
// strengths and totals in step, and returns the largest |Δ ln γ|.
func (d *btData) sweep(ctx context.Context, gamma []float64) (maxStep float64, err error) {
	for f := range d.numFeatures {
		if f%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		occ := d.occCand[d.occStart[f]:d.occStart[f+1]]
		if len(occ) == 0 {
			continue // the prior alone keeps γ at its optimum, 1
		}
		old := gamma[f]
		den := 0.0
		j, acc := int32(-1), 0.0
		for _, c := range occ {
			if s := d.candSample[c]; s != j {
				if j >= 0 {
					den += acc / d.total[j]
				}
				j, acc = s, 0
			}
			acc += d.strength[c]
		}
		den += acc / d.total[j]
		den = den/old + 2/(old+1)
		g := (d.wins[f] + 1) / den
		ratio := g / old
		for _, c := range occ {
			d.total[d.candSample[c]] += d.strength[c] * (ratio - 1)
			d.strength[c] *= ratio
		}
		gamma[f] = g
		maxStep = max(maxStep, math.Abs(math.Log(ratio)))
	}
	return maxStep, nil
}
