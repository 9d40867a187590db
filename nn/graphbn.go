package nn

import (
	"fmt"
	"hash"
	"math"
	"runtime"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// bnOp is batch norm with its scale and shift, and optionally a residual
// input r and the ReLU after them, as one gorgonia op:
// y = relu?(γ·(x − μ)/√(σ² + ε) + β (+ r)) for x, r (B, C, N, N) and γ, β
// (1, C, 1, 1). G.BatchNorm is a normalising op,
// then a broadcast product and sum that repeat γ and β to x's size, and
// their gradients sum over the repeats: in a 5x64 training step those
// copies took about a fifth of the time.
//
// In training mode μ and σ² are the batch's (σ² biased), and the running
// statistics move towards the batch's with G.BatchNorm's convention
// (new = m·batch + (1−m)·old, the variance unbiased); in evaluation mode
// the running statistics normalise. The gradients are an op each (for x,
// γ, β and r; gorgonia ops have one output each); dx reads the batch's μ
// and 1/σ from the forward op of the same run, and the others read what
// dx leaves.
type bnOp struct {
	opTraits
	channels, size int // C, and the elements of x
	momentum       float64
	relu           bool
	// residual says a fourth input r (x's shape) is added before the
	// ReLU: the residual blocks' relu(x + bn(conv(y))).
	residual bool
	training bool
	// out, gradOut and resGrad are the outputs of the op, of its dx op
	// and of its reluGradOp, made once and reused by every run.
	out, gradOut, resGrad *tensor.Dense
	// Running statistics, and the batch's mean and 1/√(σ²+ε).
	mean, variance []float32
	bMean, bInvStd []float32
	// Σ g and Σ g·x̂ per channel of the last backward pass (bnGradXOp):
	// dβ and dγ; with a residual, g itself, its gradient.
	sumG, sumGX []float32
	g           []float32
}

// newBN returns y = relu?(batchnorm(x)·γ + β (+ res)) and its op, whose
// Stats are the running statistics; res may be nil.
func newBN(x, gamma, beta, res *G.Node, momentum float64, relu bool) (*G.Node, *bnOp, error) {
	s := x.Shape()
	if s.Dims() != 4 {
		return nil, nil, fmt.Errorf("nn: batch norm of %v: want (B, C, N, N)", s)
	}
	c := s[1]
	for _, p := range []*G.Node{gamma, beta} {
		if !p.Shape().Eq(tensor.Shape{1, c, 1, 1}) {
			return nil, nil, fmt.Errorf("nn: batch norm of %v: scale or shift of shape %v, want (1, %d, 1, 1)", s, p.Shape(), c)
		}
	}
	if res != nil && !res.Shape().Eq(s) {
		return nil, nil, fmt.Errorf("nn: batch norm of %v: residual of shape %v", s, res.Shape())
	}
	op := &bnOp{channels: c, size: s.TotalSize(), momentum: momentum, relu: relu, residual: res != nil, training: true,
		mean: make([]float32, c), variance: make([]float32, c),
		bMean: make([]float32, c), bInvStd: make([]float32, c),
		sumG: make([]float32, c), sumGX: make([]float32, c)}
	fill(op.variance, 1)
	in := G.Nodes{x, gamma, beta}
	if res != nil {
		in = append(in, res)
		op.g = make([]float32, op.size)
	}
	y, err := G.ApplyOp(op, in...)
	return y, op, err
}

// Stats returns the running mean and variance (backed by the op's data).
func (op *bnOp) Stats() (tensor.Tensor, tensor.Tensor) {
	return tensor.New(tensor.WithShape(op.channels), tensor.WithBacking(op.mean)),
		tensor.New(tensor.WithShape(op.channels), tensor.WithBacking(op.variance))
}

// SetTraining is called by the tape machine: true unless it runs in
// evaluation mode. Unlike G.BatchNormOp it leaves the running statistics.
func (op *bnOp) SetTraining(training bool) error {
	op.training = training
	return nil
}

func (op *bnOp) Arity() int {
	if op.residual {
		return 4
	}
	return 3
}

func (op *bnOp) Type() hm.Type { return tensorFnType(op.Arity()) }

func (op *bnOp) InferShape(shapes ...G.DimSizer) (tensor.Shape, error) {
	if len(shapes) != op.Arity() {
		return nil, fmt.Errorf("%v: %d inputs, want %d", op, len(shapes), op.Arity())
	}
	s, ok := shapes[0].(tensor.Shape)
	if !ok || s.Dims() != 4 || s[1] != op.channels || s.TotalSize() != op.size {
		return nil, fmt.Errorf("%v: input of shape %v", op, shapes[0])
	}
	return s.Clone(), nil
}

func (op *bnOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "lifezero.bn:%d-%d-%v-%v-%v-%p", op.channels, op.size, op.momentum, op.relu, op.residual, op)
}

func (op *bnOp) Hashcode() uint32 { return hashOf(op) }

func (op *bnOp) String() string {
	if op.residual {
		return fmt.Sprintf("bn+residual+relu<%d channels>", op.channels)
	}
	if op.relu {
		return fmt.Sprintf("bn+relu<%d channels>", op.channels)
	}
	return fmt.Sprintf("bn<%d channels>", op.channels)
}

func (op *bnOp) Do(inputs ...G.Value) (G.Value, error) { return op.do(nil, inputs) }

func (op *bnOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return op.do(prealloc, inputs)
}

// values checks and returns the float32 data of up to four values: the
// first big of op.size floats, the others of op.channels. (An array, not a
// slice: it runs a few times per op per training step.)
func (op *bnOp) values(owner fmt.Stringer, big int, vals ...G.Value) (out [4][]float32, err error) {
	if len(vals) > len(out) {
		return out, fmt.Errorf("%v: %d values, at most %d", owner, len(vals), len(out))
	}
	for i, v := range vals {
		t, ok := v.(*tensor.Dense)
		if !ok {
			return out, fmt.Errorf("%v: input %d is a %T, want a dense tensor", owner, i, v)
		}
		d, ok := t.Data().([]float32)
		want := op.channels
		if i < big {
			want = op.size
		}
		if !ok || t.RequiresIterator() || len(d) != want || t.Shape().TotalSize() != want {
			return out, fmt.Errorf("%v: input %d of shape %v is not %d contiguous float32s", owner, i, t.Shape(), want)
		}
		out[i] = d
	}
	return out, nil
}

func (op *bnOp) do(out G.Value, inputs []G.Value) (G.Value, error) {
	if len(inputs) != op.Arity() {
		return nil, fmt.Errorf("%v: %d inputs, want %d", op, len(inputs), op.Arity())
	}
	var (
		in  [4][]float32
		err error
	)
	if op.residual {
		in, err = op.values(op, 2, inputs[0], inputs[3], inputs[1], inputs[2])
	} else {
		in, err = op.values(op, 1, inputs[0], inputs[1], inputs[2])
	}
	if err != nil {
		return nil, err
	}
	if out == nil {
		if op.out == nil {
			op.out = tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(inputs[0].Shape().Clone()...))
		}
		out = op.out
	}
	y, err := op.values(op, 1, out)
	if err != nil {
		return nil, err
	}
	x, gamma, beta := in[0], in[1], in[2]
	var res []float32
	if op.residual {
		res, gamma, beta = in[1], in[2], in[3]
	}
	c := op.channels
	hw := op.size / (inputs[0].Shape()[0] * c)
	batch := op.size / (c * hw)
	splitChannels(c, op.size, func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			op.forwardChannel(ch, batch, hw, x, res, gamma[ch], beta[ch], y[0])
		}
	})
	return out, nil
}

// forwardChannel normalises channel ch of x into y, adding res when not
// nil (and, training, moves the running statistics).
func (op *bnOp) forwardChannel(ch, batch, hw int, x, res []float32, gamma, beta float32, y []float32) {
	c := op.channels
	block := func(s int) (lo, hi int) { return (s*c + ch) * hw, (s*c + ch + 1) * hw }
	mean := op.mean[ch]
	invStd := 1 / float32(math.Sqrt(float64(op.variance[ch]+bnEpsilon)))
	if op.training {
		m := float64(batch * hw)
		var sum, sq float64
		for s := range batch {
			lo, hi := block(s)
			for _, v := range x[lo:hi] {
				sum += float64(v)
			}
		}
		mu := sum / m
		for s := range batch {
			lo, hi := block(s)
			for _, v := range x[lo:hi] {
				d := float64(v) - mu
				sq += d * d
			}
		}
		mean, invStd = float32(mu), float32(1/math.Sqrt(sq/m+bnEpsilon))
		op.bMean[ch], op.bInvStd[ch] = mean, invStd
		mo := float32(op.momentum)
		op.mean[ch] = mo*mean + (1-mo)*op.mean[ch]
		op.variance[ch] = mo*float32(sq/max(1, m-1)) + (1-mo)*op.variance[ch]
	}
	scale := gamma * invStd
	shift := beta - mean*scale
	for s := range batch {
		lo, hi := block(s)
		dst := y[lo:hi]
		if res != nil {
			copy(dst, res[lo:hi])
		} else {
			clear(dst)
		}
		for i, v := range x[lo:hi] {
			o := v*scale + shift + dst[i]
			if op.relu {
				o = max(0, o)
			}
			dst[i] = o
		}
	}
}

func (op *bnOp) DiffWRT(inputs int) []bool { return []bool{true, true, true, true}[:inputs] }

// SymDiff returns the three gradient ops: dx on (x, γ, y, dy) (y gives the
// ReLU's mask), which also leaves the sums dγ and dβ are made of in op;
// dγ and dβ read them, on the dx node so that they run after it.
func (op *bnOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != op.Arity() {
		return nil, fmt.Errorf("%v: %d inputs, want %d", op, len(inputs), op.Arity())
	}
	dx, err := G.ApplyOp(bnGradXOp{bn: op}, inputs[0], inputs[1], output, grad)
	if err != nil {
		return nil, err
	}
	dgamma, err := G.ApplyOp(bnGradParamOp{bn: op}, dx)
	if err != nil {
		return nil, err
	}
	dbeta, err := G.ApplyOp(bnGradParamOp{bn: op, beta: true}, dx)
	if err != nil {
		return nil, err
	}
	grads := G.Nodes{dx, dgamma, dbeta}
	if op.residual {
		dres := grad
		if op.relu {
			if dres, err = G.ApplyOp(reluGradOp{bn: op}, dx); err != nil {
				return nil, err
			}
		}
		grads = append(grads, dres)
	}
	return grads, nil
}

// bnGradXOp is dx of a bnOp from its inputs x and γ, its output y and the
// output's gradient dy: with g = dy (masked by y > 0 with the ReLU),
// x̂ = (x − μ)/σ and M = B·N² (batch statistics),
// dx = γ/(σM)·(M·g − Σg − x̂·Σ g·x̂) per channel. Σg and Σ g·x̂ are dβ and
// dγ; it leaves them in the bnOp for bnGradParamOp.
type bnGradXOp struct {
	opTraits
	bn *bnOp
}

func (op bnGradXOp) Arity() int    { return 4 }
func (op bnGradXOp) Type() hm.Type { return tensorFnType(4) }

func (op bnGradXOp) InferShape(shapes ...G.DimSizer) (tensor.Shape, error) {
	return firstShape(op, shapes, 4)
}

func (op bnGradXOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "lifezero.bngradx:")
	op.bn.WriteHash(h)
}

func (op bnGradXOp) Hashcode() uint32 { return hashOf(op) }

func (op bnGradXOp) String() string { return fmt.Sprintf("d%v/dx", op.bn) }

func (op bnGradXOp) Do(inputs ...G.Value) (G.Value, error) { return op.do(nil, inputs) }

func (op bnGradXOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return op.do(prealloc, inputs)
}

func (op bnGradXOp) do(out G.Value, inputs []G.Value) (G.Value, error) {
	if len(inputs) != 4 {
		return nil, fmt.Errorf("%v: %d inputs, want 4", op, len(inputs))
	}
	bn := op.bn
	// x, y, dy are big; γ is inputs[1]: reorder for values().
	in, err := bn.values(op, 3, inputs[0], inputs[2], inputs[3], inputs[1])
	if err != nil {
		return nil, err
	}
	x, y, dy, gamma := in[0], in[1], in[2], in[3]
	if out == nil {
		if bn.gradOut == nil {
			bn.gradOut = tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(inputs[0].Shape().Clone()...))
		}
		out = bn.gradOut
	}
	res, err := bn.values(op, 1, out)
	if err != nil {
		return nil, err
	}
	dx := res[0]
	c := bn.channels
	hw := bn.size / (inputs[0].Shape()[0] * c)
	batch := bn.size / (c * hw)
	splitChannels(c, bn.size, func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			bn.gradChannel(ch, batch, hw, x, y, dy, gamma[ch], dx)
		}
	})
	return out, nil
}

// gradChannel writes dx for channel ch (the masked gradient first, then
// the formula in place) and the channel's sums.
func (bn *bnOp) gradChannel(ch, batch, hw int, x, y, dy []float32, gamma float32, dx []float32) {
	c := bn.channels
	mean, invStd := bn.bMean[ch], bn.bInvStd[ch]
	// The masked gradient g goes to bn.g (the residual's gradient) when
	// there is a residual, else into dx, which the formula then rewrites.
	gbuf := dx
	if bn.residual {
		gbuf = bn.g
	}
	var sumG, sumGX float64
	for s := range batch {
		lo := (s*c + ch) * hw
		g, xs, ys, ds := gbuf[lo:lo+hw], x[lo:lo+hw], y[lo:lo+hw], dy[lo:lo+hw]
		var sg, sgx float32 // per block of N², then in float64
		for i, v := range ds {
			if bn.relu {
				// The mask as bits, without a branch: a float select is
				// a jump, mispredicted at half the points.
				var keep uint32
				if ys[i] > 0 {
					keep = 1<<32 - 1
				}
				v = math.Float32frombits(math.Float32bits(v) & keep)
			}
			g[i] = v
			sg += v
			sgx += v * (xs[i] - mean)
		}
		sumG += float64(sg)
		sumGX += float64(sgx)
	}
	sumGX *= float64(invStd)
	bn.sumG[ch], bn.sumGX[ch] = float32(sumG), float32(sumGX)
	m := float32(batch * hw)
	k := gamma * invStd / m
	sg, sgx := float32(sumG), float32(sumGX)
	for s := range batch {
		lo := (s*c + ch) * hw
		g, xs, d := gbuf[lo:lo+hw], x[lo:lo+hw], dx[lo:lo+hw]
		for i, v := range g {
			d[i] = k * (m*v - sg - (xs[i]-mean)*invStd*sgx)
		}
	}
}

// splitChannels runs f over channel ranges on the cores (runChunks) when
// the tensor (of n floats) is large enough to pay for the goroutines.
func splitChannels(c, n int, f func(lo, hi int)) {
	if c < 2 || n < 1<<14 {
		f(0, c)
		return
	}
	runChunks(c, max(1, c/8), runtime.GOMAXPROCS(0), f)
}

// bnGradParamOp is dγ (Σ g·x̂) or dβ (Σ g) of a bnOp, left there by the
// bnGradXOp whose output is its input.
type bnGradParamOp struct {
	opTraits
	bn   *bnOp
	beta bool
}

func (op bnGradParamOp) Arity() int    { return 1 }
func (op bnGradParamOp) Type() hm.Type { return tensorFnType(1) }

func (op bnGradParamOp) InferShape(shapes ...G.DimSizer) (tensor.Shape, error) {
	if len(shapes) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(shapes))
	}
	return tensor.Shape{1, op.bn.channels, 1, 1}, nil
}

func (op bnGradParamOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "lifezero.bngradparam%v:", op.beta)
	op.bn.WriteHash(h)
}

func (op bnGradParamOp) Hashcode() uint32 { return hashOf(op) }

func (op bnGradParamOp) String() string {
	if op.beta {
		return fmt.Sprintf("d%v/dβ", op.bn)
	}
	return fmt.Sprintf("d%v/dγ", op.bn)
}

func (op bnGradParamOp) Do(inputs ...G.Value) (G.Value, error) { return op.do(nil, inputs) }

func (op bnGradParamOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return op.do(prealloc, inputs)
}

func (op bnGradParamOp) do(out G.Value, inputs []G.Value) (G.Value, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(inputs))
	}
	if out == nil {
		out = tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(1, op.bn.channels, 1, 1))
	}
	res, err := op.bn.values(op, 0, out)
	if err != nil {
		return nil, err
	}
	if op.beta {
		copy(res[0], op.bn.sumG)
	} else {
		copy(res[0], op.bn.sumGX)
	}
	return out, nil
}

// reluGradOp is the gradient of a residual bnOp's output with respect to
// its residual input: dy where y > 0, else 0, which the bnGradXOp whose
// output is its input left in the bnOp.
type reluGradOp struct {
	opTraits
	bn *bnOp
}

func (op reluGradOp) Arity() int    { return 1 }
func (op reluGradOp) Type() hm.Type { return tensorFnType(1) }

func (op reluGradOp) InferShape(shapes ...G.DimSizer) (tensor.Shape, error) {
	return firstShape(op, shapes, 1)
}

func (op reluGradOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "lifezero.bnrelugrad:")
	op.bn.WriteHash(h)
}

func (op reluGradOp) Hashcode() uint32 { return hashOf(op) }

func (op reluGradOp) String() string { return fmt.Sprintf("d%v/dres", op.bn) }

func (op reluGradOp) Do(inputs ...G.Value) (G.Value, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(inputs))
	}
	if _, err := op.bn.values(op, 1, inputs...); err != nil {
		return nil, err
	}
	// A copy in a tensor of the op's own: gorgonia may sum other
	// gradients into this value in place.
	if op.bn.resGrad == nil {
		op.bn.resGrad = tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(inputs[0].Shape().Clone()...))
	}
	copy(op.bn.resGrad.Data().([]float32), op.bn.g)
	return op.bn.resGrad, nil
}
