package train

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/nn"
	"lifezero/selfplay"
)

// samplesDataset plays a few quick kill-all games into a samples dataset.
func samplesDataset(t *testing.T, games int, seed uint64) (string, nn.Config) {
	t.Helper()
	c, err := nn.Preset(nn.Preset2x16, 7)
	if err != nil {
		t.Fatal(err)
	}
	ka, err := selfplay.KillAll(7)
	if err != nil {
		t.Fatal(err)
	}
	o := selfplay.DefaultOptions()
	o.Starts, o.Config, o.Games, o.Simulations, o.DW, o.Seed, o.GamesPerFile = []selfplay.Start{ka}, c, games, 4, 30, seed, 2
	dir := t.TempDir()
	res, err := selfplay.Run(context.Background(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := res.Manifest(datasets.Manifest{InputHash: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := datasets.WriteManifest(dir, &m); err != nil {
		t.Fatal(err)
	}
	return dir, c
}

func netOptions(c nn.Config) NetOptions {
	o := DefaultNetOptions()
	o.Config = c
	o.Steps, o.BatchSize, o.CheckpointEvery, o.LogEvery, o.LRDropStep = 12, 8, 4, 2, 8
	o.Train.Seed = 1
	o.Seed = 2
	return o
}

// stopAfter cancels a context after n training steps.
type stopAfter struct {
	n, done int
	cancel  context.CancelFunc
}

func (s *stopAfter) Start(int, string) {}
func (s *stopAfter) Finish()           {}
func (s *stopAfter) Add(n int) {
	s.done += n
	if s.done >= s.n {
		s.cancel()
	}
}

func TestTrainNetResumesAfterInterruption(t *testing.T) {
	dir, c := samplesDataset(t, 2, 1)
	data, err := LoadNetData(context.Background(), []string{dir}, 0)
	if err != nil {
		t.Fatal(err)
	}
	opts := netOptions(c) // momentum SGD: the checkpoint must carry the velocity
	whole, err := TrainNet(context.Background(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Steps != 12 || whole.Resumed != 0 {
		t.Fatalf("uninterrupted run: %d steps, resumed %d", whole.Steps, whole.Resumed)
	}

	ckdir := t.TempDir()
	interrupted := opts
	interrupted.CheckpointDir = ckdir
	ctx, cancel := context.WithCancel(context.Background())
	interrupted.Progress = &stopAfter{n: 7, cancel: cancel}
	if _, err := TrainNet(ctx, data, interrupted); err == nil {
		t.Fatal("a cancelled run returned no error")
	}
	var ck checkpoint
	raw, err := os.ReadFile(filepath.Join(ckdir, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &ck); err != nil || ck.Step != 7 {
		t.Fatalf("checkpoint at step %d (err %v), want 7", ck.Step, err)
	}
	resumed := opts
	resumed.CheckpointDir = ckdir
	res, err := TrainNet(context.Background(), data, resumed)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed != 7 || res.Steps != 12 {
		t.Fatalf("resumed at %d and ended at %d, want 7 and 12", res.Resumed, res.Steps)
	}
	var steps []int
	for _, l := range res.Losses {
		steps = append(steps, l.Step)
	}
	// The steps since the last loss point before the interruption are not
	// counted twice: the point at step 8 averages step 8 alone.
	if want := []int{2, 4, 6, 8, 10, 12}; !slices.Equal(steps, want) {
		t.Errorf("loss points at steps %v, want %v", steps, want)
	}
	for _, name := range whole.Weights.Names() {
		a, b := whole.Weights.Tensor(name).Data, res.Weights.Tensor(name).Data
		if !slices.Equal(a, b) {
			t.Fatalf("tensor %s differs between the uninterrupted and the resumed run", name)
		}
	}
	// A run with other settings does not take that checkpoint.
	other := resumed
	other.Seed++
	res2, err := TrainNet(context.Background(), data, other)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Resumed != 0 {
		t.Errorf("a run with another seed resumed at %d", res2.Resumed)
	}
	if err := RemoveCheckpoints(ckdir); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(ckdir); len(left) != 0 {
		t.Errorf("files left after RemoveCheckpoints: %v", left)
	}
}

func TestTrainNetLearns(t *testing.T) {
	dir, c := samplesDataset(t, 2, 3)
	data, err := LoadNetData(context.Background(), []string{dir}, 0)
	if err != nil {
		t.Fatal(err)
	}
	opts := netOptions(c)
	opts.Steps, opts.LogEvery, opts.BatchSize, opts.LRDropStep = 60, 10, 16, 0
	opts.Train.LearningRate = 0.01
	res, err := TrainNet(context.Background(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	first, last := res.Losses[0], res.Losses[len(res.Losses)-1]
	if !(last.Total < first.Total) || !(last.Value < first.Value) {
		t.Errorf("losses did not fall on a small training set: first %+v, last %+v", first, last)
	}
}

func TestLearningRateSchedule(t *testing.T) {
	o := DefaultNetOptions()
	o.Train.LearningRate, o.LowLR, o.LRDropStep = 0.02, 0.002, 100
	for _, tt := range []struct {
		step int
		want float64
	}{{0, 0.02}, {99, 0.02}, {100, 0.002}, {5000, 0.002}} {
		if got := o.LearningRate(tt.step); got != tt.want {
			t.Errorf("step %d: lr %v, want %v", tt.step, got, tt.want)
		}
	}
	o.LRDropStep = 0
	if o.LearningRate(1e6) != 0.02 {
		t.Error("LRDropStep 0 should never drop")
	}
}

// Augmentation maps a sample's planes as encoding the transformed position
// would, and its policy with the moves.
func TestAugmentationMatchesTransformedPosition(t *testing.T) {
	c, _ := nn.Preset(nn.Preset2x16, 7)
	pos, _ := game.NewPosition(7)
	for _, m := range [][2]int{{1, 2}, {5, 5}, {2, 2}, {0, 6}, {3, 1}} {
		if err := pos.Play(pos.Point(m[0], m[1])); err != nil {
			t.Fatal(err)
		}
	}
	ka, _ := selfplay.KillAll(7)
	pr := ka.Problem
	d := &NetData{Board: 7, InputSize: c.InputSize(), PolicySize: c.PolicySize(), D: c.D, N: 1}
	d.Planes = make([]float32, c.InputSize())
	if err := c.Encode(pos, pr, d.Planes); err != nil {
		t.Fatal(err)
	}
	b, err := newBatcher(d, 1, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float32, c.InputSize())
	want := make([]float32, c.InputSize())
	for s := range game.NumSymmetries {
		sym := game.Symmetry(s)
		b.transform(sym, d.Planes, got)
		if err := c.Encode(pos.Transformed(sym), pr, want); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("symmetry %d: transformed planes differ from the transformed position's", s)
		}
		policy := make([]float32, c.PolicySize())
		m := pos.Point(1, 2)
		policy[nn.MoveIndex(&pos.Board, m)] = 0.75
		policy[c.PolicySize()-1] = 0.25 // pass stays
		out := make([]float32, c.PolicySize())
		b.transform(sym, policy, out)
		if out[nn.MoveIndex(&pos.Board, pos.Transform(sym, m))] != 0.75 || out[c.PolicySize()-1] != 0.25 {
			t.Fatalf("symmetry %d: policy not mapped with its move", s)
		}
	}
}

func TestLoadNetDataWindow(t *testing.T) {
	a, _ := samplesDataset(t, 2, 5)
	b, _ := samplesDataset(t, 2, 6)
	sa, _, err := selfplay.ReadSamples(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	sb, _, err := selfplay.ReadSamples(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	all, err := LoadNetData(context.Background(), []string{a, b}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if all.N != sa.N+sb.N || !slices.Equal(all.Value, append(slices.Clone(sa.Value), sb.Value...)) {
		t.Fatalf("window of both: %d samples, want %d in order", all.N, sa.N+sb.N)
	}
	keep := sb.N + 3
	newest, err := LoadNetData(context.Background(), []string{a, b}, keep)
	if err != nil {
		t.Fatal(err)
	}
	if newest.N != keep || !slices.Equal(newest.Value, append(slices.Clone(sa.Value[sa.N-3:]), sb.Value...)) {
		t.Fatalf("capped window: %d samples, want the newest %d", newest.N, keep)
	}
	if len(newest.Planes) != keep*newest.InputSize || len(newest.DMask) != keep*newest.D {
		t.Fatal("capped window arrays have the wrong length")
	}
}

func TestLossesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	losses := []LossPoint{{Step: 10, LR: 0.02, Policy: 3.5, Value: 0.9, DWin: 0.6, Total: 5}, {Step: 20, LR: 0.002, Policy: 3.1, Value: 0.7, DWin: 0.5, Total: 4.3}}
	e, err := WriteLosses(dir, losses)
	if err != nil {
		t.Fatal(err)
	}
	m := &datasets.Manifest{Kind: NetworkKind, SchemaVersion: NetworkSchemaVersion, Files: []datasets.FileEntry{e}}
	if err := datasets.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLosses(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, losses) {
		t.Fatalf("read %+v, wrote %+v", got, losses)
	}
}
