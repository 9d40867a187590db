package evaluate

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/featmodel"
	"lifezero/movecands"
	"lifezero/movepred"
)

// firstFeature ranks a move by its lowest feature id (lower is better): a
// player whose choices are easy to work out by hand.
type firstFeature struct{}

func (firstFeature) Name() string { return "first" }
func (firstFeature) Scores(s *featmodel.Sample, scores []float64) error {
	for i, c := range s.Candidates {
		scores[i] = -1000
		if len(c) > 0 {
			scores[i] = -float64(c[0])
		}
	}
	return nil
}

// evalResults evaluates two players on random positions spread over 400
// moves, with feature frequencies.
func evalResults(t *testing.T) []movepred.Result {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	var samples featmodel.Samples
	for i := range 300 {
		s := featmodel.Sample{MoveNumber: (i * 7) % 400, Played: rng.IntN(5)}
		for range 5 {
			// Feature 9 is in every move, like the game phase.
			s.Candidates = append(s.Candidates, featmodel.Candidate{int32(rng.IntN(4)), int32(4 + rng.IntN(4)), 9})
		}
		samples = append(samples, s)
	}
	res, err := movepred.Evaluate(context.Background(), samples, movepred.Options{Frequencies: true},
		firstFeature{}, movepred.NewRandom(rand.New(rand.NewPCG(1, 1))))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestMovePredResultsRoundTrip(t *testing.T) {
	results := evalResults(t)
	dir := t.TempDir()
	m, err := WriteMovePredResults(dir, results, datasets.Manifest{Stage: "movepred", InputHash: "h"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 2 || m.Kind != MovePredKind {
		t.Fatalf("manifest: %d rows, kind %q", m.Rows, m.Kind)
	}
	got, _, err := ReadMovePredResults(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, results) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, results)
	}
	if len(got[0].Features) != 9 || len(got[0].Phases) != 8 {
		t.Errorf("%d features, %d phases; want 9 and 8", len(got[0].Features), len(got[0].Phases))
	}
	if _, _, err := ReadMovePredResults(context.Background(), t.TempDir()); err == nil {
		t.Error("reading an empty dir: no error")
	}
}

func TestMergedPhases(t *testing.T) {
	r := movepred.Result{Player: "p", Phases: []movepred.Phase{
		{From: 0, To: 49, Positions: 10, Top1: 0.5},
		{From: 50, To: 99, Positions: 0},
		{From: 250, To: 299, Positions: 4, Top1: 0.25},
		{From: 300, To: 349, Positions: 3, Top1: 1, Top5: 1},
		{From: 350, To: 399, Positions: 1, Top1: 0, Top5: 1},
	}}
	labels, phases := mergedPhases([]movepred.Result{r})
	if !reflect.DeepEqual(labels, []string{"0-49", "250-299", "300+"}) {
		t.Fatalf("labels %v", labels)
	}
	tail := phases[0][2]
	if tail.Positions != 4 || math.Abs(tail.Top1-0.75) > 1e-12 || math.Abs(tail.Top5-1) > 1e-12 {
		t.Errorf("merged tail %+v, want 4 positions, top-1 0.75 (3 of 4), top-5 1", tail)
	}
}

func TestMovePredSection(t *testing.T) {
	results := evalResults(t)
	dir := t.TempDir()
	name := func(id int32) string { return "feat" + string(rune('A'+id)) }
	if err := WriteMovePredSection(dir, results, MovePredReport{Data: "300 positions", FeatureName: name}); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"300 positions", "| first | 300 |", "| random | 300 |", "![top-1 accuracy per game phase](movepred-phases.png)",
		"| 0-49 |", "| 300+ |", "| featA |", "Largest differences between first's first choices", "Feature frequencies"} {
		if !strings.Contains(s.Markdown, want) {
			t.Errorf("section lacks %q:\n%s", want, s.Markdown)
		}
	}
	if strings.Contains(s.Markdown, "between random's") {
		t.Error("the random player got a differences table")
	}
	if strings.Contains(s.Markdown, "| featJ |") {
		t.Error("feature 9, in every move, is in the frequency table")
	}
	decodePNG(t, filepath.Join(dir, ReportDir, "movepred-phases.png"))
	r := results[0]
	row := "| first | 300 | " + pct(r.Top1) + " | " + pct(r.Top5) + " | " + pct(r.TopK[9]) + " |"
	if !strings.Contains(s.Markdown, row) {
		t.Errorf("section lacks the row %q:\n%s", row, s.Markdown)
	}
}

func TestFeatureTrainSectionAndLossPlot(t *testing.T) {
	dir := t.TempDir()
	r := FeatureTrainReport{Model: "fbt", Samples: 100, Features: 8, Settings: "k 4", Seconds: 1.5, PeakBytes: 64 << 20,
		Loss: []float64{3, 2.5, 2.2}}
	if err := WriteFeatureTrainSection(dir, r); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Feature model: fbt", "| training positions | 100 |", "| final loss (mean negative log-likelihood) | 2.2000 |",
		"| peak memory (process) | 64 MB |", "(loss-fbt.png)"} {
		if !strings.Contains(s.Title+"\n"+s.Markdown, want) {
			t.Errorf("section lacks %q:\n%s", want, s.Markdown)
		}
	}
	decodePNG(t, filepath.Join(dir, ReportDir, "loss-fbt.png"))
	path := filepath.Join(t.TempDir(), "model-loss.png")
	if err := SaveLinePlotAs(path, LossCurve("lfr", r.Loss)); err != nil {
		t.Fatal(err)
	}
	decodePNG(t, path)
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("SaveLinePlotAs left %d entries beside the plot", len(entries))
	}
}

func TestMoveCandsSection(t *testing.T) {
	dir := t.TempDir()
	s := movecands.Summary{GamesRead: 300, OutOfRange: map[string]int{datasets.SkipAfterTo: 150}, InRange: 150, Sampled: 150,
		Used: 149, Skipped: map[string]int{movecands.SkipIllegal: 1}, Positions: 2980, Candidates: 2980 * 250,
		NumFeatures: 27314, Dates: datasets.DateRange{From: "2009", To: "2009"}, PositionsPerGame: 20, Seed: 1}
	if err := WriteMoveCandsSection(dir, s); err != nil {
		t.Fatal(err)
	}
	sec, err := ReadSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Move candidates 2009", "| outside 2009: after to date | 150 |", "| skipped: illegal move | 1 |",
		"| candidate moves per position | 250.0 |", "| positions per game | 20 |"} {
		if !strings.Contains(sec.Title+"\n"+sec.Markdown, want) {
			t.Errorf("section lacks %q:\n%s", want, sec.Markdown)
		}
	}
}
