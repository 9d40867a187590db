package nn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// newTrainGraph builds the forward graph for batch size n, the three losses
// and their gradients, and a training-mode machine.
func newTrainGraph(w *Weights, n int, opts TrainOptions) (tg *trainGraph, err error) {
	ng, err := buildNet(w, n, opts.BNMomentum)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			tg, err = nil, fmt.Errorf("nn: building loss graph: %v", r)
		}
	}()
	c := w.Config
	tg = &trainGraph{
		netGraph: ng,
		policyT:  make([]float32, n*c.PolicySize()),
		valueT:   make([]float32, n),
		dwinT:    make([]float32, n*c.D),
		dwW:      make([]float32, n*c.D),
	}
	g := ng.g
	input := func(name string, data []float32, shape ...int) *G.Node {
		return G.NewTensor(g, tensor.Float32, len(shape), G.WithName(name), G.WithShape(shape...),
			G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))))
	}
	policyT := input("policy_target", tg.policyT, n, c.PolicySize())
	valueT := input("value_target", tg.valueT, n, 1)
	dwinT := input("dwin_target", tg.dwinT, n, c.D)
	dwW := input("dwin_weight", tg.dwW, n, c.D)
	k := func(x float64) *G.Node { return G.NewConstant(float32(x)) }

	b := &builder{ng: ng, w: w}
	// Policy: −Σ target·log softmax / N.
	logp := b.op(G.LogSoftMax(ng.policyLogits))
	pol := b.op(G.Mul(b.op(G.Sum(b.op(G.HadamardProd(policyT, logp)))), k(-1/float64(n))))
	// Value: Σ (v − z)² / N.
	diff := b.op(G.Sub(ng.value, valueT))
	val := b.op(G.Mul(b.op(G.Sum(b.op(G.Square(diff)))), k(1/float64(n))))
	// d-win: Σ weight·(softplus(l) − y·l), the weights being the mask over
	// the number of known targets (binary cross-entropy from logits).
	bce := b.op(G.Sub(b.op(G.Softplus(ng.dwinLogits)), b.op(G.HadamardProd(dwinT, ng.dwinLogits))))
	dw := b.op(G.Sum(b.op(G.HadamardProd(dwW, bce))))
	if b.err != nil {
		return nil, fmt.Errorf("nn: building loss graph: %w", b.err)
	}
	total := b.op(G.Add(b.op(G.Mul(pol, k(opts.PolicyWeight))), b.op(G.Mul(val, k(opts.ValueWeight)))))
	total = b.op(G.Add(total, b.op(G.Mul(dw, k(opts.DWinWeight)))))
	if b.err != nil {
		return nil, fmt.Errorf("nn: building loss graph: %w", b.err)
	}
	tg.lossNodes = [3]*G.Node{pol, val, dw}
	for i, l := range tg.lossNodes {
		G.Read(l, &tg.lossVals[i])
	}
	if _, err := G.Grad(total, ng.params...); err != nil {
		return nil, fmt.Errorf("nn: gradients: %w", err)
	}
	tg.vm, err = ng.newMachine(w, G.BindDualValues(ng.params...))
	if err != nil {
		return nil, err
	}
	return tg, nil
}

// load copies a batch into the graph's inputs. The d-win weights are the
// mask divided by the number of known targets, so the d-win loss is a mean
// over them.
func (tg *trainGraph) load(b Batch, d int) {
	copy(tg.inputData, b.Planes)
	copy(tg.policyT, b.Policy)
	copy(tg.valueT, b.Value)
	if b.DWin == nil {
		clear(tg.dwinT)
		clear(tg.dwW)
		return
	}
	copy(tg.dwinT, b.DWin)
	switch len(b.DMask) {
	case 0:
		fill(tg.dwW, 1)
	case b.N:
		for i, m := range b.DMask {
			fill(tg.dwW[i*d:(i+1)*d], m)
		}
	default:
		copy(tg.dwW, b.DMask)
	}
	var known float64
	for _, m := range tg.dwW {
		known += float64(m)
	}
	if known > 0 {
		s := float32(1 / known)
		for i := range tg.dwW {
			tg.dwW[i] *= s
		}
	}
}
