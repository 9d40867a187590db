package rzs

import "lifezero/game"

// Mixed orders the search by two evaluators at once: the Base evaluator's
// pass share and, as chosen, its board-move priors multiplied by Other's
// (renormalised to the base's board-move mass) and Other's value in place
// of its own. It lets a network add what it knows to a static
// life-and-death evaluator rather than replace it. Like every evaluator
// it only orders the search.
type Mixed struct {
	Base, Other Evaluator
	Priors      bool // multiply the base's board-move priors by Other's
	Value       bool // take Other's value
}

// Evaluate implements Evaluator.
func (m Mixed) Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) ([]float32, float32) {
	priors, value := m.Base.Evaluate(pos, pr, moves)
	if !m.Priors && !m.Value {
		return priors, value
	}
	other, otherValue := m.Other.Evaluate(pos, pr, moves)
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
