package nn

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// featureBatch is a synthetic task with a known answer: every target
// depends on whether the side to move has a stone on the centre point.
// With it the policy target is point 10, else point 20; the value is +1 or
// -1; the living side lives within d moves for every d >= 3, or never.
func featureBatch(c Config, n int, rng *rand.Rand) (Batch, []bool) {
	b := randomBatch(c, n, rng)
	center := c.Points() / 2
	has := make([]bool, n)
	clear(b.Policy)
	clear(b.DWin)
	b.DMask = nil
	for i := range n {
		has[i] = b.Planes[i*c.InputSize()+PlaneOwn*c.Points()+center] == 1
		b.Value[i] = -1
		target := 20
		if has[i] {
			b.Value[i] = 1
			target = 10
			for d := 3; d <= c.D; d++ {
				b.DWin[i*c.D+d-1] = 1
			}
		}
		b.Policy[i*c.PolicySize()+target] = 1
	}
	return b, has
}

func TestTrainerLearnsSyntheticTask(t *testing.T) {
	c := Config{Board: 7, Blocks: 2, Filters: 16, D: 8, ValueHidden: 32}
	adam := DefaultTrainOptions()
	adam.Optimizer, adam.LearningRate = OptimizerAdam, 1e-2
	sgd := DefaultTrainOptions()
	for _, opts := range []TrainOptions{adam, sgd} {
		t.Run(opts.Optimizer, func(t *testing.T) {
			tr, err := NewTrainer(c, opts)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(4, 4))
			var first, last Losses
			for step := range 100 {
				b, _ := featureBatch(c, 32, rng)
				l, err := tr.Step(b)
				if err != nil {
					t.Fatal(err)
				}
				if step == 0 {
					first = l
				}
				last = l
			}
			t.Logf("first %+v, last %+v", first, last)
			if !(last.Policy < first.Policy/4 && last.Value < first.Value/4 && last.DWin < first.DWin/4) {
				t.Errorf("losses did not fall: first %+v, last %+v", first, last)
			}
			// The trained network generalises to fresh positions.
			e, err := NewEvaluator(tr.Weights())
			if err != nil {
				t.Fatal(err)
			}
			n := 200
			b, has := featureBatch(c, n, rng)
			policy, value, dwin, err := e.Forward(b.Planes, n)
			if err != nil {
				t.Fatal(err)
			}
			var right int
			for i := range n {
				best := slices.Index(policy[i], slices.Max(policy[i]))
				wantMove := 20
				if has[i] {
					wantMove = 10
				}
				if best == wantMove && (value[i] > 0) == has[i] && (dwin[i][4] > 0.5) == has[i] && dwin[i][0] < 0.5 {
					right++
				}
			}
			if right < n*9/10 {
				t.Errorf("%d of %d fresh positions answered right, want 90%%", right, n)
			}
		})
	}
}

func TestDMaskHidesTargets(t *testing.T) {
	c := Config{Board: 5, Blocks: 1, Filters: 4, D: 6, ValueHidden: 8}
	opts := DefaultTrainOptions()
	opts.WeightDecay = 0
	tr, err := NewTrainer(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	before := tr.Weights()
	b := randomBatch(c, 4, rand.New(rand.NewPCG(1, 2)))
	b.DMask = make([]float32, 4*c.D) // per-output mask, all unknown
	l, err := tr.Step(b)
	if err != nil {
		t.Fatal(err)
	}
	if l.DWin != 0 {
		t.Errorf("d-win loss %v with every target masked", l.DWin)
	}
	after := tr.Weights()
	for _, name := range []string{"dwin.fc.w", "dwin.fc.b"} {
		if !slices.Equal(before.data(name), after.data(name)) {
			t.Errorf("%s changed although every d-win target was masked", name)
		}
	}
	if slices.Equal(before.data("value.fc2.w"), after.data("value.fc2.w")) {
		t.Error("value.fc2.w did not change: the step did nothing")
	}
}

// TestWeightDecay: with every loss weighted 0, a plain SGD step only decays
// the convolution and fully connected weights: w' = w(1 − lr·λ).
func TestWeightDecay(t *testing.T) {
	c := Config{Board: 5, Blocks: 1, Filters: 4, D: 2, ValueHidden: 8}
	opts := DefaultTrainOptions()
	opts.Momentum, opts.WeightDecay, opts.LearningRate = 0, 0.5, 0.1
	opts.PolicyWeight, opts.ValueWeight, opts.DWinWeight = 0, 0, 0
	tr, err := NewTrainer(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	before := tr.Weights()
	if _, err := tr.Step(randomBatch(c, 3, rand.New(rand.NewPCG(1, 1)))); err != nil {
		t.Fatal(err)
	}
	after := tr.Weights()
	for i, spec := range layout(c) {
		factor := float32(1)
		switch spec.kind {
		case kindConv, kindFC:
			factor = 1 - 0.1*0.5
		case kindMean, kindVar:
			continue // running statistics move with every batch
		}
		for j, w := range before.tensors[i].Data {
			if got := after.tensors[i].Data[j]; math.Abs(float64(got-w*factor)) > 1e-6 {
				t.Fatalf("%s[%d] = %v after the step, want %v", spec.name, j, got, w*factor)
			}
		}
	}
}

// TestBatchSizesShareState: switching batch sizes keeps one set of
// parameters and running statistics, so training [8, 4] in one trainer
// equals training 8, exporting the weights, and training 4 in a new one
// (plain SGD: no optimiser state to carry).
func TestBatchSizesShareState(t *testing.T) {
	c := Config{Board: 5, Blocks: 1, Filters: 4, D: 3, ValueHidden: 8}
	opts := DefaultTrainOptions()
	opts.Momentum = 0
	rng := rand.New(rand.NewPCG(3, 3))
	b8, b4 := randomBatch(c, 8, rng), randomBatch(c, 4, rng)

	one, _ := NewTrainer(c, opts)
	for _, b := range []Batch{b4, b8, b4} {
		if _, err := one.Step(b); err != nil {
			t.Fatal(err)
		}
	}
	two, _ := NewTrainer(c, opts)
	for _, b := range []Batch{b4, b8} {
		if _, err := two.Step(b); err != nil {
			t.Fatal(err)
		}
	}
	opts.Init = two.Weights()
	three, err := NewTrainer(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := three.Step(b4); err != nil {
		t.Fatal(err)
	}
	w1, w3 := one.Weights(), three.Weights()
	for _, name := range w1.Names() {
		a, b := w1.data(name), w3.data(name)
		for j := range a {
			if math.Abs(float64(a[j]-b[j])) > 1e-5 {
				t.Fatalf("%s[%d]: %v in one trainer, %v via exported weights", name, j, a[j], b[j])
			}
		}
	}
}

func TestTrainerRejectsBadInput(t *testing.T) {
	c := Config{Board: 5, Blocks: 0, Filters: 2, D: 3, ValueHidden: 2}
	bad := func(f func(*TrainOptions)) TrainOptions {
		o := DefaultTrainOptions()
		f(&o)
		return o
	}
	other := c
	other.D = 4
	otherW, _ := NewWeights(other, 1)
	for _, tt := range []struct {
		name string
		opts TrainOptions
		want string
	}{
		{"zero options", TrainOptions{}, "optimizer"},
		{"negative lr", bad(func(o *TrainOptions) { o.LearningRate = -1 }), "learning rate"},
		{"momentum 1", bad(func(o *TrainOptions) { o.Momentum = 1 }), "momentum"},
		{"init of another config", bad(func(o *TrainOptions) { o.Init = otherW }), "initial weights"},
	} {
		if _, err := NewTrainer(c, tt.opts); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one about %q", tt.name, err, tt.want)
		}
	}
	tr, err := NewTrainer(c, DefaultTrainOptions())
	if err != nil {
		t.Fatal(err)
	}
	good := randomBatch(c, 2, rand.New(rand.NewPCG(1, 1)))
	for _, tt := range []struct {
		name string
		edit func(*Batch)
		want string
	}{
		{"N=0", func(b *Batch) { b.N = 0 }, "N=0"},
		{"short planes", func(b *Batch) { b.Planes = b.Planes[1:] }, "Planes"},
		{"short policy", func(b *Batch) { b.Policy = b.Policy[1:] }, "Policy"},
		{"long value", func(b *Batch) { b.Value = append(b.Value, 0) }, "Value"},
		{"short d-win", func(b *Batch) { b.DWin = b.DWin[1:] }, "DWin"},
		{"odd mask", func(b *Batch) { b.DMask = make([]float32, 5) }, "DMask"},
	} {
		b := good
		tt.edit(&b)
		if _, err := tr.Step(b); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one about %q", tt.name, err, tt.want)
		}
	}
	if _, err := tr.Step(good); err != nil {
		t.Errorf("good batch after bad ones: %v", err)
	}
	if err := tr.SetLearningRate(0); err == nil {
		t.Error("SetLearningRate(0): no error")
	}
}

// TestNaNBatchIsRefusedAndForgotten: a batch whose loss is not finite is
// an error and leaves no trace: the next good step gives what it gives
// without the bad batch.
func TestNaNBatchIsRefusedAndForgotten(t *testing.T) {
	c := Config{Board: 5, Blocks: 1, Filters: 4, D: 3, ValueHidden: 8}
	rng := rand.New(rand.NewPCG(8, 8))
	good := randomBatch(c, 4, rng)
	bad := randomBatch(c, 4, rng)
	bad.Value[2] = float32(math.NaN())

	clean, _ := NewTrainer(c, DefaultTrainOptions())
	if _, err := clean.Step(good); err != nil {
		t.Fatal(err)
	}
	tr, _ := NewTrainer(c, DefaultTrainOptions())
	if _, err := tr.Step(bad); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Fatalf("NaN target: error %v, want one saying NaN", err)
	}
	if _, err := tr.Step(good); err != nil {
		t.Fatal(err)
	}
	w1, w2 := clean.Weights(), tr.Weights()
	for _, name := range w1.Names() {
		if !slices.Equal(w1.data(name), w2.data(name)) {
			t.Errorf("%s differs: the refused batch left a trace", name)
		}
	}
}
