package neteval

import (
	"fmt"

	"lifezero/game"
	"lifezero/mcts"
	"lifezero/nn"
	"lifezero/rzs"
)

// Mode selects which head gives the value.
type Mode int

const (
	// FTL takes the d-win output at the problem's ftl_d.
	FTL Mode = iota
	// Value takes the plain value head.
	Value
)

// String returns the mode's name, as ParseMode reads it.
func (m Mode) String() string {
	if m == Value {
		return "value"
	}
	return "ftl"
}

// ParseMode reads "ftl" or "value".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "ftl", "":
		return FTL, nil
	case "value":
		return Value, nil
	}
	return FTL, fmt.Errorf("neteval: unknown value mode %q (want ftl or value)", s)
}

// Evaluator is an rzs.Evaluator backed by a network. It is safe for
// concurrent use.
type Evaluator struct {
	net  *nn.Evaluator
	cfg  nn.Config
	mode Mode
}

var _ rzs.Evaluator = (*Evaluator)(nil)

// New returns an evaluator over weights w.
func New(w *nn.Weights, mode Mode) (*Evaluator, error) {
	e, err := nn.NewEvaluator(w)
	if err != nil {
		return nil, fmt.Errorf("neteval: %w", err)
	}
	return &Evaluator{net: e, cfg: w.Config, mode: mode}, nil
}

// Load reads a weights file (nn.Weights.Save) and returns an evaluator
// over it. This is what "lifezero solve --net FILE" calls.
func Load(path string, mode Mode) (*Evaluator, error) {
	w, err := nn.Load(path)
	if err != nil {
		return nil, fmt.Errorf("neteval: %w", err)
	}
	return New(w, mode)
}

// Config returns the network's shape.
func (e *Evaluator) Config() nn.Config { return e.cfg }

// Mode returns the value mode.
func (e *Evaluator) Mode() Mode { return e.mode }

// Check reports whether the evaluator fits a problem: the board sizes must
// agree. Call it before solving: Evaluate cannot return errors.
func (e *Evaluator) Check(pr *game.Problem) error {
	if n := pr.Start.Size(); n != e.cfg.Board {
		return fmt.Errorf("neteval: problem %s is %dx%d, the network %dx%d", pr.ID, n, n, e.cfg.Board, e.cfg.Board)
	}
	return nil
}

// D returns the d-win index (1..D) the evaluator queries at pos for pr in
// FTL mode, or 0 when it uses the value head.
func (e *Evaluator) D(pos *game.Position, pr *game.Problem) int {
	if e.mode != FTL || pr.FTLD <= 0 {
		return 0
	}
	return max(1, min(e.cfg.D, pr.FTLD-pos.MoveNumber()))
}

// Evaluate implements rzs.Evaluator. pr is the problem's view at pos that
// the solver passes (game.Problem.StandingView: Crucial holds the crucial
// stones still standing), encoded as self-play encodes it. A position the
// network cannot take (a board of another size: see Check) gets uniform
// priors and value 1/2.
func (e *Evaluator) Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) ([]float32, float32) {
	r := [1]rzs.EvalRequest{{Pos: pos, Problem: pr, Moves: moves}}
	if err := e.forward(r[:]); err != nil {
		return rzs.Uniform{}.Evaluate(pos, pr, moves)
	}
	return r[0].Priors, r[0].Value
}

// livingValue is the probability that the living side wins.
func (e *Evaluator) livingValue(pos *game.Position, pr *game.Problem, v float32, dwin []float32) float32 {
	if d := e.D(pos, pr); d > 0 {
		return float32(mcts.Clamp01(float64(dwin[d-1])))
	}
	// Through float64 and back gives the float32 arithmetic's result: the
	// double rounding of a sum of two float32s through float64 is exact.
	return float32(mcts.LivingValue(float64(v), pos.ToMove(), pr.Living()))
}

var _ rzs.BatchEvaluator = (*Evaluator)(nil)

// EvaluateBatch implements rzs.BatchEvaluator: the requests' positions go
// through the network in one forward pass (rzs.Options.Batch leaves of the
// solver's MCTS form). Each request gets what Evaluate would give it.
func (e *Evaluator) EvaluateBatch(reqs []rzs.EvalRequest) error {
	if e.forward(reqs) != nil {
		// A position the network cannot take: one at a time, so that it
		// alone gets Evaluate's uniform answer.
		for i := range reqs {
			r := &reqs[i]
			r.Priors, r.Value = e.Evaluate(r.Pos, r.Problem, r.Moves)
		}
	}
	return nil
}

// forward encodes the requests' positions, runs them through the network
// in one pass and fills in their priors and values.
func (e *Evaluator) forward(reqs []rzs.EvalRequest) error {
	size := e.cfg.InputSize()
	planes := make([]float32, len(reqs)*size)
	for i := range reqs {
		r := &reqs[i]
		if err := e.cfg.Encode(r.Pos, r.Problem, planes[i*size:(i+1)*size]); err != nil {
			return err
		}
	}
	policy, value, dwin, err := e.net.Forward(planes, len(reqs))
	if err != nil {
		return err
	}
	for i := range reqs {
		r := &reqs[i]
		r.Priors = nn.MovePriors(&r.Pos.Board, policy[i], r.Moves)
		r.Value = e.livingValue(r.Pos, r.Problem, value[i], dwin[i])
	}
	return nil
}
