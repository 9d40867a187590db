package nn

import (
	"fmt"
	"math"
)

// Adam's constants (Kingma and Ba's defaults).
const (
	adamBeta1   = 0.9
	adamBeta2   = 0.999
	adamEpsilon = 1e-8
)

// update applies one optimiser step to every parameter from the gradients
// the machine left in the graph's dual values, then zeroes them (gorgonia
// accumulates gradients across runs).
//
// The optimisers are written here rather than taken from gorgonia: its
// Momentum applies weight decay to the velocity instead of the weights, and
// its solvers cannot change the learning rate between steps.
func (t *Trainer) update(tg *trainGraph) error {
	lr := float32(t.opts.LearningRate)
	for _, n := range tg.params {
		name := tg.paramName[n]
		i := t.w.index[name]
		gv, err := n.Grad()
		if err != nil {
			return fmt.Errorf("gradient of %s: %w", name, err)
		}
		grad, ok := gv.Data().([]float32)
		if !ok || len(grad) != len(t.w.tensors[i].Data) {
			return fmt.Errorf("gradient of %s: unexpected value %T", name, gv.Data())
		}
		w := t.w.tensors[i].Data
		if val, ok := n.Value().Data().([]float32); !ok || &val[0] != &w[0] {
			return fmt.Errorf("parameter %s: graph value is not backed by the weights", name)
		}
		var decay float32
		if k := t.specs[i].kind; k == kindConv || k == kindFC {
			decay = float32(t.opts.WeightDecay)
		}
		switch t.opts.Optimizer {
		case OptimizerAdam:
			t.adam(i, w, grad, decay, lr)
		default:
			momentumStep(w, grad, t.m[i], decay, lr, float32(t.opts.Momentum))
		}
		clear(grad)
	}
	return nil
}

// momentumStep is SGD with momentum: v = μv − lr(g + λw); w += v.
func momentumStep(w, g, vel []float32, decay, lr, mu float32) {
	for j := range w {
		vel[j] = mu*vel[j] - lr*(g[j]+decay*w[j])
		w[j] += vel[j]
	}
}

// adam is Adam with bias correction and L2 weight decay added to the
// gradient.
func (t *Trainer) adam(i int, w, g []float32, decay, lr float32) {
	step := float64(t.steps + 1)
	c1 := float32(1 - math.Pow(adamBeta1, step))
	c2 := float32(1 - math.Pow(adamBeta2, step))
	m, v := t.m[i], t.v[i]
	for j := range w {
		gj := g[j] + decay*w[j]
		m[j] = adamBeta1*m[j] + (1-adamBeta1)*gj
		v[j] = adamBeta2*v[j] + (1-adamBeta2)*gj*gj
		mh := m[j] / c1
		vh := v[j] / c2
		w[j] -= lr * mh / (float32(math.Sqrt(float64(vh))) + adamEpsilon)
	}
}
