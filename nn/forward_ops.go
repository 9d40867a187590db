package nn

import "math"

// conv computes dst = x·Wᵀ for the n samples of padded x (l.in
// channels, taps at g's offsets) into dense dst (n·N² × l.out), bias not
// added: on the direct kernel, or as im2col + SGEMM (col is its buffer).
func (e *Evaluator) conv(l *convLayer, g *tapGeom, x, dst, col []float32, n int) {
	if e.direct {
		e.convDirect(l, g, x, dst, n)
		return
	}
	cols := n * e.cfg.Points()
	kk := l.in * l.k * l.k
	col = col[:kk*cols]
	e.im2colPadded(g, x, col, l.in, n)
	l.mw.mulNT(cols, col, kk, dst, l.out)
}

// unpad sets the interior of padded act to max(0, d + bias), plus act
// itself when residual, for the dense conv output d (n·N² × len(bias)).
func (e *Evaluator) unpad(d, bias, act []float32, residual bool, n int) {
	c := len(bias)
	for p := range n * e.cfg.Points() {
		src := d[p*c : (p+1)*c]
		dst := act[e.paddedPoint(p)*c:][:c]
		if residual {
			for j, v := range src {
				dst[j] = max(0, v+bias[j]+dst[j])
			}
			continue
		}
		for j, v := range src {
			dst[j] = max(0, v+bias[j])
		}
	}
}

// reluBias sets act[p][c] = max(0, act[p][c] + bias[c]) for dense
// position-major act.
func reluBias(act, bias []float32) {
	c := len(bias)
	for p := 0; p+c <= len(act); p += c {
		a := act[p : p+c]
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
	e.conv(l, e.geom1, x, head, s.col, n)
	reluBias(head, l.b)
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
	e.conv(l, e.geom1, x, head, s.col, n)
	reluBias(head, l.b)
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
