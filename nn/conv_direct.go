package nn

import "fmt"

// The Evaluator keeps activations position-major (NHWC) with a zero border:
// sample s's point (y, x) is padded point s·W² + (y+1)·W + (x+1), W = N+2.
// A k×k convolution then reads neighbour (dy, dx) of any point at a fixed
// offset, with no bounds checks and no im2col: the direct kernel
// (kern6x16conv) takes one A row per output point and one offset per tap.

// tapGeom is the offsets of a k×k kernel's taps in the padded layout, for
// activations of one channel count.
type tapGeom struct {
	off      []int // floats: ((ky−k/2)·W + (kx−k/2))·channels, tap ky·k+kx
	offBytes []int // the same in bytes, for the assembly
	lo, hi   int   // the least and greatest offset
}

func newTapGeom(k, width, channels int) *tapGeom {
	g := &tapGeom{}
	for ky := range k {
		for kx := range k {
			o := ((ky-k/2)*width + (kx - k/2)) * channels
			g.off = append(g.off, o)
			g.offBytes = append(g.offBytes, 4*o)
			g.lo, g.hi = min(g.lo, o), max(g.hi, o)
		}
	}
	return g
}

// check panics if a row would read outside act: the layout guarantees it
// cannot, and the assembly must not be handed a bad offset.
func (g *tapGeom) check(act []float32, cin int, rowOff *[kernelRows]int) {
	for _, o := range rowOff {
		if o+g.lo < 0 || o+g.hi+cin > len(act) {
			panic(fmt.Sprintf("nn: conv row at %d reads outside %d activations", o, len(act)))
		}
	}
}

// kernelConvGo is the portable direct-convolution kernel (and the
// reference for the assembly).
func kernelConvGo(act []float32, cin int, rowOff *[kernelRows]int, g *tapGeom, b []float32, c []float32, ldc int) {
	for r, ro := range rowOff {
		var acc [panelCols]float32
		kk := 0
		for _, to := range g.off {
			for _, v := range act[ro+to : ro+to+cin] {
				row := b[kk*panelCols : (kk+1)*panelCols]
				for j := range acc {
					acc[j] += v * row[j]
				}
				kk++
			}
		}
		copy(c[r*ldc:r*ldc+panelCols], acc[:])
	}
}

// paddedPoint returns the padded point of dense point p (= s·N² + y·N + x).
func (e *Evaluator) paddedPoint(p int) int { return paddedPoint(e.cfg.Board, p) }

// paddedPoint returns the padded point of dense point p (= s·N² + y·N + x)
// on an N×N board (N = board).
func paddedPoint(board, p int) int {
	n := board
	w := n + 2
	s, i := p/(n*n), p%(n*n)
	return s*w*w + (i/n+1)*w + i%n + 1
}

// convDirect computes dst = conv(act) for the n samples of padded act
// (l.in channels) into dense dst (n·N² × l.out), bias not added.
func (e *Evaluator) convDirect(l *convLayer, g *tapGeom, act, dst []float32, n int) {
	directConv(e.cfg.Board, &l.mw, l.in, g, act, dst, n)
}

// directConv computes dst = conv(act) for the n samples of padded act (cin
// channels, taps at g's offsets) on an N×N board into dense dst
// (n·N² × mw.n), with the packed weights of mw (mw.n outputs, mw.k =
// taps·cin, column (tap, channel)); the rows are split between the cores.
func directConv(board int, mw *matB, cin int, g *tapGeom, act, dst []float32, n int) {
	cols := n * board * board
	k, out := mw.k, mw.n
	panels := (out + panelCols - 1) / panelCols
	flops := 2 * cols * out * k
	splitRows(cols, flops, func(lo, hi int) {
		var (
			rowOff [kernelRows]int
			tmp    [kernelRows * panelCols]float32
		)
		for i := lo; i < hi; i += kernelRows {
			rows := min(kernelRows, hi-i)
			for r := range kernelRows {
				rowOff[r] = paddedPoint(board, i+min(r, rows-1)) * cin
			}
			for p := range panels {
				bp := mw.packed[p*k*panelCols : (p+1)*k*panelCols]
				j0 := p * panelCols
				if rows == kernelRows && j0+panelCols <= out {
					kernelConv(act, cin, &rowOff, g, bp, dst[i*out+j0:], out)
					continue
				}
				kernelConv(act, cin, &rowOff, g, bp, tmp[:], panelCols)
				for r := range rows {
					copy(dst[(i+r)*out+j0:(i+r)*out+min(out, j0+panelCols)], tmp[r*panelCols:])
				}
			}
		}
	})
}

// im2colPadded writes, for every point, the row of its k×k neighbourhood
// read from padded act: the im2col of the builds without the direct
// kernel.
func (e *Evaluator) im2colPadded(g *tapGeom, act, col []float32, channels, n int) {
	cols := n * e.cfg.Points()
	kk := len(g.off) * channels
	for p := range cols {
		base := e.paddedPoint(p) * channels
		row := col[p*kk : (p+1)*kk]
		for t, o := range g.off {
			copy(row[t*channels:(t+1)*channels], act[base+o:base+o+channels])
		}
	}
}

// convFused computes out = max(0, conv(x) + b (+ out when residual)) for
// the n samples of padded x into the interior of padded out: the tower's
// layers with their epilogue in the kernel, when the assembly exists.
func (e *Evaluator) convFused(l *convLayer, g *tapGeom, x, out []float32, residual bool, n int) {
	cols := n * e.cfg.Points()
	k := l.mw.k
	panels := (l.out + panelCols - 1) / panelCols
	splitRows(cols, 2*cols*l.out*k, func(lo, hi int) {
		var (
			rowOff, cRowOff [kernelRows]int
			tmp             [kernelRows * panelCols]float32
		)
		for i := lo; i < hi; i += kernelRows {
			rows := min(kernelRows, hi-i)
			for r := range kernelRows {
				pp := e.paddedPoint(i + min(r, rows-1))
				rowOff[r], cRowOff[r] = pp*l.in, pp*l.out
			}
			for p := range panels {
				bp := l.mw.packed[p*k*panelCols : (p+1)*k*panelCols]
				j0 := p * panelCols
				if rows == kernelRows && j0+panelCols <= l.out {
					kernelConvBR(x, l.in, &rowOff, g, bp, out[j0:], &cRowOff, l.b[j0:j0+panelCols], residual)
					continue
				}
				// A partial block: the kernel into tmp, the epilogue here,
				// in the same order of operations.
				kernelConv(x, l.in, &rowOff, g, bp, tmp[:], panelCols)
				for r := range rows {
					cols := min(l.out, j0+panelCols) - j0
					dst := out[cRowOff[r]+j0:][:cols]
					for j, v := range tmp[r*panelCols : r*panelCols+cols] {
						if residual {
							dst[j] = max(0, v+l.b[j0+j]+dst[j])
						} else {
							dst[j] = max(0, v+l.b[j0+j])
						}
					}
				}
			}
		}
	})
}
