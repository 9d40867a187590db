package gtpengine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"lifezero/featmodel"
	"lifezero/features"
	"lifezero/game"
	"lifezero/movepred"
	"lifezero/nn"
)

// Player scores the sensible moves of a position; the engine plays the
// best (or, early in a game, draws one from the softmax of the scores).
type Player interface {
	// Name identifies the player (GTP "name" adds it to lifezero's).
	Name() string
	// Scores writes a score per move into scores (same length as moves,
	// the sensible moves of g's current position for the side to move,
	// never empty); higher is better, scores are read as logits. -Inf
	// rules a move out.
	Scores(ctx context.Context, g *Game, moves []game.Point, scores []float64) error
}

// SizeChecker is implemented by players that play only some board sizes.
type SizeChecker interface {
	// CheckSize returns an error when the player cannot play on a board of
	// this size.
	CheckSize(size int) error
}

// FeaturePlayer plays by a feature model (BT, LFR or FBT): it extracts the
// features of every sensible move with the feature set the model was
// trained on and ranks them as movepred does (movepred.ModelRanker).
type FeaturePlayer struct {
	set    *features.Extractor
	ranker *movepred.ModelRanker
	mv     features.Moves
	sample featmodel.Sample
}

// NewFeaturePlayer returns a player for model m trained on feature set set.
func NewFeaturePlayer(set *features.Extractor, m featmodel.Model) (*FeaturePlayer, error) {
	if nf, ok := m.(interface{ NumFeatures() int }); ok && nf.NumFeatures() != set.NumFeatures() {
		return nil, fmt.Errorf("gtpengine: the %s model has %d feature ids but its feature set has %d: it was trained on another feature set",
			m.Name(), nf.NumFeatures(), set.NumFeatures())
	}
	return &FeaturePlayer{set: set, ranker: movepred.FromModel(m)}, nil
}

// Feature-model files as a features-train stage writes them.
const (
	ModelWeightsFile = "model.weights"
	FeatureSetFile   = "features.json"
)

// LoadFeaturePlayer loads a feature model: path is a weights file or a
// directory holding model.weights (a features-train stage's output).
// featureSet is the feature set's JSON file; when empty, features.json
// next to the weights is used.
func LoadFeaturePlayer(path, featureSet string) (*FeaturePlayer, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, ModelWeightsFile)
	}
	m, err := featmodel.LoadModel(path)
	if err != nil {
		return nil, err
	}
	if featureSet == "" {
		featureSet = filepath.Join(filepath.Dir(path), FeatureSetFile)
		if _, err := os.Stat(featureSet); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("gtpengine: no feature set next to %s (%s is missing): name the features.json the model was trained on", path, featureSet)
		}
	}
	set, err := features.Load(featureSet)
	if err != nil {
		return nil, err
	}
	p, err := NewFeaturePlayer(set, m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Name returns the model's name (bt, lfr, fbt).
func (p *FeaturePlayer) Name() string { return p.ranker.Name() }

// Scores ranks the moves by the model's scores.
func (p *FeaturePlayer) Scores(_ context.Context, g *Game, moves []game.Point, scores []float64) error {
	if err := p.set.ExtractMoves(g.Position(), g.History(), moves, &p.mv); err != nil {
		return err
	}
	s := &p.sample
	s.Candidates = s.Candidates[:0]
	for i := range moves {
		s.Candidates = append(s.Candidates, p.mv.Features(i))
	}
	s.Played, s.MoveNumber = 0, g.Position().MoveNumber()
	return p.ranker.Scores(s, scores)
}

// NetPlayer plays by a network's policy head: the log of the policy's
// probability of each move.
type NetPlayer struct {
	net    *nn.Evaluator
	planes []float32
}

// NewNetPlayer returns a policy player over weights w.
func NewNetPlayer(w *nn.Weights) (*NetPlayer, error) {
	e, err := nn.NewEvaluator(w)
	if err != nil {
		return nil, fmt.Errorf("gtpengine: %w", err)
	}
	return &NetPlayer{net: e, planes: make([]float32, w.Config.InputSize())}, nil
}

// Name returns "policy".
func (p *NetPlayer) Name() string { return "policy" }

// CheckSize accepts the network's board size only.
func (p *NetPlayer) CheckSize(size int) error { return checkNetSize(p.net, size) }

func checkNetSize(e *nn.Evaluator, size int) error {
	if n := e.Config().Board; n != size {
		return fmt.Errorf("the network plays %dx%d only", n, n)
	}
	return nil
}

// Scores writes the log of the policy's probability of each move.
func (p *NetPlayer) Scores(_ context.Context, g *Game, moves []game.Point, scores []float64) error {
	pos := g.Position()
	priors, _, err := evaluate(p.net, pos, moves, p.planes)
	if err != nil {
		return err
	}
	for i, pr := range priors {
		scores[i] = math.Log(float64(pr))
	}
	return nil
}

// evaluate runs the network on pos and returns the priors of moves and the
// value for the side to move in [-1, 1].
func evaluate(e *nn.Evaluator, pos *game.Position, moves []game.Point, planes []float32) ([]float32, float32, error) {
	if err := e.Config().Encode(pos, nil, planes); err != nil {
		return nil, 0, err
	}
	policy, value, _, err := e.Forward(planes, 1)
	if err != nil {
		return nil, 0, err
	}
	return nn.MovePriors(&pos.Board, policy[0], moves), value[0], nil
}
