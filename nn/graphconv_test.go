package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// convCases are the convolution geometry the tests run the ops on: odd
// channel counts and partial 16-column panels included.
var convCases = []convShape{
	{board: 5, batch: 3, cin: 7, cout: 20, k: 3},
	{board: 7, batch: 2, cin: 16, cout: 16, k: 3},
	{board: 7, batch: 1, cin: 5, cout: 3, k: 1},
	{board: 4, batch: 2, cin: 13, cout: 33, k: 3},
	{board: 9, batch: 4, cin: 32, cout: 1, k: 1},
}

// convGraphResult is what one graph computes: y = conv(x, w) and the
// gradients of L = Σ r·y.
type convGraphResult struct{ y, dx, dw []float32 }

// runConvGraph builds L = Σ r·conv(x, w) with G.Conv2d (gorgonia's
// im2col, product and transpose) or with convOp, and returns y and the
// gradients by G.Grad on a tape machine.
func runConvGraph(t *testing.T, s convShape, x, w, r []float32, ours bool) convGraphResult {
	t.Helper()
	g := G.NewGraph()
	node := func(name string, data []float32, shape []int) *G.Node {
		d := append([]float32(nil), data...)
		return G.NewTensor(g, tensor.Float32, 4, G.WithName(name), G.WithShape(shape...),
			G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))))
	}
	xn, wn, rn := node("x", x, s.xShape()), node("w", w, s.wShape()), node("r", r, s.yShape())
	var (
		y   *G.Node
		err error
	)
	if ours {
		y, err = newConv(xn, wn, false)
	} else {
		p := s.k / 2
		y, err = G.Conv2d(xn, wn, tensor.Shape{s.k, s.k}, []int{p, p}, []int{1, 1}, []int{1, 1})
	}
	if err != nil {
		t.Fatal(err)
	}
	loss := G.Must(G.Sum(G.Must(G.HadamardProd(y, rn))))
	if _, err := G.Grad(loss, xn, wn); err != nil {
		t.Fatal(err)
	}
	var yv G.Value
	G.Read(y, &yv)
	vm := G.NewTapeMachine(g, G.BindDualValues(xn, wn))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	grad := func(n *G.Node) []float32 {
		gv, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		return append([]float32(nil), gv.Data().([]float32)...)
	}
	return convGraphResult{y: append([]float32(nil), yv.Data().([]float32)...), dx: grad(xn), dw: grad(wn)}
}

func rms(v []float32) float64 {
	var s float64
	for _, f := range v {
		s += float64(f) * float64(f)
	}
	return math.Sqrt(s / float64(len(v)))
}

func maxAbsDiff(a, b []float32) float64 {
	var m float64
	for i := range a {
		m = max(m, math.Abs(float64(a[i]-b[i])))
	}
	return m
}

// TestConvOpsMatchConv2d: the custom ops' output and both gradients equal
// those of gorgonia's own Conv2d and its differentiation.
func TestConvOpsMatchConv2d(t *testing.T) {
	installGraphBLAS()
	// The last case is large enough for every product to split between
	// goroutines.
	for i, s := range append(convCases, convShape{board: 9, batch: 16, cin: 64, cout: 64, k: 3}) {
		t.Run(fmt.Sprint(s), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			x := randFloats(size(s.xShape()), rng)
			w := randFloats(size(s.wShape()), rng)
			r := randFloats(size(s.yShape()), rng)
			want := runConvGraph(t, s, x, w, r, false)
			got := runConvGraph(t, s, x, w, r, true)
			for _, c := range []struct {
				name      string
				got, want []float32
			}{{"y", got.y, want.y}, {"dx", got.dx, want.dx}, {"dw", got.dw, want.dw}} {
				if len(c.got) != len(c.want) {
					t.Fatalf("%s: %d floats, gorgonia gives %d", c.name, len(c.got), len(c.want))
				}
				// Sums of hundreds of float32 products: 1e-5 of their
				// scale is rounding, not an error.
				if d, tol := maxAbsDiff(c.got, c.want), 1e-5*max(1, rms(c.want)); d > tol {
					t.Errorf("%s differs from gorgonia's by %g (tolerance %g)", c.name, d, tol)
				}
			}
		})
	}
}

// conv64 is the definition in float64: y[s][o][yy][xx] = Σ w[o][c][ky][kx]·
// x[s][c][yy+ky−k/2][xx+kx−k/2], zero outside the board.
func conv64(s convShape, x, w []float64) []float64 {
	n, h := s.board, s.k/2
	y := make([]float64, size(s.yShape()))
	for b := range s.batch {
		for o := range s.cout {
			for yy := range n {
				for xx := range n {
					var sum float64
					for c := range s.cin {
						for ky := range s.k {
							for kx := range s.k {
								sy, sx := yy+ky-h, xx+kx-h
								if sy < 0 || sy >= n || sx < 0 || sx >= n {
									continue
								}
								sum += w[((o*s.cin+c)*s.k+ky)*s.k+kx] * x[((b*s.cin+c)*n+sy)*n+sx]
							}
						}
					}
					y[((b*s.cout+o)*n+yy)*n+xx] = sum
				}
			}
		}
	}
	return y
}

func to64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, f := range v {
		out[i] = float64(f)
	}
	return out
}

// TestConvOpsNumericGradient checks the ops against the float64
// definition: the output directly, and the gradients of L = Σ r·y against
// central differences of L at random coordinates.
func TestConvOpsNumericGradient(t *testing.T) {
	installGraphBLAS()
	for i, s := range convCases {
		t.Run(fmt.Sprint(s), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 9))
			x := randFloats(size(s.xShape()), rng)
			w := randFloats(size(s.wShape()), rng)
			r := randFloats(size(s.yShape()), rng)
			got := runConvGraph(t, s, x, w, r, true)
			x64, w64, r64 := to64(x), to64(w), to64(r)
			if d := maxAbsDiff(got.y, toF32(conv64(s, x64, w64))); d > 1e-4 {
				t.Errorf("y differs from the float64 definition by %g", d)
			}
			loss := func() float64 {
				var l float64
				for j, v := range conv64(s, x64, w64) {
					l += r64[j] * v
				}
				return l
			}
			const h = 1e-3
			check := func(name string, v []float64, grad []float32) {
				checkNumericGradient(t, rng, name, v, grad, loss, h, 1e-3, 12)
			}
			check("x", x64, got.dx)
			check("w", w64, got.dw)
		})
	}
}

func toF32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, f := range v {
		out[i] = float32(f)
	}
	return out
}

// TestConvOpRejectsBadShapes: shapes the ops do not support are errors at
// graph build, not panics at run time.
func TestConvOpRejectsBadShapes(t *testing.T) {
	g := G.NewGraph()
	for _, tt := range []struct {
		name string
		x, w []int
	}{
		{"5x5 kernel", []int{1, 2, 5, 5}, []int{3, 2, 5, 5}},
		{"channels differ", []int{1, 2, 5, 5}, []int{3, 4, 3, 3}},
		{"not square", []int{1, 2, 5, 6}, []int{3, 2, 3, 3}},
	} {
		x := G.NewTensor(g, tensor.Float32, 4, G.WithShape(tt.x...), G.WithName("x"+tt.name))
		w := G.NewTensor(g, tensor.Float32, 4, G.WithShape(tt.w...), G.WithName("w"+tt.name))
		if _, err := newConv(x, w, false); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

// TestTrainingIsDeterministic: two trainers given the same batches end
// with the same weights to the bit, although the ops split their work
// between goroutines in whatever order the scheduler runs them (a resumed
// training run must repeat an uninterrupted one). The net is large enough
// for every product and batch norm to split.
func TestTrainingIsDeterministic(t *testing.T) {
	c := Config{Board: 7, Blocks: 1, Filters: 32, D: 8, ValueHidden: 16}
	rng := rand.New(rand.NewPCG(5, 5))
	batches := []Batch{randomBatch(c, 48, rng), randomBatch(c, 48, rng)}
	var weights [2]*Weights
	for i := range weights {
		tr, err := NewTrainer(c, DefaultTrainOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range batches {
			if _, err := tr.Step(b); err != nil {
				t.Fatal(err)
			}
		}
		weights[i] = tr.Weights()
	}
	for _, name := range weights[0].Names() {
		a, b := weights[0].data(name), weights[1].data(name)
		for j := range a {
			if math.Float32bits(a[j]) != math.Float32bits(b[j]) {
				t.Fatalf("%s[%d]: %v in one run, %v in the other", name, j, a[j], b[j])
			}
		}
	}
}
