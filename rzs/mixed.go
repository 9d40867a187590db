package rzs

import "lifezero/game"

// Mixed orders the search by two evaluators at once: the Base evaluator's
// pass share and, as chosen, its board-move priors multiplied by Other's
// (renormalised to the base's board-move mass) and Other's value in place
// of its own. It lets a network add what it knows to a static
// life-and-death evaluator rather than replace it. Like every evaluator
// it only orders the search.
//
// Mixed is a BatchEvaluator: a batch goes whole to each part that is one
// (the network's forward pass) and position by position to the others,
// so --batch keeps its one forward pass per step when the network is
// mixed with a built-in evaluator.
type Mixed struct {
	Base, Other Evaluator
	Priors      bool // multiply the base's board-move priors by Other's
	Value       bool // take Other's value
}

var _ BatchEvaluator = Mixed{}

// Evaluate implements Evaluator.
func (m Mixed) Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) ([]float32, float32) {
	priors, value := m.Base.Evaluate(pos, pr, moves)
	if !m.Priors && !m.Value {
		return priors, value
	}
	other, otherValue := m.Other.Evaluate(pos, pr, moves)
	return m.combine(priors, value, moves, other, otherValue)
}

// EvaluateBatch implements BatchEvaluator. Each request gets what Evaluate
// gives its position, provided each part's batch gives what the part
// gives alone.
func (m Mixed) EvaluateBatch(reqs []EvalRequest) error {
	if err := evaluateAll(m.Base, reqs); err != nil {
		return err
	}
	if !m.Priors && !m.Value {
		return nil
	}
	other := make([]EvalRequest, len(reqs))
	for i, r := range reqs {
		other[i] = EvalRequest{Pos: r.Pos, Problem: r.Problem, Moves: r.Moves}
	}
	if err := evaluateAll(m.Other, other); err != nil {
		return err
	}
	for i := range reqs {
		r := &reqs[i]
		r.Priors, r.Value = m.combine(r.Priors, r.Value, r.Moves, other[i].Priors, other[i].Value)
	}
	return nil
}

// combine mixes the base's answer with Other's as chosen; it reweights the
// base's priors in place and returns them.
func (m Mixed) combine(priors []float32, value float32, moves []game.Point, other []float32, otherValue float32) ([]float32, float32) {
	if m.Value {
		value = otherValue
	}
	if !m.Priors {
		return priors, value
	}
	// Other without mass where the base has it leaves the base's order.
	reweight(priors, moves, func(i int) float64 { return float64(priors[i]) * float64(other[i]) })
	return priors, value
}

// evaluateAll fills in the requests' priors and values: in one call when e
// is a BatchEvaluator and there is more than one, else position by
// position through Evaluate. The wrapping evaluators pass batches through
// it.
func evaluateAll(e Evaluator, reqs []EvalRequest) error {
	if be, ok := e.(BatchEvaluator); ok && len(reqs) > 1 {
		return be.EvaluateBatch(reqs)
	}
	for i := range reqs {
		r := &reqs[i]
		r.Priors, r.Value = e.Evaluate(r.Pos, r.Problem, r.Moves)
	}
	return nil
}
