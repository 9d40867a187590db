package nn

// The one-hot move-number planes (7x7 nets: 99 of the 108 input planes) are
// constant over the board, so their share of the stem convolution is, at
// each point, a sum of weights that depends only on the move number and the
// point: moveStem tabulates it once, and the stem then convolves only the
// NumFixedPlanes other planes. For 3x32 on 7x7 that is about a third of the
// network's multiply-adds. Inputs whose move planes are not constant over
// the board (never from Config.Encode) take the full stem.

// moveStem is the stem without its move-number planes, and their table.
type moveStem struct {
	conv  convLayer // the stem over the first NumFixedPlanes planes
	geom  *tapGeom
	table []float32 // [move plane][point][filter]
}

// newMoveStem splits the folded stem st; nil when there are no move
// planes.
func newMoveStem(cfg Config, st *convLayer) *moveStem {
	moves := cfg.MoveNumberPlanes
	if moves == 0 {
		return nil
	}
	fixed, k, out, n := NumFixedPlanes, st.k, st.out, cfg.Board
	row := st.in * k * k
	ms := &moveStem{geom: newTapGeom(k, n+2, fixed), table: make([]float32, moves*n*n*out)}
	c := convLayer{out: out, in: fixed, k: k, w: make([]float32, out*fixed*k*k), b: st.b}
	for o := range out {
		for t := range k * k {
			copy(c.w[o*fixed*k*k+t*fixed:][:fixed], st.w[o*row+t*st.in:][:fixed])
		}
	}
	c.mw = newMatB(c.w, out, fixed*k*k)
	ms.conv = c
	for m := range moves {
		for y := range n {
			for x := range n {
				dst := ms.table[((m*n+y)*n+x)*out:][:out]
				for ky := range k {
					for kx := range k {
						sy, sx := y+ky-k/2, x+kx-k/2
						if sy < 0 || sy >= n || sx < 0 || sx >= n {
							continue // the zero border
						}
						for o := range dst {
							dst[o] += st.w[o*row+(ky*k+kx)*st.in+fixed+m]
						}
					}
				}
			}
		}
	}
	return ms
}

// moveIndex returns the move plane set in the encoded position x (its
// planes all ones, every other move plane all zeros), or -1 if the move
// planes are not of that form.
func (e *Evaluator) moveIndex(x []float32) int {
	hw := e.cfg.Points()
	found := -1
	for m := range e.cfg.MoveNumberPlanes {
		p := x[(NumFixedPlanes+m)*hw:][:hw]
		v := p[0]
		if v != 0 && v != 1 {
			return -1
		}
		for _, u := range p[1:] {
			if u != v {
				return -1
			}
		}
		if v == 1 {
			if found >= 0 {
				return -1
			}
			found = m
		}
	}
	return found
}

// stemEpilogue sets the interior of padded x to max(0, d + b + the move
// planes' term) for the dense stem output d of the n samples whose move
// planes are moves[s].
func (e *Evaluator) stemEpilogue(d []float32, moves []int, x []float32, n int) {
	ms := e.moveStem
	f, hw := ms.conv.out, e.cfg.Points()
	for s := range n {
		for i := range hw {
			p := s*hw + i
			src := d[p*f : (p+1)*f]
			term := ms.table[(moves[s]*hw+i)*f:][:f]
			dst := x[e.paddedPoint(p)*f:][:f]
			for j, v := range src {
				dst[j] = max(0, v+ms.conv.b[j]+term[j])
			}
		}
	}
}
