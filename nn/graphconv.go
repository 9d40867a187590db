package nn

import (
	"fmt"
	"hash"
	"runtime"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The training graph's convolutions as gorgonia ops on the Evaluator's
// kernels. G.Conv2d is im2col (a generic strided loop), a product, and a
// transpose back to NCHW, and its gradient is the transposes, products and
// col2im in reverse: in a 5x64 training step the products were a fifth of
// the time and the loops and copies around them most of the rest, on one
// core. These ops keep the graph's NCHW tensors at their edges but compute
// inside on a padded position-major layout like that of conv_direct.go:
//
//   - convOp: y = conv(x, w), the direct kernel (directConvNCHW) with the
//     weights packed in (tap, channel) order;
//   - convInputGradOp: dx = the same direct kernel over the padded dy with
//     the weights flipped (tap t reads the kernel's tap k²−1−t) and their
//     in and out channels swapped;
//   - convFilterGradOp: dw[co][ci][t] = Σ_p x[p + off_t][ci]·dy[p][co], one
//     packed product per tap and chunk of the padded points, dy packed
//     once; it reuses the padded x and dy the other two ops made.
//
// The padded layout of these ops shares its zero borders (compactPoint):
// 64 points a 7x7 sample instead of the Evaluator's 81, which is what the
// filter gradient's products run over.
//
// Every product splits its work between the cores (runChunks). Only
// stride 1, "same" padding and odd k ≤ 3 (the network's 3×3 and 1×1) are
// supported: the padded layout has a border of one point.

// useConvOps says the graphs convolve with these ops: where the packed
// kernels run (they are what makes the ops fast) and on the CPU engine.
// Elsewhere (OpenBLAS, purego, CUDA builds) they use G.Conv2d as before.
var useConvOps = usePacked && GraphBackend == "cpu"

// convShape is the geometry of one convolution of the graph.
type convShape struct {
	board, batch, cin, cout, k int
}

func (s convShape) hw() int       { return s.board * s.board }
func (s convShape) taps() int     { return s.k * s.k }
func (s convShape) padded() int   { return compactSize(s.board, s.batch) }
func (s convShape) xShape() []int { return []int{s.batch, s.cin, s.board, s.board} }
func (s convShape) yShape() []int { return []int{s.batch, s.cout, s.board, s.board} }
func (s convShape) wShape() []int { return []int{s.cout, s.cin, s.k, s.k} }

// convBase holds what the three ops share: arity 2, the type
// (Tensor a, Tensor a) → Tensor a, hashing by name and shape.
type convBase struct {
	opTraits
	convShape
	name string
}

// base returns the convBase of an op of this convolution.
func (s convShape) base(name string) convBase { return convBase{convShape: s, name: name} }

func (op convBase) Arity() int    { return 2 }
func (op convBase) Type() hm.Type { return tensorFnType(2) }

func (op convBase) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "lifezero.%s:%d-%d-%d-%d-%d", op.name, op.board, op.batch, op.cin, op.cout, op.k)
}

func (op convBase) Hashcode() uint32 { return hashOf(op) }

func (op convBase) String() string {
	return fmt.Sprintf("%s<%dx%d, %d→%d, k%d, batch %d>", op.name, op.board, op.board, op.cin, op.cout, op.k, op.batch)
}

// checkShapes checks the inputs' shapes against want (at graph build).
func (op convBase) checkShapes(shapes []G.DimSizer, want ...[]int) error {
	if len(shapes) != len(want) {
		return fmt.Errorf("%v: %d inputs, want %d", op, len(shapes), len(want))
	}
	for i, ds := range shapes {
		s, ok := ds.(tensor.Shape)
		if !ok || !s.Eq(tensor.Shape(want[i])) {
			return fmt.Errorf("%v: input %d has shape %v, want %v", op, i, ds, want[i])
		}
	}
	return nil
}

// floatsOf returns the float32 data of an input or output value of the
// given shape, contiguous in row-major order.
func floatsOf(op fmt.Stringer, what string, v G.Value, shape []int) ([]float32, error) {
	t, ok := v.(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("%v: %s is a %T, want a dense tensor", op, what, v)
	}
	if !t.Shape().Eq(tensor.Shape(shape)) {
		return nil, fmt.Errorf("%v: %s has shape %v, want %v", op, what, t.Shape(), shape)
	}
	d, ok := t.Data().([]float32)
	if !ok || t.RequiresIterator() || len(d) < size(shape) {
		return nil, fmt.Errorf("%v: %s is not contiguous float32 data", op, what)
	}
	return d[:size(shape)], nil
}

// run is the body of an op: it checks the values and computes out.
type convRunner interface {
	fmt.Stringer
	outShape() []int
	run(out []float32, in [2][]float32)
	inShapes() [2][]int
	buffers() *convBufs
}

// doConv is Do and UsePreallocDo of the three ops: out is nil or the
// preallocated value.
func doConv(op convRunner, out G.Value, inputs []G.Value) (G.Value, error) {
	if len(inputs) < 2 { // a third input only orders the ops
		return nil, fmt.Errorf("%v: %d inputs, want 2", op, len(inputs))
	}
	var in [2][]float32
	for i, s := range op.inShapes() {
		d, err := floatsOf(op, [...]string{"input 0", "input 1"}[i], inputs[i], s)
		if err != nil {
			return nil, err
		}
		in[i] = d
	}
	if out == nil { // the op's own output, made once: no garbage per run
		b := op.buffers()
		if b.out == nil {
			b.out = tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(op.outShape()...))
		}
		out = b.out
	}
	d, err := floatsOf(op, "output", out, op.outShape())
	if err != nil {
		return nil, err
	}
	op.run(d, in)
	return out, nil
}

// convOp is y = conv(x, w) for x (B, cin, N, N) and w (cout, cin, k, k).
type convOp struct {
	convBase
	// noInputGrad says x is data (the stem's input): its gradient is
	// never needed, so none is built.
	noInputGrad bool
	buf         *convBufs
}

// convBufs are an op's scratch buffers, made at its first run. A graph
// runs one op at a time, and each op node has its own.
type convBufs struct {
	a, b   []float32 // padded activations (x or dy)
	dense  []float32 // the filter gradient's sums and products
	packed []float32 // packed operand
	geom   *tapGeom
	out    *tensor.Dense // the output value when the machine gives none
}

func (op convOp) buffers() *convBufs           { return op.buf }
func (op convInputGradOp) buffers() *convBufs  { return op.buf }
func (op convFilterGradOp) buffers() *convBufs { return op.buf }

// newConv returns y = conv(x, filter) as a node of x's graph; stem says x
// is data that needs no gradient.
func newConv(x, filter *G.Node, stem bool) (*G.Node, error) {
	xs, ws := x.Shape(), filter.Shape()
	if xs.Dims() != 4 || ws.Dims() != 4 || xs[2] != xs[3] || ws[2] != ws[3] || ws[1] != xs[1] {
		return nil, fmt.Errorf("nn: conv of %v by %v: want (B, C, N, N) by (O, C, k, k)", xs, ws)
	}
	if k := ws[2]; k != 1 && k != 3 {
		return nil, fmt.Errorf("nn: conv of %v by %v: kernel %d, want 1 or 3", xs, ws, k)
	}
	s := convShape{board: xs[2], batch: xs[0], cin: xs[1], cout: ws[0], k: ws[2]}
	op := convOp{convBase: s.base("conv"), noInputGrad: stem, buf: &convBufs{}}
	return G.ApplyOp(op, x, filter)
}

func (op convOp) InferShape(shapes ...G.DimSizer) (tensor.Shape, error) {
	if err := op.checkShapes(shapes, op.xShape(), op.wShape()); err != nil {
		return nil, err
	}
	return tensor.Shape(op.yShape()), nil
}

func (op convOp) inShapes() [2][]int { return [2][]int{op.xShape(), op.wShape()} }
func (op convOp) outShape() []int    { return op.yShape() }

func (op convOp) Do(inputs ...G.Value) (G.Value, error) { return doConv(op, nil, inputs) }

func (op convOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return doConv(op, prealloc, inputs)
}

func (op convOp) run(y []float32, in [2][]float32) {
	// The slack at the end of the padded x is read by the filter gradient.
	op.direct(op.buf, in[1], in[0], y, false, op.blockRows()-op.cin)
}

func (op convOp) DiffWRT(inputs int) []bool { return []bool{!op.noInputGrad, true} }

func (op convOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 2 {
		return nil, fmt.Errorf("%v: %d inputs, want 2", op, len(inputs))
	}
	// dw reads the padded x of the forward op and, when there is a dx op,
	// its padded dy: dx is then dw's third input, so that it runs first.
	fw := convFilterGradOp{convBase: op.base("conv.dw"), buf: &convBufs{}, x: op.buf}
	var (
		dx  *G.Node
		err error
	)
	if !op.noInputGrad {
		in := convInputGradOp{op.base("conv.dx"), &convBufs{}}
		if dx, err = G.ApplyOp(in, inputs[1], grad); err != nil {
			return nil, err
		}
		fw.dy = in.buf
	}
	children := G.Nodes{inputs[0], grad}
	if dx != nil {
		children = append(children, dx)
	}
	dw, err := G.ApplyOp(fw, children...)
	if err != nil {
		return nil, err
	}
	return G.Nodes{dx, dw}, nil
}

// convInputGradOp is dx for w (cout, cin, k, k) and dy (B, cout, N, N).
type convInputGradOp struct {
	convBase
	buf *convBufs
}

func (op convInputGradOp) InferShape(shapes ...G.DimSizer) (tensor.Shape, error) {
	if err := op.checkShapes(shapes, op.wShape(), op.yShape()); err != nil {
		return nil, err
	}
	return tensor.Shape(op.xShape()), nil
}

func (op convInputGradOp) inShapes() [2][]int { return [2][]int{op.wShape(), op.yShape()} }
func (op convInputGradOp) outShape() []int    { return op.xShape() }

func (op convInputGradOp) Do(inputs ...G.Value) (G.Value, error) { return doConv(op, nil, inputs) }

func (op convInputGradOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return doConv(op, prealloc, inputs)
}

// run: dx[q][ci] = Σ_{t,co} dy[q + off_t][co]·w[co][ci][k²−1−t], a direct
// convolution of the padded dy whose output channels are the inputs.
func (op convInputGradOp) run(dx []float32, in [2][]float32) {
	op.direct(op.buf, in[0], in[1], dx, true, 0)
}

// direct is the run of convOp and convInputGradOp: dst = the direct
// convolution of src by w (cout, cin, k, k), the padded src and the packed
// weights kept in b. Transposed, it is the input gradient's: src is dy,
// its channels w's outputs, dst's channels w's inputs, and each kernel
// flipped. slack is room left after the padded src.
func (op convBase) direct(b *convBufs, w, src, dst []float32, transposed bool, slack int) {
	kk, chans, outs := op.taps(), op.cin, op.cout
	if transposed {
		chans, outs = outs, chans
	}
	if b.geom == nil {
		b.a = make([]float32, op.padded()*chans+slack)
		b.packed = make([]float32, panelsOf(outs)*kk*chans*panelCols)
		b.geom = newTapGeom(op.k, op.board+1, chans)
	}
	// Column (t, c) of output o is w[o][c][t], or transposed w[c][o][k²−1−t].
	kdim := kk * chans
	for co := range op.cout {
		for ci := range op.cin {
			o, c := co, ci
			if transposed {
				o, c = ci, co
			}
			panel := b.packed[(o/panelCols)*kdim*panelCols+o%panelCols:]
			for t, v := range w[(co*op.cin+ci)*kk : (co*op.cin+ci+1)*kk] {
				tap := t
				if transposed {
					tap = kk - 1 - t
				}
				panel[(tap*chans+c)*panelCols] = v
			}
		}
	}
	toPadded(src, b.a, op.board, op.batch, chans)
	mb := matB{n: outs, k: kdim, packed: b.packed}
	directConvNCHW(op.board, &mb, chans, b.geom, b.a, dst, op.batch)
}

// convFilterGradOp is dw for x (B, cin, N, N) and dy (B, cout, N, N),
// and optionally the dx node of the same convolution, only to run after it.
type convFilterGradOp struct {
	convBase
	buf *convBufs
	// x and dy are the buffers where the forward op and the dx op (nil
	// when there is none) left the padded x and dy of this run.
	x, dy *convBufs
}

func (op convFilterGradOp) Arity() int {
	if op.dy != nil {
		return 3
	}
	return 2
}

func (op convFilterGradOp) Type() hm.Type { return tensorFnType(op.Arity()) }

func (op convFilterGradOp) InferShape(shapes ...G.DimSizer) (tensor.Shape, error) {
	want := [][]int{op.xShape(), op.yShape()}
	if op.dy != nil {
		want = append(want, op.xShape())
	}
	if err := op.checkShapes(shapes, want...); err != nil {
		return nil, err
	}
	return tensor.Shape(op.wShape()), nil
}

func (op convFilterGradOp) inShapes() [2][]int { return [2][]int{op.xShape(), op.yShape()} }
func (op convFilterGradOp) outShape() []int    { return op.wShape() }

func (op convFilterGradOp) Do(inputs ...G.Value) (G.Value, error) { return doConv(op, nil, inputs) }

func (op convFilterGradOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return doConv(op, prealloc, inputs)
}

// blockRows is cin rounded up to whole blocks of the 6-row kernel: the
// filter gradient's rows are the input channels, and a row left over
// would run on the one-row kernel at a sixth of the speed. The extra rows
// read past a point into the next (or the slack at the end of the padded
// x) and are thrown away.
func (s convShape) blockRows() int { return (s.cin + kernelRows - 1) / kernelRows * kernelRows }

// filterChunk is the number of points per block of the filter gradient's
// products: a 16-column panel of dy over them (32 KB) stays in the L1/L2
// cache while the row blocks stream past it.
const filterChunk = 512

// filterGroups is the number of groups of chunks the filter gradient sums
// separately, the units its goroutines take in turn.
const filterGroups = 4

// run: for each tap t, the cin × cout product of x shifted by off_t
// (rows ci, read with stride cin) and the padded dy, over the padded
// points from the first interior one to the last (dy is zero on the
// border points between them, and the shifted reads stay inside), in
// chunks of points, the two halves of the chunks on the two cores.
func (op convFilterGradOp) run(dw []float32, in [2][]float32) {
	b, kk, rows := op.buf, op.taps(), op.blockRows()
	first := compactPoint(op.board, 0)
	last := compactPoint(op.board, op.batch*op.hw()-1)
	points := last - first + 1
	chunks := (points + filterChunk - 1) / filterChunk
	if b.geom == nil {
		b.packed = make([]float32, chunks*panelsOf(op.cout)*filterChunk*panelCols)
		b.dense = make([]float32, filterGroups*(kk+1)*rows*op.cout) // per group: taps' sums, a product
		b.geom = newTapGeom(op.k, op.board+1, op.cin)
		if op.x == nil || op.x.a == nil {
			b.a = make([]float32, op.padded()*op.cin+rows-op.cin)
		}
		if op.dy == nil || op.dy.a == nil {
			b.b = make([]float32, op.padded()*op.cout)
		}
	}
	xpad, dypad := b.a, b.b
	if xpad == nil {
		xpad = op.x.a
	} else {
		toPadded(in[0], xpad, op.board, op.batch, op.cin)
	}
	if dypad == nil {
		dypad = op.dy.a
	} else {
		toPadded(in[1], dypad, op.board, op.batch, op.cout)
	}
	chunk := func(c int) (lo, n int) { return c * filterChunk, min(filterChunk, points-c*filterChunk) }
	panels := panelsOf(op.cout) * filterChunk * panelCols
	for c := range chunks {
		p0, n := chunk(c)
		packOpB(b.packed[c*panels:], false, dypad[(first+p0)*op.cout:], op.cout, op.cout, n)
	}
	// The chunks fall into fixed groups with sums of their own, added in
	// group order at the end: the result does not depend on which
	// goroutine ran which group (a resumed training run must repeat an
	// uninterrupted one to the bit).
	groups := min(chunks, filterGroups)
	per := rows * op.cout * (kk + 1)
	workers := 1
	if 2*rows*op.cout*points*kk > 4<<20 {
		workers = runtime.GOMAXPROCS(0)
	}
	runChunks(groups, 1, workers, func(lo, hi int) {
		for g := lo; g < hi; g++ {
			sums := b.dense[g*per : g*per+kk*rows*op.cout]
			tmp := b.dense[g*per+kk*rows*op.cout : (g+1)*per]
			clear(sums)
			for c := g * chunks / groups; c < (g+1)*chunks/groups; c++ {
				p0, n := chunk(c)
				mb := matB{n: op.cout, k: n, packed: b.packed[c*panels:]}
				for t, off := range b.geom.off {
					gemmPackedRows(0, rows, xpad[(first+p0)*op.cin+off:], 1, op.cin, &mb, tmp, op.cout)
					for i, v := range tmp {
						sums[t*rows*op.cout+i] += v
					}
				}
			}
		}
	})
	for t := range kk {
		for ci := range op.cin {
			for co := range op.cout {
				v := b.dense[(t*rows+ci)*op.cout+co]
				for g := 1; g < groups; g++ {
					v += b.dense[g*per+(t*rows+ci)*op.cout+co]
				}
				dw[(co*op.cin+ci)*kk+t] = v
			}
		}
	}
}

func panelsOf(n int) int { return (n + panelCols - 1) / panelCols }

// compactPoint returns the index of dense point p (= s·N² + y·N + x) in
// the compact padded layout of the graph ops: rows of W = N+1 points, the
// last point of each row zero, and one zero row before every sample and
// after the last. The zero point ending a row is the right border of that
// row and the left border of the next, and the zero row between two
// samples the bottom border of one and the top border of the other, so
// every 3×3 tap of a point is again at a fixed offset (newTapGeom with
// width N+1), reading zero off the board. Index 0 is a zero point before
// the first row, for the up-left tap of the first point.
func compactPoint(board, p int) int {
	n := board
	s, i := p/(n*n), p%(n*n)
	row := s*(n+1) + i/n + 1
	return 1 + row*(n+1) + i%n
}

// compactSize is the number of points of the compact layout for batch
// samples: the leading point, the rows of the samples and their zero rows,
// and the final zero row.
func compactSize(board, batch int) int { return 1 + (batch*(board+1)+1)*(board+1) }

// toPadded writes NCHW src (batch samples of ch planes of N×N) into the
// interior of the compact padded position-major dst; the border is left
// as it is (zero: nothing else writes there).
func toPadded(src, dst []float32, board, batch, ch int) {
	hw := board * board
	splitSamples(batch, batch*hw*ch, func(lo, hi int) {
		toPaddedRange(src, dst, board, lo, hi, ch)
	})
}

// splitSamples runs f over sample ranges on the cores when the tensor (of
// n floats) is large enough to pay for the goroutines.
func splitSamples(batch, n int, f func(lo, hi int)) { splitChannels(batch, n, f) }

func toPaddedRange(src, dst []float32, board, lo, hi, ch int) {
	hw := board * board
	for s := lo; s < hi; s++ {
		plane := src[s*ch*hw : (s+1)*ch*hw]
		for i := range hw {
			row := dst[compactPoint(board, s*hw+i)*ch:][:ch]
			for c := range row {
				row[c] = plane[c*hw+i]
			}
		}
	}
}

// directConvNCHW is directConv with dst in NCHW (n samples of mw.n planes
// of N×N): each 6×16 block of the product goes from the kernel into a
// buffer and from there into its planes, while it is in the L1 cache.
func directConvNCHW(board int, mw *matB, cin int, g *tapGeom, act, dst []float32, n int) {
	hw := board * board
	cols := n * hw
	k, out := mw.k, mw.n
	panels := panelsOf(out)
	_ = dst[n*out*hw-1]
	splitRows(cols, 2*cols*out*k, func(lo, hi int) {
		var (
			rowOff [kernelRows]int
			tmp    [kernelRows * panelCols]float32
		)
		for i := lo; i < hi; i += kernelRows {
			rows := min(kernelRows, hi-i)
			for r := range kernelRows {
				rowOff[r] = compactPoint(board, i+min(r, rows-1)) * cin
			}
			for p := range panels {
				kernelConv(act, cin, &rowOff, g, mw.packed[p*k*panelCols:(p+1)*k*panelCols], tmp[:], panelCols)
				j0 := p * panelCols
				width := min(panelCols, out-j0)
				for r := range rows {
					s, q := (i+r)/hw, (i+r)%hw
					base := (s*out+j0)*hw + q
					for j, v := range tmp[r*panelCols : r*panelCols+width] {
						dst[base+j*hw] = v
					}
				}
			}
		}
	})
}
