package nn

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A trainer rebuilt from saved weights and a saved optimiser state takes
// the same steps as one that never stopped; without the state it does not.
func TestOptimizerStateResumesExactly(t *testing.T) {
	c := Config{Board: 5, Blocks: 1, Filters: 4, D: 3, ValueHidden: 8}
	for _, optimizer := range []string{OptimizerMomentum, OptimizerAdam} {
		t.Run(optimizer, func(t *testing.T) {
			opts := DefaultTrainOptions()
			opts.Optimizer, opts.Seed = optimizer, 5
			if optimizer == OptimizerAdam {
				opts.LearningRate = 0.01
			}
			rng := rand.New(rand.NewPCG(9, 9))
			batches := make([]Batch, 6)
			for i := range batches {
				batches[i] = randomBatch(c, 8, rng)
			}
			steps := func(tr *Trainer, bs []Batch) {
				for _, b := range bs {
					if _, err := tr.Step(b); err != nil {
						t.Fatal(err)
					}
				}
			}
			whole, _ := NewTrainer(c, opts)
			steps(whole, batches)

			first, _ := NewTrainer(c, opts)
			steps(first, batches[:3])
			dir := t.TempDir()
			wPath, sPath := filepath.Join(dir, "w.lznn"), filepath.Join(dir, "w.opt")
			if err := first.Weights().Save(wPath); err != nil {
				t.Fatal(err)
			}
			if err := first.OptimizerState().Save(sPath); err != nil {
				t.Fatal(err)
			}
			resume := func(withState bool) *Weights {
				w, err := Load(wPath)
				if err != nil {
					t.Fatal(err)
				}
				o := opts
				o.Init = w
				tr, err := NewTrainer(c, o)
				if err != nil {
					t.Fatal(err)
				}
				if withState {
					s, err := LoadOptimizerState(sPath)
					if err != nil {
						t.Fatal(err)
					}
					if err := tr.SetOptimizerState(s); err != nil {
						t.Fatal(err)
					}
					if tr.Steps() != 3 {
						t.Fatalf("resumed trainer at step %d, want 3", tr.Steps())
					}
				}
				steps(tr, batches[3:])
				return tr.Weights()
			}
			want := whole.Weights()
			if d := maxWeightDiff(want, resume(true)); d > 1e-6 {
				t.Errorf("resumed with the state: weights differ by %g from the uninterrupted run", d)
			}
			if d := maxWeightDiff(want, resume(false)); d < 1e-4 {
				t.Errorf("resumed without the state: weights differ by only %g (the test cannot tell states apart)", d)
			}
		})
	}
}

func maxWeightDiff(a, b *Weights) float64 {
	var d float64
	for _, name := range a.Names() {
		x, y := a.data(name), b.data(name)
		for j := range x {
			d = max(d, math.Abs(float64(x[j]-y[j])))
		}
	}
	return d
}

func TestOptimizerStateRejectsBadFiles(t *testing.T) {
	c := Config{Board: 5, Blocks: 1, Filters: 4, D: 3, ValueHidden: 8}
	opts := DefaultTrainOptions()
	tr, _ := NewTrainer(c, opts)
	if _, err := tr.Step(randomBatch(c, 4, rand.New(rand.NewPCG(1, 1)))); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.opt")
	if err := tr.OptimizerState().Save(path); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 1
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", good[:len(good)/2], "truncated"},
		{"flipped", flipped, "checksum mismatch"},
		{"weights file", append([]byte("LZNN"), good[4:]...), "not an optimiser state file"},
		{"empty", nil, "truncated"},
	} {
		p := filepath.Join(dir, tt.name)
		if err := os.WriteFile(p, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadOptimizerState(p)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want one naming %s with %q", tt.name, err, p, tt.want)
		}
	}
	// A state of another optimiser or shape is refused.
	s, err := LoadOptimizerState(path)
	if err != nil {
		t.Fatal(err)
	}
	adam := opts
	adam.Optimizer = OptimizerAdam
	other, _ := NewTrainer(c, adam)
	if err := other.SetOptimizerState(s); err == nil || !strings.Contains(err.Error(), `"momentum"`) {
		t.Errorf("momentum state into an Adam trainer: %v", err)
	}
	bigger, _ := NewTrainer(Config{Board: 5, Blocks: 1, Filters: 8, D: 3, ValueHidden: 8}, opts)
	if err := bigger.SetOptimizerState(s); err == nil || !strings.Contains(err.Error(), "values") {
		t.Errorf("state of a smaller network: %v", err)
	}
}
