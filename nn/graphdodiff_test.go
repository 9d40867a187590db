package nn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// lispGrads builds L = Σ r·f(inputs) on a new graph, runs gorgonia's
// LispMachine (forward, then DoDiff of every op backwards) and returns the
// gradients of the inputs.
func lispGrads(t *testing.T, f func(in G.Nodes) (*G.Node, error), r []float32, rShape []int, inputs [][]float32, shapes [][]int) [][]float32 {
	t.Helper()
	g := G.NewGraph()
	node := func(name string, data []float32, shape []int) *G.Node {
		d := append([]float32(nil), data...)
		return G.NewTensor(g, tensor.Float32, len(shape), G.WithName(name), G.WithShape(shape...),
			G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))))
	}
	var in G.Nodes
	for i, v := range inputs {
		in = append(in, node(fmt.Sprint("in", i), v, shapes[i]))
	}
	y, err := f(in)
	if err != nil {
		t.Fatal(err)
	}
	G.Must(G.Sum(G.Must(G.HadamardProd(y, node("r", r, rShape)))))
	m := G.NewLispMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	var out [][]float32
	for _, n := range in {
		gv, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append([]float32(nil), gv.Data().([]float32)...))
	}
	return out
}

// TestOpsDoDiffMatchSymDiff: the gradients the LispMachine gets from the
// ops' DoDiff equal those the tape machine gets from their SymDiff (which
// the other tests check against gorgonia's ops and the definitions).
func TestOpsDoDiffMatchSymDiff(t *testing.T) {
	installGraphBLAS()
	for i, s := range convCases {
		t.Run(fmt.Sprint("conv", s), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 17))
			x, w, r := randFloats(size(s.xShape()), rng), randFloats(size(s.wShape()), rng), randFloats(size(s.yShape()), rng)
			want := runConvGraph(t, s, x, w, r, true)
			got := lispGrads(t, func(in G.Nodes) (*G.Node, error) { return newConv(in[0], in[1], false) },
				r, s.yShape(), [][]float32{x, w}, [][]int{s.xShape(), s.wShape()})
			for j, c := range [][2][]float32{{got[0], want.dx}, {got[1], want.dw}} {
				if d, tol := maxAbsDiff(c[0], c[1]), 1e-5*max(1, rms(c[1])); d > tol {
					t.Errorf("gradient %d: DoDiff and SymDiff differ by %g", j, d)
				}
			}
		})
	}
	for i, c := range bnCases {
		t.Run(fmt.Sprint("bn", c), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 19))
			x, gamma, beta, res, r, mean, variance := bnInputs(c, rng)
			want := runBNGraph(t, c, x, gamma, beta, res, r, mean, variance, true, true)
			vals := [][]float32{x, gamma, beta}
			shapes := [][]int{c.xShape(), {1, c.channels, 1, 1}, {1, c.channels, 1, 1}}
			if c.residual {
				vals, shapes = append(vals, res), append(shapes, c.xShape())
			}
			got := lispGrads(t, func(in G.Nodes) (*G.Node, error) {
				var rn *G.Node
				if c.residual {
					rn = in[3]
				}
				y, _, err := newBN(in[0], in[1], in[2], rn, 0.1, c.relu)
				return y, err
			}, r, c.xShape(), vals, shapes)
			wants := [][]float32{want.dx, want.dgamma, want.dbeta, want.dres}
			for j := range got {
				if d, tol := maxAbsDiff(got[j], wants[j]), 1e-5*max(1, rms(wants[j])); d > tol {
					t.Errorf("gradient %d: DoDiff and SymDiff differ by %g", j, d)
				}
			}
		})
	}
}
