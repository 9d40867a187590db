package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// bnCase is one batch-norm geometry: x is (batch, channels, n, n).
// With residual, a residual input r is added before the ReLU (if any).
type bnCase struct {
	batch, channels, n int
	relu, residual     bool
}

var bnCases = []bnCase{
	{batch: 4, channels: 3, n: 5},
	{batch: 3, channels: 5, n: 7, relu: true},
	{batch: 64, channels: 8, n: 7, relu: true}, // large enough to split between goroutines
	{batch: 2, channels: 2, n: 1},
	{batch: 3, channels: 4, n: 5, relu: true, residual: true},
	{batch: 64, channels: 8, n: 7, relu: true, residual: true},
	{batch: 2, channels: 3, n: 3, residual: true},
}

func (c bnCase) xShape() []int { return []int{c.batch, c.channels, c.n, c.n} }

// bnResult is what one graph computes: y, the gradients of L = Σ r·y and
// the running statistics after the run.
type bnResult struct{ y, dx, dgamma, dbeta, dres, mean, variance []float32 }

// runBNGraph runs y = relu?(batchnorm(x)·γ + β (+ res)) with gorgonia's
// BatchNorm (and Add, Rectify) or with bnOp, in training mode with
// gradients, or in evaluation mode from the given running statistics.
func runBNGraph(t *testing.T, c bnCase, x, gamma, beta, res, r, mean, variance []float32, ours, train bool) bnResult {
	t.Helper()
	g := G.NewGraph()
	node := func(name string, data []float32, shape ...int) *G.Node {
		d := append([]float32(nil), data...)
		return G.NewTensor(g, tensor.Float32, len(shape), G.WithName(name), G.WithShape(shape...),
			G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))))
	}
	xn := node("x", x, c.xShape()...)
	gn := node("gamma", gamma, 1, c.channels, 1, 1)
	bn := node("beta", beta, 1, c.channels, 1, 1)
	rn := node("r", r, c.xShape()...)
	var resn *G.Node
	wrt := G.Nodes{xn, gn, bn}
	if c.residual {
		resn = node("res", res, c.xShape()...)
		wrt = append(wrt, resn)
	}
	var (
		y     *G.Node
		stats bnStats
		err   error
	)
	if ours {
		y, stats, err = newBN(xn, gn, bn, resn, 0.1, c.relu)
	} else {
		var op *G.BatchNormOp
		y, _, _, op, err = G.BatchNorm(xn, gn, bn, 0.1, bnEpsilon)
		if err == nil && c.residual {
			y, err = G.Add(y, resn)
		}
		if err == nil && c.relu {
			y, err = G.Rectify(y)
		}
		stats = op
	}
	if err != nil {
		t.Fatal(err)
	}
	var opts []G.VMOpt
	if train {
		loss := G.Must(G.Sum(G.Must(G.HadamardProd(y, rn))))
		if _, err := G.Grad(loss, wrt...); err != nil {
			t.Fatal(err)
		}
		opts = append(opts, G.BindDualValues(wrt...))
	} else {
		opts = append(opts, G.EvalMode())
	}
	var yv G.Value
	G.Read(y, &yv)
	vm := G.NewTapeMachine(g, opts...)
	defer vm.Close()
	m, v := stats.Stats() // after the machine: gorgonia's resets them
	copy(m.Data().([]float32), mean)
	copy(v.Data().([]float32), variance)
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	vals := func(v G.Value) []float32 { return append([]float32(nil), v.Data().([]float32)...) }
	out := bnResult{y: vals(yv), mean: vals(m), variance: vals(v)}
	if train {
		for _, p := range []struct {
			n   *G.Node
			dst *[]float32
		}{{xn, &out.dx}, {gn, &out.dgamma}, {bn, &out.dbeta}, {resn, &out.dres}} {
			if p.n == nil {
				continue
			}
			gv, err := p.n.Grad()
			if err != nil {
				t.Fatal(err)
			}
			*p.dst = vals(gv)
		}
	}
	return out
}

func bnInputs(c bnCase, rng *rand.Rand) (x, gamma, beta, res, r, mean, variance []float32) {
	x = randFloats(size(c.xShape()), rng)
	for i := range x {
		x[i] = 3*x[i] + 1 // not already normalised
	}
	gamma, beta = randFloats(c.channels, rng), randFloats(c.channels, rng)
	r = randFloats(size(c.xShape()), rng)
	res = randFloats(size(c.xShape()), rng)
	mean, variance = randFloats(c.channels, rng), make([]float32, c.channels)
	for i := range variance {
		variance[i] = 0.5 + rng.Float32()
	}
	return
}

// TestBNOpMatchesGorgonia: in training mode (output, the three gradients,
// the running statistics) and in evaluation mode, bnOp gives what
// gorgonia's BatchNorm, broadcast scale and shift, and Rectify give.
func TestBNOpMatchesGorgonia(t *testing.T) {
	for i, c := range bnCases {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			x, gamma, beta, res, r, mean, variance := bnInputs(c, rng)
			for _, train := range []bool{true, false} {
				want := runBNGraph(t, c, x, gamma, beta, res, r, mean, variance, false, train)
				got := runBNGraph(t, c, x, gamma, beta, res, r, mean, variance, true, train)
				cmp := []struct {
					name      string
					got, want []float32
				}{{"y", got.y, want.y}, {"mean", got.mean, want.mean}, {"variance", got.variance, want.variance}}
				if train {
					cmp = append(cmp, []struct {
						name      string
						got, want []float32
					}{{"dx", got.dx, want.dx}, {"dγ", got.dgamma, want.dgamma}, {"dβ", got.dbeta, want.dbeta},
						{"dres", got.dres, want.dres}}...)
				}
				for _, k := range cmp {
					if len(k.got) != len(k.want) {
						t.Fatalf("train %v: %s has %d floats, gorgonia's %d", train, k.name, len(k.got), len(k.want))
					}
					if d, tol := maxAbsDiff(k.got, k.want), 1e-5*max(1, rms(k.want)); d > tol {
						t.Errorf("train %v: %s differs from gorgonia's by %g (tolerance %g)", train, k.name, d, tol)
					}
				}
			}
		})
	}
}

// bn64 is batch norm in training mode in float64: L = Σ r·relu?(γx̂ + β
// (+ res)).
func bn64(c bnCase, x, gamma, beta, res, r []float64) float64 {
	hw := c.n * c.n
	m := float64(c.batch * hw)
	var loss float64
	for ch := range c.channels {
		var mu, v float64
		for s := range c.batch {
			for i := range hw {
				mu += x[(s*c.channels+ch)*hw+i]
			}
		}
		mu /= m
		for s := range c.batch {
			for i := range hw {
				d := x[(s*c.channels+ch)*hw+i] - mu
				v += d * d
			}
		}
		inv := 1 / math.Sqrt(v/m+bnEpsilon)
		for s := range c.batch {
			for i := range hw {
				j := (s*c.channels+ch)*hw + i
				y := gamma[ch]*(x[j]-mu)*inv + beta[ch]
				if c.residual {
					y += res[j]
				}
				if c.relu {
					y = max(0, y)
				}
				loss += r[j] * y
			}
		}
	}
	return loss
}

// TestBNOpNumericGradient checks bnOp's gradients against central
// differences of the float64 definition.
func TestBNOpNumericGradient(t *testing.T) {
	for i, c := range bnCases {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 13))
			x, gamma, beta, res, r, mean, variance := bnInputs(c, rng)
			got := runBNGraph(t, c, x, gamma, beta, res, r, mean, variance, true, true)
			x64, g64, b64, res64, r64 := to64(x), to64(gamma), to64(beta), to64(res), to64(r)
			loss := func() float64 { return bn64(c, x64, g64, b64, res64, r64) }
			// A small step in float64, so that no ReLU input crosses its
			// kink between the two evaluations.
			const h = 1e-7
			check := func(name string, v []float64, grad []float32) {
				checkNumericGradient(t, rng, name, v, grad, loss, h, 2e-3, 10)
			}
			check("x", x64, got.dx)
			check("γ", g64, got.dgamma)
			check("β", b64, got.dbeta)
			if c.residual {
				check("res", res64, got.dres)
			}
		})
	}
}

// TestTrainingStepMatchesGorgoniaOps: a training step of the whole network
// on this package's ops gives the losses, weights and running statistics
// that the same step on gorgonia's Conv2d, BatchNorm, Add and Rectify
// gives (plain SGD, so the weights move by the gradients themselves).
func TestTrainingStepMatchesGorgoniaOps(t *testing.T) {
	if !useConvOps {
		t.Skip("this build trains on gorgonia's ops")
	}
	c := Config{Board: 7, Blocks: 2, Filters: 16, D: 8, ValueHidden: 16}
	opts := DefaultTrainOptions()
	opts.Momentum, opts.LearningRate = 0, 0.1
	rng := rand.New(rand.NewPCG(9, 9))
	batches := []Batch{randomBatch(c, 12, rng), randomBatch(c, 12, rng)}
	run := func(ours bool) ([]Losses, *Weights) {
		useConvOps = ours
		defer func() { useConvOps = true }()
		tr, err := NewTrainer(c, opts)
		if err != nil {
			t.Fatal(err)
		}
		var ls []Losses
		for _, b := range batches {
			l, err := tr.Step(b)
			if err != nil {
				t.Fatal(err)
			}
			ls = append(ls, l)
		}
		return ls, tr.Weights()
	}
	wantL, want := run(false)
	gotL, got := run(true)
	for i := range wantL {
		if d := math.Abs(gotL[i].Total - wantL[i].Total); d > 1e-4*max(1, math.Abs(wantL[i].Total)) {
			t.Errorf("step %d: loss %v, gorgonia's ops give %v", i, gotL[i], wantL[i])
		}
	}
	for _, name := range want.Names() {
		w, g := want.data(name), got.data(name)
		if d, tol := maxAbsDiff(g, w), 1e-4*max(1, rms(w)); d > tol {
			t.Errorf("%s differs by %g after two steps (tolerance %g)", name, d, tol)
		}
	}
}
