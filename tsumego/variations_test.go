package tsumego

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"lifezero/game"
	"lifezero/internal/testdata"
	"lifezero/rzs"
)

// TestVariationSamples checks the variations of book problems and their
// labels against the solver run afresh: a variation is reproducible from
// its seed, a few moves from its book position and undecided for either
// side living; each label is a legal board move of the side to move, tied
// to the book problem it was drawn from, and a new search (another
// evaluator) from the position after it never proves the mover's loss.
func TestVariationSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("proves book variations")
	}
	problems, err := Load(testdata.Path(t, "tsumego", "cho-elementary"))
	if err != nil {
		t.Fatal(err)
	}
	problems = problems[:24]
	cfg := VariationConfig{Positions: 24, Seed: 3, Proof: ProofConfig{Budget: 3000, Workers: 2}}
	samples, st, err := VariationSamples(context.Background(), problems, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", st)
	if st.Problems != cfg.Positions || st.Samples != len(samples) || st.Proven == 0 || len(samples) == 0 {
		t.Fatalf("stats %+v for %d samples: nothing proven or counted wrong", st, len(samples))
	}
	cfg.defaults()
	for i, book := range problems[:6] {
		a, okA := drawVariation(book, cfg, rand.New(rand.NewPCG(cfg.Seed, uint64(i))))
		b, okB := drawVariation(book, cfg, rand.New(rand.NewPCG(cfg.Seed, uint64(i))))
		if okA != okB || okA && a.Position.Hash() != b.Position.Hash() {
			t.Errorf("%s: two draws from one seed differ", book.Name)
		}
		if !okA {
			continue
		}
		added := stoneCount(a.Position) - stoneCount(book.Position)
		if added > cfg.MaxMoves || a.Position.Hash() == book.Position.Hash() {
			t.Errorf("%s: the variation has %d more stones than the book's position (at most %d moves)", book.Name, added, cfg.MaxMoves)
		}
		if _, ok := undecidedProblem(a.Position); !ok {
			t.Errorf("%s: the variation is decided", book.Name)
		}
	}
	checkSamplesRoundTrip(t, samples)
	books := map[string]bool{}
	for _, p := range problems {
		books[p.Name] = true
	}
	decided := 0
	for _, s := range samples {
		if !books[s.From] || !strings.HasPrefix(s.Name, s.From+"/variation-") {
			t.Fatalf("%s: From %q is not the book problem it was drawn from", s.Name, s.From)
		}
		if s.Answer == game.Pass || !s.Position.IsLegal(s.Answer) {
			t.Fatalf("%s: label %v is not a legal board move", s.Name, s.Answer)
		}
		living := game.Black
		if strings.Contains(s.Name, "/W-lives/") {
			living = game.White
		}
		mover := s.Position.ToMove()
		pr, ok := proofProblem(Problem{Position: s.Position}, living)
		if !ok {
			t.Fatalf("%s: no stone of the living side", s.Name)
		}
		if err := pr.Start.Play(s.Answer); err != nil {
			t.Fatal(err)
		}
		res := rzs.Solve(context.Background(), pr, rzs.Options{Budget: 20000, Evaluator: rzs.LD{}})
		if res.Status == rzs.Unknown {
			continue
		}
		decided++
		if (res.Status == rzs.Win) != (mover == living) {
			t.Errorf("%s: the label %s loses for %v (a search with another evaluator proved it)", s.Name, s.Position.PointString(s.Answer), mover)
		}
	}
	t.Logf("%d of %d labels checked by a second search", decided, len(samples))
	if decided == 0 {
		t.Errorf("none of the %d labels' positions was decided by the second search: nothing was checked", len(samples))
	}
}

func stoneCount(pos *game.Position) int {
	b, w := stonesOf(pos, game.Black), stonesOf(pos, game.White)
	return b.Len() + w.Len()
}

func stonesOf(pos *game.Position, c game.Color) game.PointSet {
	var s game.PointSet
	b := &pos.Board
	for y := range b.Size() {
		for x := range b.Size() {
			if p := b.Point(x, y); b.At(p) == c {
				s.Add(p)
			}
		}
	}
	return s
}
