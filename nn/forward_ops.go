package nn

import "math"

// conv computes dst = W·x for the n samples of channel-major x (l.in ×
// n·N²), into dst (l.out × n·N²), bias not added. A k×k layer (k > 1)
// unrolls x into col first (im2col, zero padding of k/2).
func (e *Evaluator) conv(l *convLayer, x, dst, col []float32, n int) {
	cols := n * e.cfg.Points()
	if l.k == 1 {
		sgemm(l.out, cols, l.in, l.w, l.in, x, cols, dst, cols)
		return
	}
	kk := l.in * l.k * l.k
	im2col(x, col[:kk*cols], l.in, l.k, e.cfg.Board, n)
	sgemm(l.out, cols, kk, l.w, kk, col, cols, dst, cols)
}

// im2col writes, for every input channel ci and kernel offset (ky, kx), the
// row ci·k·k + ky·k + kx of col: the input shifted by (ky−k/2, kx−k/2),
// zero outside the board, for all n samples side by side.
func im2col(x, col []float32, channels, k, size, n int) {
	hw := size * size
	cols := n * hw
	pad := k / 2
	r := 0
	for ci := 0; ci < channels; ci++ {
		src := x[ci*cols : (ci+1)*cols]
		for ky := 0; ky < k; ky++ {
			for kx := 0; kx < k; kx++ {
				dst := col[r*cols : (r+1)*cols]
				r++
				dy, dx := ky-pad, kx-pad
				// Columns x with 0 <= x+dx < size read the input.
				x0, x1 := max(0, -dx), min(size, size-dx)
				for s := 0; s < n; s++ {
					base := s * hw
					for y := 0; y < size; y++ {
						row := dst[base+y*size : base+(y+1)*size]
						sy := y + dy
						if sy < 0 || sy >= size {
							clear(row)
							continue
						}
						clear(row[:x0])
						copy(row[x0:x1], src[base+sy*size+x0+dx:base+sy*size+x1+dx])
						clear(row[x1:])
					}
				}
			}
		}
	}
}

// reluBias sets act[c][j] = max(0, act[c][j] + bias[c] + res[c][j]) for a
// channel-major act of cols columns per channel; res may be nil.
func reluBias(act, bias []float32, cols int, res []float32) {
	for c, b := range bias {
		a := act[c*cols : (c+1)*cols]
		if res != nil {
			r := res[c*cols : (c+1)*cols]
			for j := range a {
				a[j] += b + r[j]
				if a[j] < 0 {
					a[j] = 0
				}
			}
			continue
		}
		for j := range a {
			a[j] += b
			if a[j] < 0 {
				a[j] = 0
			}
		}
	}
}

// fc computes out = rows·W + b for n rows of l.in floats.
func fc(l *fcLayer, rows []float32, n int, out []float32) {
	out = out[:n*l.out]
	sgemm(n, l.out, l.in, rows, l.in, l.w, l.out, out, l.out)
	for i := 0; i < n; i++ {
		o := out[i*l.out : (i+1)*l.out]
		for j, b := range l.b {
			o[j] += b
		}
	}
}

// policyHead writes the n samples' move probabilities into policy.
func (e *Evaluator) policyHead(s *scratch, x []float32, n int, policy []float32) {
	hw := e.cfg.Points()
	cols := n * hw
	l := &e.policyConv
	e.conv(l, x, s.head, nil, n)
	reluBias(s.head[:l.out*cols], l.b, cols, nil)
	// Gather each sample's channels into one row, as the graph's reshape
	// of (B, C, N, N) to (B, C·N²) does.
	rows := s.rows[:n*l.out*hw]
	for b := 0; b < n; b++ {
		for c := 0; c < l.out; c++ {
			copy(rows[(b*l.out+c)*hw:(b*l.out+c+1)*hw], s.head[c*cols+b*hw:])
		}
	}
	fc(&e.policyFC, rows, n, policy)
	p := e.policyFC.out
	for b := 0; b < n; b++ {
		softmax(policy[b*p : (b+1)*p])
	}
}

// valueHeads writes the n samples' values and d-win probabilities.
func (e *Evaluator) valueHeads(s *scratch, x []float32, n int, value, dwin []float32) {
	hw := e.cfg.Points()
	cols := n * hw
	l := &e.valueConv
	e.conv(l, x, s.head, nil, n)
	reluBias(s.head[:cols], l.b, cols, nil)
	// One channel: the conv output is already one row per sample.
	h := s.hidden[:n*e.valueFC1.out]
	fc(&e.valueFC1, s.head[:cols], n, h)
	for i, v := range h {
		if v < 0 {
			h[i] = 0
		}
	}
	out := s.out[:n]
	fc(&e.valueFC2, h, n, out)
	for i, v := range out {
		value[i] = float32(math.Tanh(float64(v)))
	}
	fc(&e.dwinFC, h, n, dwin)
	for i, v := range dwin {
		dwin[i] = sigmoid(v)
	}
}

// softmax turns logits into probabilities in place.
func softmax(v []float32) {
	m := v[0]
	for _, x := range v {
		m = max(m, x)
	}
	var sum float64
	for i, x := range v {
		ex := math.Exp(float64(x - m))
		v[i] = float32(ex)
		sum += ex
	}
	inv := float32(1 / sum)
	for i := range v {
		v[i] *= inv
	}
}

func sigmoid(x float32) float32 {
	return float32(1 / (1 + math.Exp(-float64(x))))
}
