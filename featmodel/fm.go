package featmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// factorMachine is the second-order factorization machine shared by LFR and
// FBT: a move's score is the sum of its features' weights plus the inner
// products of the latent factor vectors of every pair of its features,
//
//	y(c) = Σ_{f∈c} w_f + Σ_{f<g ∈ c} <v_f, v_g>
//	     = Σ_{f∈c} w_f + ½ (‖Σ_{f∈c} v_f‖² − Σ_{f∈c} ‖v_f‖²),
//
// computed in O(|c|·k) by the second form. Ids outside [0, n) are skipped.
type factorMachine struct {
	n, k int
	w    []float64 // n weights
	v    []float64 // n×k factors, feature-major: v_f = v[f*k:(f+1)*k]
}

func newFactorMachine(n, k int, initStd float64, rng *rand.Rand) *factorMachine {
	m := &factorMachine{n: n, k: k, w: make([]float64, n), v: make([]float64, n*k)}
	for i := range m.v {
		m.v[i] = initStd * rng.NormFloat64()
	}
	return m
}

// startFactorMachine returns a copy of init (a warm start), or fresh
// factors when init is nil. A warm start must have the data's n features;
// its k replaces the configured one.
func startFactorMachine(init *factorMachine, n, k int, initStd float64, rng *rand.Rand) (*factorMachine, error) {
	if init == nil {
		return newFactorMachine(n, k, initStd, rng), nil
	}
	if init.n != n {
		return nil, fmt.Errorf("the initial model has %d features, the data %d: it was trained on another feature set", init.n, n)
	}
	return &factorMachine{n: init.n, k: init.k, w: append([]float64(nil), init.w...), v: append([]float64(nil), init.v...)}, nil
}

// row returns v_f.
func (m *factorMachine) row(f int32) []float64 {
	return m.v[int(f)*m.k : (int(f)+1)*m.k]
}

// score returns y(c) and leaves Σ_{f∈c} v_f in sum (length k), which the
// gradient needs: ∂y/∂w_f = 1 and ∂y/∂v_f = sum − v_f for f in c.
func (m *factorMachine) score(c Candidate, sum []float64) float64 {
	clear(sum)
	y, sq := 0.0, 0.0
	for _, f := range c {
		if f < 0 || int(f) >= m.n {
			continue
		}
		y += m.w[f]
		for j, x := range m.row(f) {
			sum[j] += x
			sq += x * x
		}
	}
	norm := 0.0
	for _, s := range sum {
		norm += s * s
	}
	return y + 0.5*(norm-sq)
}

// Score returns y(c); it is safe for concurrent use.
func (m *factorMachine) Score(c Candidate) float64 {
	var stack [64]float64
	sum := stack[:0]
	if m.k <= len(stack) {
		sum = stack[:m.k]
	} else {
		sum = make([]float64, m.k)
	}
	return m.score(c, sum)
}

// Interaction returns <v_f, v_g>, the learned pairwise term of features f and
// g (0 when either is unknown).
func (m *factorMachine) Interaction(f, g int32) float64 {
	if f < 0 || g < 0 || int(f) >= m.n || int(g) >= m.n {
		return 0
	}
	dot := 0.0
	rg := m.row(g)
	for j, x := range m.row(f) {
		dot += x * rg[j]
	}
	return dot
}

// Weight returns w_f (0 when f is unknown).
func (m *factorMachine) Weight(f int32) float64 {
	if f < 0 || int(f) >= m.n {
		return 0
	}
	return m.w[f]
}

// NumFeatures returns the number of feature ids the model has weights for.
func (m *factorMachine) NumFeatures() int { return m.n }

// Factors returns k, the length of the latent factor vectors.
func (m *factorMachine) Factors() int { return m.k }

// checkFinite reports the first non-finite parameter, the sign of a diverged
// SGD run.
func (m *factorMachine) checkFinite() error {
	for f, x := range m.w {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("weight of feature %d is %v", f, x)
		}
	}
	for i, x := range m.v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("factor %d of feature %d is %v", i%m.k, i/m.k, x)
		}
	}
	return nil
}

// fmStep accumulates the gradient of a loss over some candidates, then
// applies it in one step; parameters are read before any of them moves, so
// features shared by several candidates get their exact summed gradient.
// Regularisation is lazy: only features touched by the step are shrunk.
type fmStep struct {
	m       *factorMachine
	gw, gv  []float64 // gradient, dense, zero outside touched
	seen    []bool
	touched []int32

	lr, regW, regV float64
	adagrad        bool
	hw, hv         []float64 // Adagrad: sums of squared gradients
}

const adagradEpsilon = 1e-8

func newFMStep(m *factorMachine, lr, regW, regV float64, adagrad bool) *fmStep {
	st := &fmStep{
		m: m, gw: make([]float64, m.n), gv: make([]float64, m.n*m.k), seen: make([]bool, m.n),
		lr: lr, regW: regW, regV: regV, adagrad: adagrad,
	}
	if adagrad {
		st.hw = make([]float64, m.n)
		st.hv = make([]float64, m.n*m.k)
	}
	return st
}

// add accumulates coef·∂y(c)/∂θ, where coef is ∂loss/∂y(c) and sum is the
// Σ v_f that score left for c.
func (st *fmStep) add(c Candidate, sum []float64, coef float64) {
	m := st.m
	for _, f := range c {
		if f < 0 || int(f) >= m.n {
			continue
		}
		if !st.seen[f] {
			st.seen[f] = true
			st.touched = append(st.touched, f)
		}
		st.gw[f] += coef
		g := st.gv[int(f)*m.k : (int(f)+1)*m.k]
		for j, x := range m.row(f) {
			g[j] += coef * (sum[j] - x)
		}
	}
}

// apply moves every touched parameter against its gradient plus L2 term and
// resets the accumulator.
func (st *fmStep) apply() {
	m := st.m
	for _, f := range st.touched {
		g := st.gw[f] + st.regW*m.w[f]
		m.w[f] -= st.rate(g, st.hw, int(f))
		st.gw[f] = 0
		st.seen[f] = false
		base := int(f) * m.k
		for j := base; j < base+m.k; j++ {
			g := st.gv[j] + st.regV*m.v[j]
			m.v[j] -= st.rate(g, st.hv, j)
			st.gv[j] = 0
		}
	}
	st.touched = st.touched[:0]
}

// rate returns the step for gradient g of parameter i: lr·g for SGD,
// lr·g/√(Σg²) for Adagrad.
func (st *fmStep) rate(g float64, hist []float64, i int) float64 {
	if !st.adagrad {
		return st.lr * g
	}
	hist[i] += g * g
	return st.lr * g / (math.Sqrt(hist[i]) + adagradEpsilon)
}

// maxFactors bounds k: far beyond what move prediction uses, it keeps a
// corrupt file or config from asking for absurd allocations.
const maxFactors = 1024

// newFactorMachineFrom copies w and v into a factor machine, checking their
// shapes and that every value is finite.
func newFactorMachineFrom(w, v []float64, k int) (*factorMachine, error) {
	if k < 1 || k > maxFactors {
		return nil, fmt.Errorf("factors %d: want 1..%d", k, maxFactors)
	}
	if len(w) > MaxFeatures {
		return nil, fmt.Errorf("%d features: above the limit %d", len(w), MaxFeatures)
	}
	if len(v) != len(w)*k {
		return nil, fmt.Errorf("%d factor values for %d features and k=%d, want %d", len(v), len(w), k, len(w)*k)
	}
	m := &factorMachine{n: len(w), k: k, w: append([]float64(nil), w...), v: append([]float64(nil), v...)}
	if err := m.checkFinite(); err != nil {
		return nil, err
	}
	return m, nil
}
