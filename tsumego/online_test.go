package tsumego

import (
	"testing"

	"lifezero/game"
)

// TestOnlineRankerLearnsVerdicts trains a small model and checks its
// online learner: before a fit it ranks as the model does; told often
// enough that the model's lowest-ranked move of a position won where its
// highest did not, it ranks the two the other way round; and one verdict
// alone (fewer than a fit needs) changes nothing.
func TestOnlineRankerLearnsVerdicts(t *testing.T) {
	problems, set, model, _ := trainSmall(t, 200, 10)
	r := newRanker(NewFeaturizer(set), model)
	pos := problems[0].Position
	moves := Area(pos)
	rank := func(rk interface {
		Rank(*game.Position, []game.Point, []float64) error
	}) []float64 {
		scores := make([]float64, len(moves))
		if err := rk.Rank(pos, moves, scores); err != nil {
			t.Fatal(err)
		}
		return scores
	}
	want := rank(r)
	top, bottom := 0, 0
	for i, s := range want {
		if s > want[top] {
			top = i
		}
		if s < want[bottom] {
			bottom = i
		}
	}
	if want[top]-want[bottom] < 0.5 {
		t.Fatalf("the model ranks %d moves within %.2f: nothing to reorder", len(moves), want[top]-want[bottom])
	}
	o := r.Online()
	o.Learn(pos, moves[bottom], []game.Point{moves[top]})
	for i, s := range rank(o) {
		if s != want[i] {
			t.Fatalf("after one verdict, move %v scores %v, the model %v", moves[i], s, want[i])
		}
	}
	for range 4 * onlineFirstFit {
		o.Learn(pos, moves[bottom], []game.Point{moves[top], game.Pass})
	}
	verdicts, fits := o.Stats()
	if verdicts != 4*onlineFirstFit+1 || fits == 0 {
		t.Fatalf("%d verdicts, %d fits", verdicts, fits)
	}
	got := rank(o)
	if got[bottom] <= got[top] {
		t.Errorf("after %d verdicts (%d fits) the winner %v scores %.2f, the loser %v %.2f (the model: %.2f, %.2f)",
			verdicts, fits, moves[bottom], got[bottom], moves[top], got[top], want[bottom], want[top])
	}
	t.Logf("%d moves; winner %.2f -> %.2f, loser %.2f -> %.2f after %d fits", len(moves), want[bottom], got[bottom], want[top], got[top], fits)
}
