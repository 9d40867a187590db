package nn

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Optimizers.
const (
	OptimizerMomentum = "momentum" // SGD with momentum (the paper's)
	OptimizerAdam     = "adam"
)

// TrainOptions configure a Trainer. Start from DefaultTrainOptions: a zero
// field means zero, not "default".
type TrainOptions struct {
	// Optimizer is OptimizerMomentum or OptimizerAdam.
	Optimizer string
	// LearningRate is the step size (the paper: 0.02, then 0.002);
	// SetLearningRate changes it between steps.
	LearningRate float64
	// Momentum is the momentum of SGD (ignored by Adam).
	Momentum float64
	// WeightDecay is the L2 coefficient added to the gradient of the
	// convolution and fully connected weights (not biases or batch norm).
	WeightDecay float64
	// BNMomentum is the weight of each batch in the batch-norm running
	// statistics.
	BNMomentum float64
	// PolicyWeight, ValueWeight and DWinWeight scale the three losses in
	// the total that is minimised.
	PolicyWeight, ValueWeight, DWinWeight float64
	// Init is the starting point; nil starts from NewWeights(cfg, Seed).
	// The trainer copies it.
	Init *Weights
	// Seed seeds the random initialisation when Init is nil.
	Seed uint64
}

// DefaultTrainOptions returns momentum SGD at lr 0.02 (the paper's first
// phase), momentum 0.9, weight decay 1e-4, batch-norm momentum 0.1 and unit
// loss weights.
func DefaultTrainOptions() TrainOptions {
	return TrainOptions{
		Optimizer: OptimizerMomentum, LearningRate: 0.02, Momentum: 0.9,
		WeightDecay: 1e-4, BNMomentum: defaultBNMomentum,
		PolicyWeight: 1, ValueWeight: 1, DWinWeight: 1,
	}
}

func (o TrainOptions) validate() error {
	switch {
	case o.Optimizer != OptimizerMomentum && o.Optimizer != OptimizerAdam:
		return fmt.Errorf("optimizer %q: want %q or %q", o.Optimizer, OptimizerMomentum, OptimizerAdam)
	case !(o.LearningRate > 0):
		return fmt.Errorf("learning rate %v: want > 0", o.LearningRate)
	case o.Momentum < 0 || o.Momentum >= 1:
		return fmt.Errorf("momentum %v: want 0 <= m < 1", o.Momentum)
	case o.WeightDecay < 0:
		return fmt.Errorf("weight decay %v: want >= 0", o.WeightDecay)
	case !(o.BNMomentum > 0 && o.BNMomentum <= 1):
		return fmt.Errorf("batch-norm momentum %v: want 0 < m <= 1", o.BNMomentum)
	case o.PolicyWeight < 0 || o.ValueWeight < 0 || o.DWinWeight < 0:
		return fmt.Errorf("loss weights %v, %v, %v: want >= 0", o.PolicyWeight, o.ValueWeight, o.DWinWeight)
	}
	return nil
}

// Batch is a batch of N training samples, flattened sample-major.
type Batch struct {
	// Planes holds N encoded positions (Config.InputSize floats each).
	Planes []float32
	// Policy holds N target distributions over the N²+1 moves (index
	// y*N+x, pass last; each row sums to 1).
	Policy []float32
	// Value holds N targets in [-1, 1] for the side to move.
	Value []float32
	// DWin holds N×D targets in [0, 1]: DWin[i*D+d-1] = 1 when the living
	// side lived within d moves of sample i. Nil trains no d-win output.
	DWin []float32
	// DMask says which DWin targets are known: N floats (one per sample) or
	// N×D (one per output), 1 for known and 0 for unknown. Nil means all
	// known.
	DMask []float32
	// N is the number of samples.
	N int
}

// Losses are the mean losses of one batch, before the step.
type Losses struct {
	// Policy is the cross-entropy −Σ target·log softmax(logits), averaged
	// over samples.
	Policy float64
	// Value is the mean squared error of the value.
	Value float64
	// DWin is the binary cross-entropy averaged over the known d-win
	// targets (0 when none is known).
	DWin float64
	// Total is the weighted sum that is minimised (weight decay excluded).
	Total float64
}

// Trainer trains a network with gorgonia. It keeps one graph per batch size
// seen (graphs have fixed shapes, and each holds its buffers: feed a fixed
// size or a few), all sharing the same parameters. It is not safe for
// concurrent use.
type Trainer struct {
	opts   TrainOptions
	w      *Weights // the parameters: every graph's nodes are backed by them
	specs  []tensorSpec
	graphs map[int]*trainGraph
	last   *trainGraph
	steps  int
	// Optimiser state per tensor (layout order): velocity (momentum) or
	// first and second moments (Adam).
	m, v [][]float32
}

// trainGraph is a netGraph with losses, gradients and a machine.
type trainGraph struct {
	*netGraph
	vm                          G.VM
	policyT, valueT, dwinT, dwW []float32 // target and weight inputs
	lossNodes                   [3]*G.Node
	lossVals                    [3]G.Value
}

// NewTrainer returns a trainer for cfg. When opts.Init is set its config
// must equal cfg.
func NewTrainer(cfg Config, opts TrainOptions) (*Trainer, error) {
	installGraphBLAS()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("nn: new trainer: %w", err)
	}
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("nn: new trainer: %w", err)
	}
	var w *Weights
	if opts.Init != nil {
		if opts.Init.Config != cfg {
			return nil, fmt.Errorf("nn: new trainer: initial weights are %v, config is %v", opts.Init.Config, cfg)
		}
		if err := opts.Init.check(); err != nil {
			return nil, fmt.Errorf("nn: new trainer: initial weights: %w", err)
		}
		w = opts.Init.Clone()
	} else {
		var err error
		if w, err = NewWeights(cfg, opts.Seed); err != nil {
			return nil, err
		}
	}
	opts.Init = nil
	t := &Trainer{opts: opts, w: w, specs: layout(cfg), graphs: map[int]*trainGraph{}}
	t.m = make([][]float32, len(w.tensors))
	t.v = make([][]float32, len(w.tensors))
	for i, tt := range w.tensors {
		t.m[i] = make([]float32, len(tt.Data))
		if opts.Optimizer == OptimizerAdam {
			t.v[i] = make([]float32, len(tt.Data))
		}
	}
	return t, nil
}

// Config returns the network's configuration.
func (t *Trainer) Config() Config { return t.w.Config }

// Steps returns the number of steps taken.
func (t *Trainer) Steps() int { return t.steps }

// SetLearningRate changes the step size from the next step on.
func (t *Trainer) SetLearningRate(lr float64) error {
	if !(lr > 0) {
		return fmt.Errorf("nn: learning rate %v: want > 0", lr)
	}
	t.opts.LearningRate = lr
	return nil
}

// Weights returns a copy of the current parameters and running statistics.
func (t *Trainer) Weights() *Weights { return t.w.Clone() }

// Step takes one optimisation step on the batch and returns its losses
// (computed before the update).
func (t *Trainer) Step(b Batch) (Losses, error) {
	if err := t.checkBatch(b); err != nil {
		return Losses{}, fmt.Errorf("nn: train step: %w", err)
	}
	tg, err := t.graph(b.N)
	if err != nil {
		return Losses{}, err
	}
	if tg != t.last {
		tg.syncStatsFrom(t.w) // another batch size ran since this graph did
	}
	t.last = tg
	tg.load(b, t.w.Config.D)
	err = tg.vm.RunAll()
	tg.vm.Reset()
	if err != nil {
		tg.discard(t.w)
		return Losses{}, fmt.Errorf("nn: train step %d: %w", t.steps, err)
	}
	l := Losses{
		Policy: scalar(tg.lossVals[0]),
		Value:  scalar(tg.lossVals[1]),
		DWin:   scalar(tg.lossVals[2]),
	}
	l.Total = t.opts.PolicyWeight*l.Policy + t.opts.ValueWeight*l.Value + t.opts.DWinWeight*l.DWin
	if math.IsNaN(l.Total) || math.IsInf(l.Total, 0) {
		tg.discard(t.w)
		return l, fmt.Errorf("nn: train step %d: loss is %v (policy %v, value %v, d-win %v)", t.steps, l.Total, l.Policy, l.Value, l.DWin)
	}
	if err := t.update(tg); err != nil {
		return l, fmt.Errorf("nn: train step %d: %w", t.steps, err)
	}
	tg.statsTo(t.w)
	t.steps++
	return l, nil
}

// discard undoes what a failed run left behind: gradients (which would add
// to the next step's) and running statistics moved by the bad batch.
func (tg *trainGraph) discard(w *Weights) {
	for _, n := range tg.params {
		if g, err := n.Grad(); err == nil {
			if d, ok := g.Data().([]float32); ok {
				clear(d)
			}
		}
	}
	tg.syncStatsFrom(w)
}

func scalar(v G.Value) float64 {
	switch x := v.(type) {
	case *G.F32:
		return float64(*x)
	case tensor.Tensor:
		if d, ok := x.Data().(float32); ok {
			return float64(d)
		}
		if d, ok := x.Data().([]float32); ok && len(d) == 1 {
			return float64(d[0])
		}
	}
	return math.NaN()
}

func (t *Trainer) checkBatch(b Batch) error {
	c := t.w.Config
	want := func(name string, got, n int) error {
		if got != n {
			return fmt.Errorf("batch %s has %d floats, want %d for N=%d", name, got, n, b.N)
		}
		return nil
	}
	if b.N < 1 {
		return fmt.Errorf("batch N=%d: want at least 1", b.N)
	}
	for _, err := range []error{
		want("Planes", len(b.Planes), b.N*c.InputSize()),
		want("Policy", len(b.Policy), b.N*c.PolicySize()),
		want("Value", len(b.Value), b.N),
	} {
		if err != nil {
			return err
		}
	}
	if b.DWin != nil {
		if err := want("DWin", len(b.DWin), b.N*c.D); err != nil {
			return err
		}
	}
	if b.DMask != nil && len(b.DMask) != b.N && len(b.DMask) != b.N*c.D {
		return fmt.Errorf("batch DMask has %d floats, want N=%d or N×D=%d", len(b.DMask), b.N, b.N*c.D)
	}
	return nil
}

// graph returns the training graph for batch size n, building it once.
func (t *Trainer) graph(n int) (*trainGraph, error) {
	if tg := t.graphs[n]; tg != nil {
		return tg, nil
	}
	tg, err := newTrainGraph(t.w, n, t.opts)
	if err != nil {
		return nil, err
	}
	t.graphs[n] = tg
	return tg, nil
}
