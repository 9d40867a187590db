package featmodel

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// trainers runs each of the three trainers with small settings, so tests can
// check behaviour they share.
var trainers = []struct {
	name  string
	train func(ctx context.Context, src SampleSource, rng *rand.Rand, progress EpochFunc) (Model, error)
}{
	{"bt", func(ctx context.Context, src SampleSource, _ *rand.Rand, progress EpochFunc) (Model, error) {
		cfg := DefaultBTConfig()
		cfg.MaxIterations, cfg.Tolerance, cfg.OnEpoch = 5, 0, progress
		return TrainBT(ctx, src, cfg)
	}},
	{"lfr", func(ctx context.Context, src SampleSource, rng *rand.Rand, progress EpochFunc) (Model, error) {
		cfg := DefaultLFRConfig()
		cfg.Epochs, cfg.Factors, cfg.Negatives, cfg.OnEpoch = 3, 3, 4, progress
		return TrainLFR(ctx, src, cfg, rng)
	}},
	{"lfr adagrad", func(ctx context.Context, src SampleSource, rng *rand.Rand, progress EpochFunc) (Model, error) {
		cfg := DefaultLFRConfig()
		cfg.Epochs, cfg.Factors, cfg.Negatives, cfg.OnEpoch = 3, 3, 4, progress
		cfg.Optimizer, cfg.LearningRate = OptimizerAdagrad, 0.1
		return TrainLFR(ctx, src, cfg, rng)
	}},
	{"fbt", func(ctx context.Context, src SampleSource, rng *rand.Rand, progress EpochFunc) (Model, error) {
		cfg := DefaultFBTConfig()
		cfg.Epochs, cfg.Factors, cfg.OnEpoch = 3, 3, progress
		return TrainFBT(ctx, src, cfg, rng)
	}},
}

func smallSamples(seed uint64, n int) Samples {
	rng := newRand(seed)
	_, gen := btTruth(rng, 12, 6, 1)
	return gen.samples(rng, n)
}

// stream hides the in-memory samples' random access, so the trainers take
// their streaming path (shuffle buffer).
type stream struct{ s Samples }

func (st stream) Scan(ctx context.Context, visit func(*Sample) error) error {
	return st.s.Scan(ctx, visit)
}

// The visited hook comes every visitedBatch samples and once for the rest.
func TestScanShuffledVisitedHook(t *testing.T) {
	samples := make(Samples, 2*visitedBatch+100)
	for _, src := range []SampleSource{samples, stream{samples}} {
		var calls []int
		err := scanShuffled(context.Background(), src, newRand(1), 7, func(k int) { calls = append(calls, k) }, func(*Sample) error { return nil })
		if want := []int{visitedBatch, visitedBatch, 100}; err != nil || !slices.Equal(calls, want) {
			t.Errorf("%T: hook called with %v (error %v), want %v", src, calls, err, want)
		}
	}
}

// fileStream is a stream stored in files of fileSize samples, which
// ScanShuffled visits in an order drawn from rng, as movecands.Data does.
type fileStream struct {
	stream
	fileSize int
}

func (fs fileStream) ScanShuffled(ctx context.Context, rng *rand.Rand, visit func(*Sample) error) error {
	files := rng.Perm((len(fs.s) + fs.fileSize - 1) / fs.fileSize)
	for _, f := range files {
		if err := fs.s[f*fs.fileSize:min((f+1)*fs.fileSize, len(fs.s))].Scan(ctx, visit); err != nil {
			return err
		}
	}
	return nil
}

// allScores returns m's score of every candidate of samples.
func allScores(m Model, samples Samples) []float64 {
	var out []float64
	for _, s := range samples {
		for _, c := range s.Candidates {
			out = append(out, m.Score(c))
		}
	}
	return out
}

func TestTrainingIsDeterministicGivenTheSeed(t *testing.T) {
	samples := smallSamples(1, 300)
	for _, tr := range trainers {
		for _, src := range []SampleSource{samples, stream{samples}} {
			a, err := tr.train(context.Background(), src, newRand(42), nil)
			if err != nil {
				t.Fatalf("%s: %v", tr.name, err)
			}
			b, err := tr.train(context.Background(), src, newRand(42), nil)
			if err != nil {
				t.Fatalf("%s: %v", tr.name, err)
			}
			if !reflect.DeepEqual(allScores(a, samples), allScores(b, samples)) {
				t.Errorf("%s (%T source): two runs with seed 42 differ", tr.name, src)
			}
			if tr.name == "bt" {
				continue // MM uses no randomness
			}
			c, err := tr.train(context.Background(), src, newRand(43), nil)
			if err != nil {
				t.Fatalf("%s: %v", tr.name, err)
			}
			if reflect.DeepEqual(allScores(a, samples), allScores(c, samples)) {
				t.Errorf("%s (%T source): seeds 42 and 43 give the same model", tr.name, src)
			}
		}
	}
}

func TestProgressReportsEveryEpoch(t *testing.T) {
	samples := smallSamples(2, 200)
	for _, tr := range trainers {
		var epochs []int
		var losses []float64
		m, err := tr.train(context.Background(), samples, newRand(1), func(e int, loss float64) {
			epochs = append(epochs, e)
			losses = append(losses, loss)
		})
		if err != nil {
			t.Fatalf("%s: %v", tr.name, err)
		}
		info := modelInfo(m)
		want := make([]int, info.Epochs)
		for i := range want {
			want[i] = i + 1
		}
		if len(want) == 0 || !reflect.DeepEqual(epochs, want) {
			t.Errorf("%s: progress saw epochs %v, want %v", tr.name, epochs, want)
		}
		if !reflect.DeepEqual(losses, info.Loss) {
			t.Errorf("%s: progress losses %v, Info.Loss %v", tr.name, losses, info.Loss)
		}
		if info.Samples != len(samples) {
			t.Errorf("%s: Info.Samples = %d, want %d", tr.name, info.Samples, len(samples))
		}
	}
}

func modelInfo(m Model) TrainInfo {
	switch m := m.(type) {
	case *BTModel:
		return m.Info
	case *LFRModel:
		return m.Info
	case *FBTModel:
		return m.Info
	}
	return TrainInfo{}
}

func TestTrainingStopsOnCancel(t *testing.T) {
	samples := smallSamples(3, 100)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tr := range trainers {
		if _, err := tr.train(ctx, samples, newRand(1), nil); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err = %v, want context.Canceled", tr.name, err)
		}
	}
}

func TestTrainingRejectsBadSamples(t *testing.T) {
	good := Sample{Candidates: []Candidate{{0, 1}, {2}}, Played: 1}
	tests := []struct {
		name string
		bad  Sample
		want string
	}{
		{"no candidates", Sample{}, "no candidates"},
		{"played below range", Sample{Candidates: []Candidate{{0}}, Played: -1}, "played index -1"},
		{"played above range", Sample{Candidates: []Candidate{{0}}, Played: 1}, "played index 1"},
		{"negative move number", Sample{Candidates: []Candidate{{0}}, MoveNumber: -3}, "move number"},
		{"negative feature", Sample{Candidates: []Candidate{{0}, {-2}}}, "candidate 1: feature id -2"},
		{"huge feature", Sample{Candidates: []Candidate{{MaxFeatures}}}, "feature id 16777216"},
		{"duplicate feature", Sample{Candidates: []Candidate{{3, 4, 3}}}, "listed twice"},
	}
	for _, tt := range tests {
		for _, tr := range trainers {
			_, err := tr.train(context.Background(), Samples{good, tt.bad}, newRand(1), nil)
			if err == nil || !strings.Contains(err.Error(), "sample 1") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s, %s: err = %v, want it to name sample 1 and say %q", tt.name, tr.name, err, tt.want)
			}
		}
	}
	for _, tr := range trainers {
		if _, err := tr.train(context.Background(), Samples{}, newRand(1), nil); err == nil {
			t.Errorf("%s with no samples: no error", tr.name)
		}
	}
}

func TestNumFeaturesBoundsTheIds(t *testing.T) {
	samples := Samples{{Candidates: []Candidate{{0}, {5}}, Played: 1}}
	bt := DefaultBTConfig()
	bt.NumFeatures = 5
	if _, err := TrainBT(context.Background(), samples, bt); err == nil {
		t.Error("BT: feature 5 accepted with NumFeatures 5")
	}
	bt.NumFeatures = 9
	m, err := TrainBT(context.Background(), samples, bt)
	if err != nil || m.NumFeatures() != 9 {
		t.Errorf("BT with NumFeatures 9: %d features, err %v", m.NumFeatures(), err)
	}
	fbt := DefaultFBTConfig()
	fbt.NumFeatures = 5
	if _, err := TrainFBT(context.Background(), samples, fbt, newRand(1)); err == nil {
		t.Error("FBT: feature 5 accepted with NumFeatures 5")
	}
}

func TestConfigsAreValidated(t *testing.T) {
	samples := smallSamples(4, 20)
	ctx := context.Background()
	bt := func(edit func(*BTConfig)) error {
		cfg := DefaultBTConfig()
		edit(&cfg)
		_, err := TrainBT(ctx, samples, cfg)
		return err
	}
	lfr := func(edit func(*LFRConfig)) error {
		cfg := DefaultLFRConfig()
		edit(&cfg)
		_, err := TrainLFR(ctx, samples, cfg, newRand(1))
		return err
	}
	fbt := func(edit func(*FBTConfig)) error {
		cfg := DefaultFBTConfig()
		edit(&cfg)
		_, err := TrainFBT(ctx, samples, cfg, newRand(1))
		return err
	}
	tests := []struct {
		name string
		err  error
	}{
		{"bt zero config", func() error { _, err := TrainBT(ctx, samples, BTConfig{}); return err }()},
		{"bt negative tolerance", bt(func(c *BTConfig) { c.Tolerance = -1 })},
		{"lfr zero config", func() error { _, err := TrainLFR(ctx, samples, LFRConfig{}, newRand(1)); return err }()},
		{"lfr factors 0", lfr(func(c *LFRConfig) { c.Factors = 0 })},
		{"lfr learning rate 0", lfr(func(c *LFRConfig) { c.LearningRate = 0 })},
		{"lfr negative reg", lfr(func(c *LFRConfig) { c.RegV = -0.1 })},
		{"lfr negative negatives", lfr(func(c *LFRConfig) { c.Negatives = -1 })},
		{"fbt epochs 0", fbt(func(c *FBTConfig) { c.Epochs = 0 })},
		{"fbt unknown optimizer", fbt(func(c *FBTConfig) { c.Optimizer = "adam" })},
		{"fbt shuffle buffer 0", fbt(func(c *FBTConfig) { c.ShuffleBuffer = 0 })},
		{"fbt too many features", fbt(func(c *FBTConfig) { c.NumFeatures = MaxFeatures + 1 })},
	}
	for _, tt := range tests {
		if tt.err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
	if err := fbt(func(c *FBTConfig) { c.Optimizer = OptimizerSGD; c.LearningRate = 0.01 }); err != nil {
		t.Errorf("fbt with sgd: %v", err)
	}
}

func TestDivergedTrainingIsAnError(t *testing.T) {
	samples := smallSamples(5, 200)
	cfg := DefaultFBTConfig()
	cfg.Optimizer, cfg.LearningRate, cfg.InitStd = OptimizerSGD, 1e6, 1
	_, err := TrainFBT(context.Background(), samples, cfg, newRand(1))
	if err == nil || !strings.Contains(err.Error(), "diverged") {
		t.Errorf("FBT with learning rate 1e6: err = %v, want a divergence error", err)
	}
}

func TestScanShuffledVisitsEverySampleOnce(t *testing.T) {
	samples := make(Samples, 50)
	for i := range samples {
		samples[i].MoveNumber = i
	}
	for _, src := range []SampleSource{samples, stream{samples}, fileStream{stream{samples}, 10}} {
		for _, buf := range []int{1, 7, 50, 1000} {
			seen := make([]int, len(samples))
			inOrder := true
			n, counted := 0, 0
			visited := func(k int) { counted += k }
			err := scanShuffled(context.Background(), src, newRand(uint64(buf)), buf, visited, func(s *Sample) error {
				seen[s.MoveNumber]++
				inOrder = inOrder && s.MoveNumber == n
				n++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if counted != len(samples) {
				t.Errorf("%T, buffer %d: visited hook counted %d samples, want %d", src, buf, counted, len(samples))
			}
			for i, k := range seen {
				if k != 1 {
					t.Errorf("%T, buffer %d: sample %d visited %d times", src, buf, i, k)
				}
			}
			_, coarse := src.(coarseShuffler)
			if inOrder && (buf > 1 || coarse) {
				t.Errorf("%T, buffer %d: samples came in their original order", src, buf)
			}
		}
	}
}

// TestWarmStart: a warm start continues from the initial model. With a
// negligible learning rate the result keeps its scores (a fresh start would
// score near zero), the initial model is not modified, and a model of
// another feature set is refused.
func TestWarmStart(t *testing.T) {
	samples := smallSamples(6, 400)
	ctx := context.Background()
	lcfg := DefaultLFRConfig()
	lcfg.Epochs = 3
	lfr, err := TrainLFR(ctx, samples, lcfg, newRand(1))
	if err != nil {
		t.Fatal(err)
	}
	fcfg := DefaultFBTConfig()
	fbt, err := TrainFBT(ctx, samples, fcfg, newRand(1))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		init  Model
		train func(lr float64, numFeatures int) (Model, error)
	}{
		{"lfr", lfr, func(lr float64, numFeatures int) (Model, error) {
			c := DefaultLFRConfig()
			c.Epochs, c.LearningRate, c.Init, c.NumFeatures, c.Factors = 1, lr, lfr, numFeatures, 3
			return TrainLFR(ctx, samples, c, newRand(2))
		}},
		{"fbt", fbt, func(lr float64, numFeatures int) (Model, error) {
			c := DefaultFBTConfig()
			c.Epochs, c.LearningRate, c.Init, c.NumFeatures, c.Factors = 1, lr, fbt, numFeatures, 3
			return TrainFBT(ctx, samples, c, newRand(2))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := allScores(tt.init, samples)
			m, err := tt.train(1e-12, 0)
			if err != nil {
				t.Fatal(err)
			}
			after := allScores(m, samples)
			for i := range before {
				if math.Abs(after[i]-before[i]) > 1e-6 {
					t.Fatalf("candidate %d: score %v after a warm start at lr 1e-12, %v before", i, after[i], before[i])
				}
			}
			if got := m.(interface{ Factors() int }).Factors(); got != 8 {
				t.Errorf("k %d after a warm start from k 8 (configured 3)", got)
			}
			if _, err := tt.train(fcfg.LearningRate, 0); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(allScores(tt.init, samples), before) {
				t.Error("training from the model changed it")
			}
			if _, err := tt.train(1e-12, tt.init.(interface{ NumFeatures() int }).NumFeatures()+5); err == nil || !strings.Contains(err.Error(), "another feature set") {
				t.Errorf("initial model with too few features: got %v", err)
			}
		})
	}
}
