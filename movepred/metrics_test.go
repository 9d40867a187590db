package movepred

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"lifezero/featmodel"
)

// firstFeature scores a candidate by its first feature id, so hand-made
// samples can spell out the scores.
type firstFeature struct{}

func (firstFeature) Name() string { return "first-feature" }

func (firstFeature) Scores(s *featmodel.Sample, scores []float64) error {
	for i, c := range s.Candidates {
		scores[i] = float64(c[0])
	}
	return nil
}

// marker is a feature id that never scores (firstFeature only reads the
// first id) but is counted by the frequency analysis.
const marker = 100

// handSamples are four positions whose ranks are worked out by hand:
//
//	0: scores 5 9 1 7, played 7:        1 above, no tie  -> rank 2
//	1: scores 3 3 3 3, played 3:        4-way tie on top -> rank uniform on 1..4
//	2: scores 1..8, played 2:           6 above          -> rank 7
//	3: scores 4 4 9 9 9 1, played a 4:  3 above, 2 tied  -> rank uniform on 4..5
//
// The marker feature is on the top move of 0, on two of the four tied moves of
// 1 (the played one included) and on one of the three top moves of 3.
func handSamples() featmodel.Samples {
	return featmodel.Samples{
		{Candidates: []featmodel.Candidate{{5}, {9, marker}, {1}, {7}}, Played: 3, MoveNumber: 0},
		{Candidates: []featmodel.Candidate{{3, marker}, {3, marker}, {3}, {3}}, Played: 0, MoveNumber: 49},
		{Candidates: []featmodel.Candidate{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}}, Played: 1, MoveNumber: 50},
		{Candidates: []featmodel.Candidate{{4}, {4}, {9}, {9, marker}, {9}, {1}}, Played: 0, MoveNumber: 160},
	}
}

// handScores repeats the scores above for the log-likelihood, computed
// directly as s_played − ln Σ exp(s).
var handScores = [][]float64{{5, 9, 1, 7}, {3, 3, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8}, {4, 4, 9, 9, 9, 1}}
var handPlayed = []int{3, 0, 1, 0}

func handLogLikelihood(i int) float64 {
	z := 0.0
	for _, s := range handScores[i] {
		z += math.Exp(s)
	}
	return handScores[i][handPlayed[i]] - math.Log(z)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestMetricsOnHandMadeSamples(t *testing.T) {
	results, err := Evaluate(context.Background(), handSamples(), Options{}, firstFeature{})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if r.Player != "first-feature" || r.Positions != 4 || r.LegalMoves != 22 {
		t.Errorf("player %q, %d positions, %d legal moves; want first-feature, 4, 22", r.Player, r.Positions, r.LegalMoves)
	}
	// P(rank <= k) per sample, k = 1..10.
	perSample := [][]float64{
		{0, 1, 1, 1, 1, 1, 1, 1, 1, 1},
		{0.25, 0.5, 0.75, 1, 1, 1, 1, 1, 1, 1},
		{0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
		{0, 0, 0, 0.5, 1, 1, 1, 1, 1, 1},
	}
	for k := range 10 {
		want := (perSample[0][k] + perSample[1][k] + perSample[2][k] + perSample[3][k]) / 4
		if !near(r.TopK[k], want) {
			t.Errorf("top-%d = %v, want %v", k+1, r.TopK[k], want)
		}
	}
	if !near(r.Top1, 0.0625) || !near(r.Top5, 0.75) {
		t.Errorf("top1 %v, top5 %v; want 0.0625, 0.75", r.Top1, r.Top5)
	}
	if want := (2 + 2.5 + 7 + 4.5) / 4.0; !near(r.MeanRank, want) {
		t.Errorf("mean rank %v, want %v", r.MeanRank, want)
	}
	wantLL := (handLogLikelihood(0) + handLogLikelihood(1) + handLogLikelihood(2) + handLogLikelihood(3)) / 4
	if !near(r.MeanLogLikelihood, wantLL) {
		t.Errorf("mean log-likelihood %v, want %v", r.MeanLogLikelihood, wantLL)
	}
}

func TestPhaseBuckets(t *testing.T) {
	results, err := Evaluate(context.Background(), handSamples(), Options{}, firstFeature{})
	if err != nil {
		t.Fatal(err)
	}
	// Move numbers 0 and 49 share the first bucket, 50 opens the second,
	// nothing falls in 100..149, 160 is in 150..199.
	want := []Phase{
		{From: 0, To: 49, Positions: 2, Top1: 0.125, Top5: 1, MeanLogLikelihood: (handLogLikelihood(0) + handLogLikelihood(1)) / 2},
		{From: 50, To: 99, Positions: 1, Top1: 0, Top5: 0, MeanLogLikelihood: handLogLikelihood(2)},
		{From: 100, To: 149},
		{From: 150, To: 199, Positions: 1, Top1: 0, Top5: 1, MeanLogLikelihood: handLogLikelihood(3)},
	}
	got := results[0].Phases
	if len(got) != len(want) {
		t.Fatalf("%d phases, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.From != w.From || g.To != w.To || g.Positions != w.Positions || !near(g.Top1, w.Top1) ||
			!near(g.Top5, w.Top5) || !near(g.MeanLogLikelihood, w.MeanLogLikelihood) {
			t.Errorf("phase %d = %+v, want %+v", i, g, w)
		}
	}
	// Buckets of 100 moves merge the first two and the last two.
	results, err = Evaluate(context.Background(), handSamples(), Options{PhaseSize: 100}, firstFeature{})
	if err != nil {
		t.Fatal(err)
	}
	if p := results[0].Phases; len(p) != 2 || p[0].Positions != 3 || p[1].Positions != 1 || p[1].From != 100 || p[1].To != 199 {
		t.Errorf("phases of 100 moves: %+v", p)
	}
}

func TestFeatureFrequencies(t *testing.T) {
	results, err := Evaluate(context.Background(), handSamples(), Options{Frequencies: true}, firstFeature{})
	if err != nil {
		t.Fatal(err)
	}
	freq := map[int32]FeatureFrequency{}
	for _, f := range results[0].Features {
		freq[f.Feature] = f
	}
	tests := []struct {
		feature int32
		legal   int     // legal moves with it, out of 22
		played  int     // played moves with it, out of 4
		top     float64 // top-1 credit, out of 4
	}{
		// marker: top of 0 (1), 2 of the 4 tied tops of 1 (1/2), 1 of the 3
		// tied tops of 3 (1/3); played only in 1.
		{marker, 4, 1, 1 + 0.5 + 1.0/3},
		{3, 5, 1, 1},     // all of 1's tied tops, and a bottom move of 2
		{9, 4, 0, 1 + 1}, // top of 0 and all three tops of 3
		{4, 3, 1, 0},     // played in 3, never on top
		{8, 1, 0, 1},     // top of 2
		{2, 1, 1, 0},     // played in 2
		{1, 3, 0, 0},     // bottom moves
		{7, 2, 1, 0},     // played in 0, second
		{5, 2, 0, 0},     //
		{6, 1, 0, 0},     //
	}
	if len(results[0].Features) != len(tests) {
		t.Errorf("%d features counted, want %d", len(results[0].Features), len(tests))
	}
	for _, tt := range tests {
		f := freq[tt.feature]
		if !near(f.Legal, float64(tt.legal)/22) || !near(f.Played, float64(tt.played)/4) || !near(f.Predicted, tt.top/4) {
			t.Errorf("feature %d: %+v, want legal %d/22, played %d/4, predicted %v/4", tt.feature, f, tt.legal, tt.played, tt.top)
		}
	}
	if !slices.IsSortedFunc(results[0].Features, func(a, b FeatureFrequency) int { return int(a.Feature - b.Feature) }) {
		t.Error("features not sorted by id")
	}
	// |predicted − played|: 9 → 2/4; 2, 4, 7 and 8 → 1/4 (tied, by id);
	// marker → (11/6 − 1)/4; the others 0.
	var got []int32
	for _, f := range results[0].LargestDifferences(6) {
		got = append(got, f.Feature)
	}
	if want := []int32{9, 2, 4, 7, 8, marker}; !slices.Equal(got, want) {
		t.Errorf("largest differences %v, want %v", got, want)
	}
}

func TestResultJSON(t *testing.T) {
	results, err := Evaluate(context.Background(), handSamples(), Options{}, firstFeature{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(results[0])
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"player", "positions", "top1", "top5", "top_k", "mean_log_likelihood", "mean_rank", "phase"} {
		if _, ok := fields[key]; !ok {
			t.Errorf("JSON has no %q: %s", key, data)
		}
	}
	if _, ok := fields["features"]; ok {
		t.Errorf("features present without Options.Frequencies: %s", data)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil || back.Top1 != results[0].Top1 || len(back.Phases) != 4 {
		t.Errorf("decoding the JSON back: %+v, %v", back, err)
	}
}

func TestLogSoftmaxWithInfiniteScores(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		scores []float64
		i      int
		want   float64
	}{
		{[]float64{0, 0}, 0, -math.Log(2)},
		{[]float64{1000, 0}, 1, -1000},
		{[]float64{inf, 3, inf}, 2, -math.Log(2)},
		{[]float64{inf, 3, inf}, 1, math.Inf(-1)},
		{[]float64{-inf, -inf}, 0, -math.Log(2)},
		{[]float64{-inf, 0}, 0, math.Inf(-1)},
	}
	for _, tt := range tests {
		if got := LogSoftmax(tt.scores, tt.i); !(got == tt.want || near(got, tt.want)) {
			t.Errorf("LogSoftmax(%v, %d) = %v, want %v", tt.scores, tt.i, got, tt.want)
		}
	}
}

// fixed returns the same scores for every position.
type fixed []float64

func (fixed) Name() string { return "fixed" }
func (f fixed) Scores(s *featmodel.Sample, scores []float64) error {
	copy(scores, f)
	return nil
}

func TestImpossiblePlayedMoveIsFloored(t *testing.T) {
	samples := featmodel.Samples{{Candidates: []featmodel.Candidate{{0}, {1}}, Played: 1}}
	results, err := Evaluate(context.Background(), samples, Options{}, fixed{0, math.Inf(-1)})
	if err != nil {
		t.Fatal(err)
	}
	if ll := results[0].MeanLogLikelihood; ll != minLogProb {
		t.Errorf("mean log-likelihood %v, want the floor %v", ll, float64(minLogProb))
	}
	if _, err := json.Marshal(results[0]); err != nil {
		t.Errorf("result does not marshal: %v", err)
	}
}

func TestEvaluateRejectsBadInput(t *testing.T) {
	good := featmodel.Samples{{Candidates: []featmodel.Candidate{{0}, {1}}, Played: 1}}
	tests := []struct {
		name    string
		samples featmodel.Samples
		ranker  Ranker
		opt     Options
		want    string
	}{
		{"played out of range", featmodel.Samples{good[0], {Candidates: []featmodel.Candidate{{0}}, Played: 2}}, firstFeature{}, Options{}, "sample 1"},
		{"NaN score", good, fixed{math.NaN(), 0}, Options{}, "NaN"},
		{"negative phase size", good, firstFeature{}, Options{PhaseSize: -1}, "phase_size"},
	}
	for _, tt := range tests {
		_, err := Evaluate(context.Background(), tt.samples, tt.opt, tt.ranker)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to say %q", tt.name, err, tt.want)
		}
	}
	if _, err := Evaluate(context.Background(), good, Options{}); err == nil {
		t.Error("no players: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evaluate(ctx, good, Options{}, firstFeature{}); err == nil {
		t.Error("cancelled context: no error")
	}
}
