package rzs

import (
	"context"
	"math/rand/v2"
	"testing"

	"lifezero/game"
)

// TestPatternsFromOtherPositions is the soundness test of a pattern
// database built from other positions under the same rules (lz patterns
// build, rztstore.LoadAll): the tables of searches of a problem's variants
// (its start after one to three random moves, with a fresh history:
// another position of the same fingerprint) are preloaded, and the
// problem's solve agrees with the exhaustive reference. The test fails if
// the preloaded patterns never change a search, which would leave it
// checking nothing.
func TestPatternsFromOtherPositions(t *testing.T) {
	want := 150
	if testing.Short() {
		want = 40
	}
	rng := rand.New(rand.NewPCG(61, 67))
	ctx := context.Background()
	opts := Options{Budget: 200000, MaxDepth: 60, Evaluator: LDB(), DepthDiscount: 0.9, FPUReduction: 0.3, Safety: true, ProofBonus: 0.1}
	compared, changed, preloaded := 0, 0, 0
	for tries := 0; compared < want && tries < 20*want; tries++ {
		pr := randomProblem(rng, 10)
		ref, err := NewReference(pr, 200_000).Solve(pr.StartPosition(), pr.Crucial)
		if err != nil {
			continue
		}
		var recs []PatternRecord
		for range 4 {
			v, ok := variant(rng, pr)
			if !ok {
				continue
			}
			if ProblemFingerprint(v) != ProblemFingerprint(pr) {
				t.Fatal("a variant has other rules than its problem")
			}
			tb := NewTreeTable(v, TableOptions{})
			o := opts
			o.Budget, o.Table = 20000, tb
			Solve(ctx, v, o)
			recs = append(recs, tb.ExportPatterns()...)
		}
		if len(recs) == 0 {
			continue
		}
		tb := NewTreeTable(pr, TableOptions{})
		if err := tb.ImportPatterns(recs); err != nil {
			t.Fatal(err)
		}
		o := opts
		o.Table = tb
		res := Solve(ctx, pr, o)
		if res.Status != Unknown && res.Status != ref {
			t.Fatalf("with %d patterns of other positions preloaded the solver says %v, the reference %v:\n%v",
				len(recs), res.Status, ref, pr.Start)
		}
		o.Table = NewTreeTable(pr, TableOptions{})
		if plain := Solve(ctx, pr, o); plain.Nodes != res.Nodes {
			changed++
		}
		compared++
		preloaded += len(recs)
	}
	if compared < want {
		t.Fatalf("only %d problems compared, want %d", compared, want)
	}
	if changed == 0 {
		t.Errorf("the preloaded patterns changed no search of %d", compared)
	}
	t.Logf("%d problems agree with the reference with %d patterns of other positions preloaded; the patterns changed %d searches",
		compared, preloaded, changed)
}

// variant returns pr with its start after one to three random legal moves
// in its region and a fresh history: another position under the same
// rules. It reports false when the moves decide the problem.
func variant(rng *rand.Rand, pr *game.Problem) (*game.Problem, bool) {
	v := *pr
	v.Start = pr.Start.Copy()
	var moves []game.Point
	for range 1 + rng.IntN(3) {
		moves = v.Start.LegalMoves(moves[:0], &v.Region)
		if len(moves) == 0 {
			return nil, false
		}
		if err := v.Start.Play(moves[rng.IntN(len(moves))]); err != nil {
			return nil, false
		}
	}
	if v.Judge(v.Start, &v.Crucial).Outcome != game.Undecided {
		return nil, false
	}
	v.Start.ClearHistory()
	return &v, true
}
