package nn

import "math"

// conv computes dst = x·Wᵀ for the n samples of position-major x (n·N² ×
// l.in), into dst (n·N² × l.out), bias not added. A k×k layer (k > 1)
// unrolls x into col first (im2col, zero padding of k/2).
//
// The product is taken as (positions × inputs)·(outputs × inputs)ᵀ: gonum's
// SGEMM then works with long dot products, about three times faster at
// batch 1 than the channel-major W·col form.
func (e *Evaluator) conv(l *convLayer, x, dst, col []float32, n int) {
	cols := n * e.cfg.Points()
	if l.k == 1 {
		l.mw.mulNT(cols, x, l.in, dst, l.out)
		return
	}
	kk := l.in * l.k * l.k
	im2col(x, col[:kk*cols], l.in, l.k, e.cfg.Board, n)
	l.mw.mulNT(cols, col, kk, dst, l.out)
}

// im2col writes, for every position, the row of its k×k neighbourhood:
// (ky·k + kx)·channels + ci holds channel ci of the point shifted by
// (kx−k/2, ky−k/2), zero off the board.
func im2col(x, col []float32, channels, k, size, n int) {
	hw := size * size
	kk := k * k * channels
	pad := k / 2
	for s := 0; s < n; s++ {
		for y := 0; y < size; y++ {
			for xx := 0; xx < size; xx++ {
				pos := s*hw + y*size + xx
				row := col[pos*kk : (pos+1)*kk]
				for ky := 0; ky < k; ky++ {
					sy := y + ky - pad
					seg := row[ky*k*channels : (ky+1)*k*channels]
					if sy < 0 || sy >= size {
						clear(seg)
						continue
					}
					for kx := 0; kx < k; kx++ {
						sx := xx + kx - pad
						dst := seg[kx*channels : (kx+1)*channels]
						if sx < 0 || sx >= size {
							clear(dst)
							continue
						}
						src := (s*hw + sy*size + sx) * channels
						copy(dst, x[src:src+channels])
					}
				}
			}
		}
	}
}

// reluBias sets act[p][c] = max(0, act[p][c] + bias[c] + res[p][c]) for
// position-major act; res may be nil.
func reluBias(act, bias []float32, res []float32) {
	c := len(bias)
	for p := 0; p+c <= len(act); p += c {
		a := act[p : p+c]
		if res != nil {
			r := res[p : p+c]
			for j := range a {
				a[j] = max(0, a[j]+bias[j]+r[j])
			}
			continue
		}
		for j := range a {
			a[j] = max(0, a[j]+bias[j])
		}
	}
}

// fc computes out = rows·W + b for n rows of l.in floats.
func fc(l *fcLayer, rows []float32, n int, out []float32) {
	out = out[:n*l.out]
	l.mw.mulNT(n, rows, l.in, out, l.out)
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
	head := s.head[:cols*l.out]
	e.conv(l, x, head, nil, n)
	reluBias(head, l.b, nil)
	// Gather each sample's channels into one row, channel-major, as the
	// graph's reshape of (B, C, N, N) to (B, C·N²) does.
	rows := s.rows[:n*l.out*hw]
	for b := 0; b < n; b++ {
		for i := 0; i < hw; i++ {
			for c := 0; c < l.out; c++ {
				rows[(b*l.out+c)*hw+i] = head[(b*hw+i)*l.out+c]
			}
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
	cols := n * e.cfg.Points()
	l := &e.valueConv
	// One channel: the conv output is already one row per sample.
	head := s.head[:cols]
	e.conv(l, x, head, nil, n)
	reluBias(head, l.b, nil)
	h := s.hidden[:n*e.valueFC1.out]
	fc(&e.valueFC1, head, n, h)
	for i, v := range h {
		h[i] = max(0, v)
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
