package nn

import (
	"fmt"
	"sync"

	G "gorgonia.org/gorgonia"
)

// GraphEvaluator is the forward pass as a gorgonia graph in evaluation mode
// (batch norm from the running statistics), for a fixed batch size. It is
// the reference the Evaluator is checked against, and the path a CUDA build
// would use. Calls are serialised by a mutex.
type GraphEvaluator struct {
	mu     sync.Mutex
	ng     *netGraph
	w      *Weights
	vm     G.VM
	outs   [3]*G.Node
	values [3]G.Value
}

// NewGraphEvaluator builds the evaluation graph of w for batches of up to
// batch positions. It copies w.
func NewGraphEvaluator(w *Weights, batch int) (ge *GraphEvaluator, err error) {
	installGraphBLAS()
	if batch < 1 {
		return nil, fmt.Errorf("nn: graph evaluator: batch %d, want at least 1", batch)
	}
	if err := w.check(); err != nil {
		return nil, fmt.Errorf("nn: graph evaluator: %w", err)
	}
	w = w.Clone()
	ng, err := buildNet(w, batch, defaultBNMomentum)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			ge, err = nil, fmt.Errorf("nn: graph evaluator: %v", r)
		}
	}()
	b := &builder{ng: ng, w: w}
	ge = &GraphEvaluator{ng: ng, w: w}
	ge.outs = [3]*G.Node{
		b.op(G.SoftMax(ng.policyLogits)),
		ng.value,
		b.op(G.Sigmoid(ng.dwinLogits)),
	}
	if b.err != nil {
		return nil, fmt.Errorf("nn: graph evaluator: %w", b.err)
	}
	for i, n := range ge.outs {
		G.Read(n, &ge.values[i])
	}
	if ge.vm, err = ng.newMachine(w, G.EvalMode()); err != nil {
		return nil, err
	}
	return ge, nil
}

// Forward is Evaluator.Forward on the graph: n may be smaller than the
// graph's batch (the rest is padded with zeros).
func (ge *GraphEvaluator) Forward(planes []float32, n int) (policy [][]float32, value []float32, dwin [][]float32, err error) {
	c := ge.ng.cfg
	if n < 0 || n > ge.ng.batch || len(planes) != n*c.InputSize() {
		return nil, nil, nil, fmt.Errorf("nn: graph forward: %d floats of planes for %d positions, want %d positions (at most %d) of %d floats",
			len(planes), n, n, ge.ng.batch, c.InputSize())
	}
	ge.mu.Lock()
	defer ge.mu.Unlock()
	clear(ge.ng.inputData)
	copy(ge.ng.inputData, planes)
	err = ge.vm.RunAll()
	ge.vm.Reset()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("nn: graph forward: %w", err)
	}
	p, v, d := floats(ge.values[0]), floats(ge.values[1]), floats(ge.values[2])
	if len(p) != ge.ng.batch*c.PolicySize() || len(v) != ge.ng.batch || len(d) != ge.ng.batch*c.D {
		return nil, nil, nil, fmt.Errorf("nn: graph forward: outputs of %d, %d, %d floats", len(p), len(v), len(d))
	}
	for i := range n {
		policy = append(policy, append([]float32(nil), p[i*c.PolicySize():(i+1)*c.PolicySize()]...))
		dwin = append(dwin, append([]float32(nil), d[i*c.D:(i+1)*c.D]...))
	}
	return policy, append([]float32(nil), v[:n]...), dwin, nil
}

func floats(v G.Value) []float32 {
	if v == nil {
		return nil
	}
	f, _ := v.Data().([]float32)
	return f
}
