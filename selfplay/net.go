package selfplay

import (
	"fmt"

	"lifezero/nn"
)

// Net evaluates encoded positions as nn.Evaluator does: per position the
// policy over the N²+1 moves (pass last), the value for the side to move
// in [-1, 1] and the D d-win probabilities of the living side. It must be
// safe for concurrent use.
type Net interface {
	Forward(planes []float32, n int) (policy [][]float32, value []float32, dwin [][]float32, err error)
}

// UniformNet is the network of generation 0: every move equally likely,
// value 0 and every d-win probability 1/2, so the search is guided by the
// game's ends alone.
type UniformNet struct{ Config nn.Config }

// Forward implements Net.
func (u UniformNet) Forward(planes []float32, n int) ([][]float32, []float32, [][]float32, error) {
	c := u.Config
	if n < 0 || len(planes) != n*c.InputSize() {
		return nil, nil, nil, fmt.Errorf("selfplay: uniform net: %d floats of planes for %d positions, want %d", len(planes), n, n*c.InputSize())
	}
	// Three allocations a call: the rows of both outputs, the values, and
	// the one policy and d-win vector every row shares (read-only for the
	// caller).
	rows := make([][]float32, 2*n)
	policy, dwin := rows[:n:n], rows[n:]
	value := make([]float32, n)
	pd := make([]float32, c.PolicySize()+c.D)
	p, d := pd[:c.PolicySize():c.PolicySize()], pd[c.PolicySize():]
	for i := range p {
		p[i] = 1 / float32(len(p))
	}
	for i := range d {
		d[i] = 0.5
	}
	for i := range n {
		policy[i], dwin[i] = p, d
	}
	return policy, value, dwin, nil
}
