package nn

import (
	"fmt"
	"math"
	"sync"
)

// maxColumns bounds the board points (samples × N²) one pass of the
// Evaluator handles: larger batches run in chunks, which keeps the im2col
// buffer near 4096×9×filters floats.
const maxColumns = 4096

// Evaluator is the forward pass for search: plain Go over a copy of the
// weights, batch norm folded into the convolutions, convolutions as im2col
// + SGEMM. It is safe for concurrent use: each call takes its own scratch
// buffers from a pool.
type Evaluator struct {
	cfg                          Config
	stem                         convLayer
	blocks                       [][2]convLayer
	policyConv, valueConv        convLayer
	policyFC, valueFC1, valueFC2 fcLayer
	dwinFC                       fcLayer
	chunk                        int // samples per pass
	// direct says the convolutions run on the direct kernel (the packed
	// weights exist); else im2col + the build's SGEMM.
	direct bool
	// fused says the tower's layers add bias, residual and ReLU in the
	// kernel (the assembly is there).
	fused bool
	// Tap offsets in the padded layout: 3×3 over the input planes and
	// over the filters, 1×1 over the filters (the heads).
	geomIn, geomF, geom1 *tapGeom
	moveStem             *moveStem // nil without move-number planes
	scratch              sync.Pool
}

// convLayer is a k×k convolution with batch norm folded in: out = W·x + b.
type convLayer struct {
	out, in, k int
	// w is out × (k·k·in), column index (ky·k + kx)·in + ci: the order of
	// an im2col row of position-major activations.
	w  []float32
	b  []float32 // out
	mw matB      // w as the product's operand
}

// fcLayer is y = x·W + b, with W stored transposed (out × in) so that
// SGEMM takes dot products along the inputs.
type fcLayer struct {
	in, out int
	wt      []float32 // out × in
	b       []float32 // out
	mw      matB      // wt as the product's operand
}

// NewEvaluator prepares the forward pass of w. It copies what it needs:
// later changes to w do not affect it.
func NewEvaluator(w *Weights) (*Evaluator, error) {
	if err := w.check(); err != nil {
		return nil, fmt.Errorf("nn: new evaluator: %w", err)
	}
	cfg := w.Config
	e := &Evaluator{cfg: cfg, chunk: max(1, maxColumns/cfg.Points())}
	e.stem = foldConv(w, layerStem)
	for i := 0; i < cfg.Blocks; i++ {
		e.blocks = append(e.blocks, [2]convLayer{foldConv(w, blockLayer(i, false)), foldConv(w, blockLayer(i, true))})
	}
	e.policyConv = foldConv(w, layerPolicy)
	e.valueConv = foldConv(w, layerValue)
	e.policyFC = copyFC(w, layerPolicyFC)
	e.valueFC1 = copyFC(w, layerValueFC1)
	e.valueFC2 = copyFC(w, layerValueFC2)
	e.dwinFC = copyFC(w, layerDWinFC)
	e.direct = e.stem.mw.packed != nil
	e.fused = e.direct && hasFMA
	width := cfg.Board + 2
	e.geomIn = newTapGeom(e.stem.k, width, cfg.Planes())
	e.geomF = newTapGeom(3, width, cfg.Filters)
	e.geom1 = newTapGeom(1, width, cfg.Filters)
	e.moveStem = newMoveStem(cfg, &e.stem)
	e.scratch.New = func() any { return e.newScratch() }
	return e, nil
}

// foldConv folds the layer's batch norm (running statistics) into its
// convolution: scale = γ/√(var+ε), W' = W·scale, b' = β − mean·scale.
func foldConv(w *Weights, layer string) convLayer {
	t := w.Tensor(layer + ".conv")
	out, in, k := t.Shape[0], t.Shape[1], t.Shape[2]
	gamma, beta := w.data(layer+".bn.gamma"), w.data(layer+".bn.beta")
	mean, variance := w.data(layer+".bn.mean"), w.data(layer+".bn.var")
	c := convLayer{out: out, in: in, k: k, w: make([]float32, len(t.Data)), b: make([]float32, out)}
	row := in * k * k
	for o := 0; o < out; o++ {
		scale := gamma[o] / float32(math.Sqrt(float64(variance[o])+bnEpsilon))
		for ci := 0; ci < in; ci++ {
			for kk := 0; kk < k*k; kk++ { // kk = ky·k + kx
				c.w[o*row+kk*in+ci] = t.Data[o*row+ci*k*k+kk] * scale
			}
		}
		c.b[o] = beta[o] - mean[o]*scale
	}
	c.mw = newMatB(c.w, out, row)
	return c
}

func copyFC(w *Weights, layer string) fcLayer {
	t := w.Tensor(layer + ".w")
	l := fcLayer{in: t.Shape[0], out: t.Shape[1], wt: make([]float32, len(t.Data)),
		b: append([]float32(nil), w.data(layer+".b")...)}
	for i := 0; i < l.in; i++ {
		for o := 0; o < l.out; o++ {
			l.wt[o*l.in+i] = t.Data[i*l.out+o]
		}
	}
	l.mw = newMatB(l.wt, l.out, l.in)
	return l
}

// Config returns the network's configuration.
func (e *Evaluator) Config() Config { return e.cfg }

// scratch holds the buffers of one pass over up to e.chunk samples.
// Activations are position-major (NHWC) with a zero border (conv_direct.go):
// act[padded point · channels + c]. Only interior points are ever written,
// so the borders stay zero from allocation on.
type scratch struct {
	in     []float32 // padded points × planes
	inFix  []float32 // padded points × NumFixedPlanes: the short stem's input
	x, y   []float32 // padded points × filters
	dense  []float32 // cols × filters: a convolution's output before its bias
	col    []float32 // cols × (9·max(planes, filters)), without the direct kernel
	head   []float32 // cols × policyConvOut, then the value conv output
	rows   []float32 // samples × (policyConvOut·N²): the FC inputs
	hidden []float32 // samples × ValueHidden
	out    []float32 // samples × max(PolicySize, D, 1)
}

func (e *Evaluator) newScratch() *scratch {
	c := e.cfg
	cols := e.chunk * c.Points()
	padded := e.chunk * (c.Board + 2) * (c.Board + 2)
	f := c.Filters
	s := &scratch{
		in: make([]float32, c.Planes()*padded), inFix: make([]float32, NumFixedPlanes*padded),
		x: make([]float32, f*padded), y: make([]float32, f*padded),
		dense:  make([]float32, f*cols),
		head:   make([]float32, policyConvOut*cols),
		rows:   make([]float32, e.chunk*policyConvOut*c.Points()),
		hidden: make([]float32, e.chunk*c.ValueHidden),
		out:    make([]float32, e.chunk*max(c.PolicySize(), c.D)),
	}
	if !e.direct {
		s.col = make([]float32, max(c.Planes(), f)*9*cols)
	}
	return s
}

// Forward evaluates n encoded positions (planes holds n×InputSize floats,
// as written by Config.Encode). For each position it returns the policy as
// probabilities over the N²+1 moves (softmax of the logits; index y*N+x,
// pass last), the value in [-1, 1] for the side to move, and the D d-win
// probabilities (d-1: the living side lives within d moves).
func (e *Evaluator) Forward(planes []float32, n int) (policy [][]float32, value []float32, dwin [][]float32, err error) {
	c := e.cfg
	if n < 0 || len(planes) != n*c.InputSize() {
		return nil, nil, nil, fmt.Errorf("nn: forward: %d floats of planes for %d positions, want %d", len(planes), n, n*c.InputSize())
	}
	pflat := make([]float32, n*c.PolicySize())
	dflat := make([]float32, n*c.D)
	value = make([]float32, n)
	policy = make([][]float32, n)
	dwin = make([][]float32, n)
	for i := range n {
		policy[i] = pflat[i*c.PolicySize() : (i+1)*c.PolicySize()]
		dwin[i] = dflat[i*c.D : (i+1)*c.D]
	}
	s := e.scratch.Get().(*scratch)
	defer e.scratch.Put(s)
	// Runs of positions whose move planes are one-hot take the short stem
	// (movestem.go), the others the full one; a position's outputs do not
	// depend on the other positions of its pass.
	in := c.InputSize()
	moves := make([]int, n)
	for i := range moves {
		moves[i] = -1
		if e.moveStem != nil {
			moves[i] = e.moveIndex(planes[i*in : (i+1)*in])
		}
	}
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && hi-lo < e.chunk && (moves[hi] < 0) == (moves[lo] < 0) {
			hi++
		}
		var mv []int
		if moves[lo] >= 0 {
			mv = moves[lo:hi]
		}
		e.pass(s, planes[lo*in:hi*in], hi-lo, mv,
			pflat[lo*c.PolicySize():hi*c.PolicySize()], value[lo:hi], dflat[lo*c.D:hi*c.D])
		lo = hi
	}
	return policy, value, dwin, nil
}

// pass runs the network on n ≤ e.chunk samples; moves, when not nil,
// gives their move planes, and the stem then skips those planes.
func (e *Evaluator) pass(s *scratch, planes []float32, n int, moves []int, policy, value, dwin []float32) {
	c := e.cfg
	hw := c.Points()
	// Input planes are plane-major per sample; the tower wants
	// position-major, with the border.
	// The two layouts have their own buffers: an interior write of one
	// would land on the other's border.
	np, stride, in := c.Planes(), c.Planes(), s.in
	if moves != nil {
		np, in = NumFixedPlanes, s.inFix
	}
	for b := 0; b < n; b++ {
		for i := 0; i < hw; i++ {
			dst := in[e.paddedPoint(b*hw+i)*np:][:np]
			for p := range dst {
				dst[p] = planes[(b*stride+p)*hw+i]
			}
		}
	}
	x, y, d := s.x, s.y, s.dense
	stemDone := false
	if moves != nil {
		e.conv(&e.moveStem.conv, e.moveStem.geom, in, d, s.col, n)
		e.stemEpilogue(d, moves, x, n)
		stemDone = true
	}
	if e.fused {
		if !stemDone {
			e.convFused(&e.stem, e.geomIn, in, x, false, n)
		}
		for i := range e.blocks {
			blk := &e.blocks[i]
			e.convFused(&blk[0], e.geomF, x, y, false, n)
			e.convFused(&blk[1], e.geomF, y, x, true, n)
		}
		e.policyHead(s, x, n, policy)
		e.valueHeads(s, x, n, value, dwin)
		return
	}
	if !stemDone {
		e.conv(&e.stem, e.geomIn, in, d, s.col, n)
		e.unpad(d, e.stem.b, x, false, n)
	}
	for i := range e.blocks {
		blk := &e.blocks[i]
		e.conv(&blk[0], e.geomF, x, d, s.col, n)
		e.unpad(d, blk[0].b, y, false, n)
		e.conv(&blk[1], e.geomF, y, d, s.col, n)
		e.unpad(d, blk[1].b, x, true, n) // x = relu(d + b + x): the residual
	}
	e.policyHead(s, x, n, policy)
	e.valueHeads(s, x, n, value, dwin)
}
