package movepred

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"lifezero/featmodel"
)

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed+1))
}

func TestModelRankersUseTheModelsProbabilities(t *testing.T) {
	// One position, moves {0}, {1,2}, {3}, {0,3}; {3} played.
	samples := featmodel.Samples{{Candidates: []featmodel.Candidate{{0}, {1, 2}, {3}, {0, 3}}, Played: 2}}

	// BT with γ = 2, 0.5, 1, 4: strengths 2, 0.5, 4, 8, so P({3}) = 4/14.5
	// and {0,3} ranks first.
	bt, err := featmodel.NewBTModel([]float64{2, 0.5, 1, 4})
	if err != nil {
		t.Fatal(err)
	}
	// FBT and LFR with w = (1, 0, -1, 0.5) and factors (k = 1) 1, 2, 3, -1:
	// y = 1, 0-1+2·3 = 5, 0.5, 1+0.5+1·(-1) = 0.5.
	w, v := []float64{1, 0, -1, 0.5}, []float64{1, 2, 3, -1}
	fbt, err := featmodel.NewFBTModel(w, v, 1)
	if err != nil {
		t.Fatal(err)
	}
	lfr, err := featmodel.NewLFRModel(w, v, 1)
	if err != nil {
		t.Fatal(err)
	}
	fmLL := 0.5 - math.Log(math.Exp(1)+math.Exp(5)+2*math.Exp(0.5))
	tests := []struct {
		model    featmodel.Model
		top1     float64
		top5     float64
		rank     float64
		wantLL   float64
		wantName string
	}{
		{bt, 0, 1, 2, math.Log(4 / 14.5), "bt"},
		{fbt, 0, 1, 3.5, fmLL, "fbt"}, // tied with {0,3} for places 3 and 4
		{lfr, 0, 1, 3.5, fmLL, "lfr"},
	}
	for _, tt := range tests {
		results, err := Evaluate(context.Background(), samples, Options{}, FromModel(tt.model))
		if err != nil {
			t.Fatal(err)
		}
		r := results[0]
		if r.Player != tt.wantName || !near(r.Top1, tt.top1) || !near(r.Top5, tt.top5) || !near(r.MeanRank, tt.rank) || !near(r.MeanLogLikelihood, tt.wantLL) {
			t.Errorf("%s: %+v; want top1 %v, top5 %v, rank %v, log-likelihood %v", tt.wantName, r, tt.top1, tt.top5, tt.rank, tt.wantLL)
		}
	}
	if got := (&ModelRanker{Model: bt, Label: "bt-mm"}).Name(); got != "bt-mm" {
		t.Errorf("labelled ranker named %q", got)
	}
}

// uniformSamples returns positions of ten moves, the played one chosen at
// random; their features do not matter to the random player.
func uniformSamples(n int) featmodel.Samples {
	rng := newRand(77)
	out := make(featmodel.Samples, n)
	for i := range out {
		cands := make([]featmodel.Candidate, 10)
		for j := range cands {
			cands[j] = featmodel.Candidate{int32(j)}
		}
		out[i] = featmodel.Sample{Candidates: cands, Played: rng.IntN(10), MoveNumber: i % 200}
	}
	return out
}

func TestRandomPlayerIsTheChanceBaseline(t *testing.T) {
	samples := uniformSamples(4000)
	results, err := Evaluate(context.Background(), samples, Options{}, NewRandom(newRand(1)))
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	// Top-k of a random ranking of 10 moves is k/10; the binomial standard
	// deviation over 4000 positions is below 0.008.
	if math.Abs(r.Top1-0.1) > 0.025 || math.Abs(r.Top5-0.5) > 0.04 || math.Abs(r.MeanRank-5.5) > 0.2 {
		t.Errorf("random player: top1 %v, top5 %v, mean rank %v; want about 0.1, 0.5, 5.5", r.Top1, r.Top5, r.MeanRank)
	}
	if !near(r.MeanLogLikelihood, -math.Log(10)) {
		t.Errorf("random player log-likelihood %v, want ln(1/10)", r.MeanLogLikelihood)
	}
	again, err := Evaluate(context.Background(), samples, Options{}, NewRandom(newRand(1)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again[0], r) {
		t.Error("two random players with the same seed disagree")
	}
	other, err := Evaluate(context.Background(), samples, Options{}, NewRandom(newRand(2)))
	if err != nil {
		t.Fatal(err)
	}
	if other[0].Top1 == r.Top1 {
		t.Error("random players with seeds 1 and 2 have the same top-1")
	}
}

// btSamples draws positions from a Bradley-Terry model with the given
// log-gammas: 15 moves of 1 to 3 features, the played one drawn with
// probability proportional to its strength.
func btSamples(rng *rand.Rand, logGamma []float64, n int) featmodel.Samples {
	out := make(featmodel.Samples, n)
	for i := range out {
		cands := make([]featmodel.Candidate, 15)
		strength := make([]float64, len(cands))
		total := 0.0
		for j := range cands {
			for range 1 + rng.IntN(3) {
				f := rng.Int32N(int32(len(logGamma)))
				if !contains(cands[j], f) {
					cands[j] = append(cands[j], f)
					strength[j] += logGamma[f]
				}
			}
			strength[j] = math.Exp(strength[j])
			total += strength[j]
		}
		x, played := rng.Float64()*total, 0
		for x > strength[played] && played < len(cands)-1 {
			x -= strength[played]
			played++
		}
		out[i] = featmodel.Sample{Candidates: cands, Played: played, MoveNumber: i % 250}
	}
	return out
}

func contains(c featmodel.Candidate, f int32) bool {
	for _, g := range c {
		if g == f {
			return true
		}
	}
	return false
}

func TestTrainedModelsBeatTheRandomPlayer(t *testing.T) {
	rng := newRand(5)
	logGamma := make([]float64, 30)
	for i := range logGamma {
		logGamma[i] = 1.2 * rng.NormFloat64()
	}
	trainSet, testSet := btSamples(rng, logGamma, 3000), btSamples(rng, logGamma, 1000)
	ctx := context.Background()
	bt, err := featmodel.TrainBT(ctx, trainSet, featmodel.DefaultBTConfig())
	if err != nil {
		t.Fatal(err)
	}
	lfr, err := featmodel.TrainLFR(ctx, trainSet, featmodel.DefaultLFRConfig(), newRand(1))
	if err != nil {
		t.Fatal(err)
	}
	fbt, err := featmodel.TrainFBT(ctx, trainSet, featmodel.DefaultFBTConfig(), newRand(1))
	if err != nil {
		t.Fatal(err)
	}
	rankers := []Ranker{FromModel(bt), FromModel(lfr), FromModel(fbt), NewRandom(newRand(3))}
	results, err := Evaluate(ctx, testSet, Options{Frequencies: true}, rankers...)
	if err != nil {
		t.Fatal(err)
	}
	random := results[3]
	for _, r := range results[:3] {
		t.Logf("%s: top1 %.3f top5 %.3f log-likelihood %.3f; random %.3f %.3f %.3f",
			r.Player, r.Top1, r.Top5, r.MeanLogLikelihood, random.Top1, random.Top5, random.MeanLogLikelihood)
		if r.Top1 < 3*random.Top1 || r.Top5 < random.Top5+0.2 || r.MeanLogLikelihood < random.MeanLogLikelihood+0.3 {
			t.Errorf("%s does not beat the random player by a wide margin", r.Player)
		}
		if len(r.Phases) != 5 || r.Phases[4].From != 200 || r.Phases[4].To != 249 {
			t.Errorf("%s: phases %+v, want five buckets of 50 moves", r.Player, r.Phases)
		}
	}
	// Evaluating a player alone gives the same result as alongside others.
	alone, err := Evaluate(ctx, testSet, Options{Frequencies: true}, FromModel(fbt))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(alone[0], results[2]) {
		t.Error("fbt evaluated alone differs from fbt evaluated with other players")
	}
}
