package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

func TestEvaluatorMatchesGraph(t *testing.T) {
	tests := []struct {
		cfg   Config
		batch int
	}{
		{Config{Board: 7, Blocks: 2, Filters: 16, D: 98, MoveNumberPlanes: 5, ValueHidden: 32}, 6},
		{Config{Board: 9, Blocks: 1, Filters: 8, D: 30, ValueHidden: 16}, 3},
		{Config{Board: 5, Blocks: 0, Filters: 12, D: 4, ValueHidden: 8}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.cfg.String(), func(t *testing.T) {
			// Training first makes the batch-norm statistics non-trivial.
			w := trainedWeights(t, tt.cfg, 3, 8, 7)
			if v := w.data("stem.bn.var"); v[0] == 1 {
				t.Fatalf("running variance still 1 after training")
			}
			planes := randomPlanes(tt.cfg, tt.batch, rand.New(rand.NewPCG(5, 6)))
			e, err := NewEvaluator(w)
			if err != nil {
				t.Fatal(err)
			}
			ge, err := NewGraphEvaluator(w, tt.batch)
			if err != nil {
				t.Fatal(err)
			}
			p1, v1, d1, err := e.Forward(planes, tt.batch)
			if err != nil {
				t.Fatal(err)
			}
			p2, v2, d2, err := ge.Forward(planes, tt.batch)
			if err != nil {
				t.Fatal(err)
			}
			if m := maxDiff(p1, p2, v1, v2, d1, d2); m > 1e-4 {
				t.Errorf("dedicated and graph forward passes differ by %g", m)
			}
		})
	}
}

func TestForwardOutputs(t *testing.T) {
	c := Config{Board: 7, Blocks: 1, Filters: 8, D: 20, ValueHidden: 16}
	w := trainedWeights(t, c, 2, 4, 11)
	// Make the heads' outputs large, so saturation shows if any.
	for _, name := range []string{"dwin.fc.w", "value.fc2.w", "policy.fc.w"} {
		for i := range w.Tensor(name).Data {
			w.Tensor(name).Data[i] *= 20
		}
	}
	e, err := NewEvaluator(w)
	if err != nil {
		t.Fatal(err)
	}
	n := 9
	policy, value, dwin, err := e.Forward(randomPlanes(c, n, rand.New(rand.NewPCG(1, 1))), n)
	if err != nil {
		t.Fatal(err)
	}
	if len(policy) != n || len(value) != n || len(dwin) != n {
		t.Fatalf("%d policies, %d values, %d d-win rows for %d positions", len(policy), len(value), len(dwin), n)
	}
	for i := range n {
		if len(policy[i]) != 50 || len(dwin[i]) != 20 {
			t.Fatalf("position %d: policy of %d, d-win of %d", i, len(policy[i]), len(dwin[i]))
		}
		var sum float64
		for _, p := range policy[i] {
			if p < 0 || p > 1 || math.IsNaN(float64(p)) {
				t.Errorf("position %d: policy probability %v", i, p)
			}
			sum += float64(p)
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("position %d: policy sums to %v", i, sum)
		}
		if v := value[i]; !(v >= -1 && v <= 1) {
			t.Errorf("position %d: value %v", i, v)
		}
		for d, p := range dwin[i] {
			if !(p >= 0 && p <= 1) {
				t.Errorf("position %d: d-win %d = %v", i, d+1, p)
			}
		}
	}
}

// TestForwardBatchingAndConcurrency checks that a position's outputs do not
// depend on the batch around it (19x19 batches run in several chunks) nor
// on other goroutines using the evaluator.
func TestForwardBatchingAndConcurrency(t *testing.T) {
	c := Config{Board: 19, Blocks: 1, Filters: 4, D: 3, ValueHidden: 8}
	w, err := NewWeights(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(w)
	if err != nil {
		t.Fatal(err)
	}
	n := 2*e.chunk + 3
	// The packed kernels sum every row in one order wherever it falls in
	// the batch, so there a position alone gives the same bits: caches of
	// evaluations rely on it to change nothing.
	tol := 1e-5
	if usePacked {
		tol = 0
	}
	planes := randomPlanes(c, n, rand.New(rand.NewPCG(2, 2)))
	pAll, vAll, dAll, err := e.Forward(planes, n)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, v, d, err := e.Forward(planes[i*c.InputSize():(i+1)*c.InputSize()], 1)
			if err != nil {
				errs <- err
				return
			}
			if m := maxDiff(p, pAll[i:i+1], v, vAll[i:i+1], d, dAll[i:i+1]); m > tol {
				errs <- fmt.Errorf("position %d alone differs from in a batch by %g", i, m)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestForwardRejectsBadInput(t *testing.T) {
	c := Config{Board: 5, Blocks: 0, Filters: 2, D: 1, ValueHidden: 2}
	w, _ := NewWeights(c, 1)
	e, _ := NewEvaluator(w)
	if _, _, _, err := e.Forward(make([]float32, c.InputSize()), 2); err == nil {
		t.Error("Evaluator: planes for 1 position, n=2: no error")
	}
	ge, err := NewGraphEvaluator(w, 2)
	if err != nil {
		t.Fatal(err)
	}
	edited := w.Clone()
	edited.Config.Filters = 3 // tensors no longer match
	if _, err := NewEvaluator(edited); err == nil {
		t.Error("Evaluator of weights whose config was edited: no error")
	}
	if _, err := NewEvaluator(&Weights{Config: c}); err == nil {
		t.Error("Evaluator of a Weights literal without tensors: no error")
	}
	if _, err := NewGraphEvaluator(edited, 1); err == nil {
		t.Error("GraphEvaluator of weights whose config was edited: no error")
	}
	if _, _, _, err := ge.Forward(make([]float32, 3*c.InputSize()), 3); err == nil {
		t.Error("GraphEvaluator: 3 positions for a batch of 2: no error")
	}
	if _, _, _, err := ge.Forward(make([]float32, c.InputSize()), 1); err != nil {
		t.Errorf("GraphEvaluator: 1 position for a batch of 2: %v", err)
	}
}
