package nn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Batch-norm constants shared by the graph and the dedicated forward pass.
const (
	bnEpsilon = 1e-5
	// defaultBNMomentum is the weight of a new batch in the running
	// statistics (gorgonia's convention: new = m*batch + (1-m)*old).
	defaultBNMomentum = 0.1
)

// netGraph is the network as a gorgonia graph for one batch size. Its
// parameter nodes' values are backed by the data of a Weights value, so
// updating that data updates the graph; the batch-norm running statistics
// live inside the ops and are copied with syncStatsFrom and statsTo.
type netGraph struct {
	cfg   Config
	batch int
	g     *G.ExprGraph

	input     *G.Node
	inputData []float32

	params    G.Nodes            // trainable parameters, in layout order
	paramName map[*G.Node]string // weight tensor name of each parameter
	bn        map[string]bnStats // by layer name

	policyLogits *G.Node // (B, N²+1)
	value        *G.Node // (B, 1), tanh
	dwinLogits   *G.Node // (B, D)
}

// buildNet builds the forward graph of w's network for a batch size, with
// parameter values backed by w's tensors.
func buildNet(w *Weights, batch int, bnMomentum float64) (ng *netGraph, err error) {
	defer func() {
		// gorgonia reports some shape errors by panicking.
		if r := recover(); r != nil {
			ng, err = nil, fmt.Errorf("nn: building graph: %v", r)
		}
	}()
	cfg := w.Config
	n := cfg.Board
	ng = &netGraph{
		cfg: cfg, batch: batch, g: G.NewGraph(),
		paramName: map[*G.Node]string{}, bn: map[string]bnStats{},
		inputData: make([]float32, batch*cfg.InputSize()),
	}
	ng.input = G.NewTensor(ng.g, tensor.Float32, 4, G.WithName("input"),
		G.WithShape(batch, cfg.Planes(), n, n),
		G.WithValue(tensor.New(tensor.WithShape(batch, cfg.Planes(), n, n), tensor.WithBacking(ng.inputData))))
	b := &builder{ng: ng, w: w, bnMomentum: bnMomentum}

	x := b.convBN(layerStem, ng.input, 3, true)
	for i := 0; i < cfg.Blocks; i++ {
		y := b.convBN(blockLayer(i, false), x, 3, true)
		x = b.convBNResidual(blockLayer(i, true), y, x)
	}
	p := b.convBN(layerPolicy, x, 1, true)
	p = b.reshape(p, batch, policyConvOut*cfg.Points())
	ng.policyLogits = b.fc(layerPolicyFC, p)

	v := b.convBN(layerValue, x, 1, true)
	v = b.reshape(v, batch, valueConvOut*cfg.Points())
	h := b.relu(b.fc(layerValueFC1, v))
	ng.value = b.op(G.Tanh(b.fc(layerValueFC2, h)))
	ng.dwinLogits = b.fc(layerDWinFC, h)
	if b.err != nil {
		return nil, fmt.Errorf("nn: building graph: %w", b.err)
	}
	ng.syncStatsFrom(w)
	return ng, nil
}

// builder adds layers to a graph, remembering the first error so the
// network reads as a sequence of layers.
type builder struct {
	ng         *netGraph
	w          *Weights
	bnMomentum float64
	err        error
}

func (b *builder) op(n *G.Node, err error) *G.Node {
	if b.err == nil && err != nil {
		b.err = err
	}
	return n
}

func (b *builder) relu(x *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	return b.op(G.Rectify(x))
}

func (b *builder) reshape(x *G.Node, shape ...int) *G.Node {
	if b.err != nil {
		return nil
	}
	return b.op(G.Reshape(x, shape))
}

// param returns a parameter node of the given shape backed by the data of
// the weight tensor name.
func (b *builder) param(name string, shape ...int) *G.Node {
	t := b.w.Tensor(name)
	if t == nil || size(shape) != len(t.Data) {
		b.err = fmt.Errorf("weights have no tensor %q of %d floats", name, size(shape))
		return nil
	}
	val := tensor.New(tensor.WithShape(shape...), tensor.WithBacking(t.Data))
	n := G.NewTensor(b.ng.g, tensor.Float32, len(shape), G.WithName(name), G.WithShape(shape...), G.WithValue(val))
	b.ng.params = append(b.ng.params, n)
	b.ng.paramName[n] = name
	return n
}

// convBN is a k×k convolution (same padding, no bias) then batch norm with
// explicit (1,C,1,1) scale and shift, then ReLU when relu is set.
func (b *builder) convBN(layer string, x *G.Node, k int, relu bool) *G.Node {
	if useConvOps {
		return b.convBNOps(layer, x, k, relu, nil)
	}
	filter, gamma, beta := b.convParams(layer)
	if b.err != nil {
		return nil
	}
	pad := k / 2
	y := b.op(G.Conv2d(x, filter, tensor.Shape{k, k}, []int{pad, pad}, []int{1, 1}, []int{1, 1}))
	if b.err != nil {
		return nil
	}
	y, _, _, bnOp, err := G.BatchNorm(y, gamma, beta, b.bnMomentum, bnEpsilon)
	if err != nil {
		b.err = fmt.Errorf("%s batch norm: %w", layer, err)
		return nil
	}
	b.ng.bn[layer] = bnOp
	if relu {
		return b.relu(y)
	}
	return y
}

// convParams returns a convolution layer's filter, scale and shift nodes.
func (b *builder) convParams(layer string) (filter, gamma, beta *G.Node) {
	if b.err != nil {
		return nil, nil, nil
	}
	shape := b.w.Tensor(layer + ".conv").Shape
	out := shape[0]
	filter = b.param(layer+".conv", shape...)
	gamma = b.param(layer+".bn.gamma", 1, out, 1, 1)
	beta = b.param(layer+".bn.beta", 1, out, 1, 1)
	return filter, gamma, beta
}

// convBNOps is convBN on this package's ops (graphconv.go, graphbn.go),
// with the residual res added before the ReLU when not nil.
func (b *builder) convBNOps(layer string, x *G.Node, k int, relu bool, res *G.Node) *G.Node {
	filter, gamma, beta := b.convParams(layer)
	if b.err != nil {
		return nil
	}
	if filter.Shape()[2] != k {
		b.err = fmt.Errorf("%s: filter of shape %v, want a %d×%d kernel", layer, filter.Shape(), k, k)
		return nil
	}
	y := b.op(newConv(x, filter, x == b.ng.input))
	if b.err != nil {
		return nil
	}
	y, op, err := newBN(y, gamma, beta, res, b.bnMomentum, relu)
	if err != nil {
		b.err = fmt.Errorf("%s batch norm: %w", layer, err)
		return nil
	}
	b.ng.bn[layer] = op
	return y
}

// convBNResidual is relu(res + convBN(layer, x)): the second layer of a
// residual block, a 3×3 convolution.
func (b *builder) convBNResidual(layer string, x, res *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	if useConvOps {
		return b.convBNOps(layer, x, 3, true, res)
	}
	y := b.convBN(layer, x, 3, false)
	return b.relu(b.op(G.Add(res, y)))
}

// fc is x·W + b for x of shape (B, in).
func (b *builder) fc(layer string, x *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	shape := b.w.Tensor(layer + ".w").Shape
	w := b.param(layer+".w", shape...)
	bias := b.param(layer+".b", 1, shape[1])
	if b.err != nil {
		return nil
	}
	y := b.op(G.Mul(x, w))
	if b.err != nil {
		return nil
	}
	return b.op(G.BroadcastAdd(y, bias, nil, []byte{0}))
}

// bnStats is a batch-norm op with running statistics: G.BatchNormOp, or
// bnOp (graphbn.go).
type bnStats interface {
	Stats() (mean, variance tensor.Tensor)
}

// syncStatsFrom copies the batch-norm running statistics of w into the ops.
// It must be called after a tape machine is made for the graph: a machine
// in training mode resets them.
func (ng *netGraph) syncStatsFrom(w *Weights) {
	for layer, op := range ng.bn {
		m, v := op.Stats()
		copy(m.Data().([]float32), w.data(layer+".bn.mean"))
		copy(v.Data().([]float32), w.data(layer+".bn.var"))
	}
}

// statsTo copies the ops' batch-norm running statistics into w.
func (ng *netGraph) statsTo(w *Weights) {
	for layer, op := range ng.bn {
		m, v := op.Stats()
		copy(w.data(layer+".bn.mean"), m.Data().([]float32))
		copy(w.data(layer+".bn.var"), v.Data().([]float32))
	}
}

// newMachine makes a tape machine for the graph, turning gorgonia's
// compile panics into errors, and restores the running statistics that
// the machine's construction may reset.
func (ng *netGraph) newMachine(w *Weights, opts ...G.VMOpt) (m G.VM, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("nn: compiling graph: %v", r)
		}
	}()
	m = G.NewTapeMachine(ng.g, append(opts, engineOpts()...)...)
	ng.syncStatsFrom(w)
	return m, nil
}
