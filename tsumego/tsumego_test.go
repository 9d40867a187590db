package tsumego

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"lifezero/featmodel"
	"lifezero/features"
	"lifezero/game"
	"lifezero/internal/testdata"
	"lifezero/rzs"
	"lifezero/sgf"
)

// diagram builds a 9x9 position from rows of '.', 'X' (Black), 'O'
// (White), Black to move.
func diagram(t *testing.T, rows ...string) *game.Position {
	t.Helper()
	pos, err := game.NewPosition(len(rows))
	if err != nil {
		t.Fatal(err)
	}
	for y, row := range rows {
		for x, c := range strings.ReplaceAll(row, " ", "") {
			switch c {
			case 'X':
				err = pos.Place(game.Black, pos.Point(x, y))
			case 'O':
				err = pos.Place(game.White, pos.Point(x, y))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return pos
}

func ldNames(pos *game.Position, m game.Point) []string {
	l := LD{}
	names := l.Names()
	var out []string
	for _, id := range l.Append(pos, m, nil) {
		out = append(out, names[id])
	}
	return out
}

// TestLDFeatures checks the features against eye shapes whose vital
// points every Go player knows: the middle of a straight three, the centre
// of a bent three, and the points of a square four, none of which has a
// vital point (all tie).
func TestLDFeatures(t *testing.T) {
	// White's straight three in the corner, Black to move.
	straight := diagram(t,
		"...O.....",
		"OOOO.....",
		".........",
		".........",
		".........",
		".........",
		".........",
		".........",
		".........")
	// Black's square four on the edge, Black to move.
	square := diagram(t,
		"X..X.....",
		"X..X.....",
		"XXXX.....",
		".........",
		".........",
		".........",
		".........",
		".........",
		".........")
	for _, tc := range []struct {
		name   string
		pos    *game.Position
		x, y   int
		want   []string
		absent []string
	}{
		{"straight three middle", straight, 1, 0, []string{"ld_region:3:opp", "ld_vital:opp:3-4", "ld_libs:2", "ld_opp_libs:4+"}, nil},
		{"straight three end", straight, 0, 0, []string{"ld_region:3:opp"}, []string{"ld_vital:opp:3-4"}},
		{"square four", square, 1, 0, []string{"ld_region:4:own", "ld_own_weak:3+"}, []string{"ld_vital:own:3-4"}},
		{"open board", square, 6, 6, []string{"ld_region:open:none", "ld_libs:4"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ldNames(tc.pos, tc.pos.Point(tc.x, tc.y))
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("features %v lack %s", got, w)
				}
			}
			for _, w := range tc.absent {
				if slices.Contains(got, w) {
					t.Errorf("features %v have %s", got, w)
				}
			}
		})
	}
}

// TestContainsUnderSymmetry: a problem is found in every symmetric,
// recoloured and (along a free edge) shifted copy of itself, and not in a
// position missing one of its stones. (A shift onto an edge it did not
// touch is not searched: the edge is part of a shape.)
func TestContainsUnderSymmetry(t *testing.T) {
	pos := diagram(t,
		".........",
		"..XXO....",
		"XXOO.O...",
		"OO.......",
		".........",
		".........",
		".........",
		".........",
		".........")
	p := Problem{Name: "side", Position: pos}
	for s := game.Symmetry(0); s < 8; s++ {
		q := pos.Transformed(s)
		if !Contains(q, p) {
			t.Errorf("symmetry %d: not found", s)
		}
	}
	shifted := diagram(t,
		".........",
		".........",
		".........",
		".........",
		"..XXO....",
		"XXOO.O...",
		"OO.......",
		".........",
		".........")
	if !Contains(shifted, p) {
		t.Error("not found shifted along the left edge")
	}
	swapped := diagram(t,
		".........",
		"..OOX....",
		"OOXX.X...",
		"XX.......",
		".........",
		".........",
		".........",
		".........",
		".........")
	if !Contains(swapped, p) {
		t.Error("not found with the colours swapped")
	}
	missing := diagram(t,
		".........",
		"..XXO....",
		"XXOO.....",
		"OO.......",
		".........",
		".........",
		".........",
		".........",
		".........")
	if Contains(missing, p) {
		t.Error("found in a position missing a stone")
	}
}

// TestLoadRejectsBadFiles: a first move by the wrong side or on a stone
// is an error naming the file.
func TestLoadRejectsBadFiles(t *testing.T) {
	for name, text := range map[string]string{
		"wrong side": "(;SZ[9]PL[B]AB[aa]AW[bb];W[cc])",
		"on a stone": "(;SZ[9]PL[B]AB[aa]AW[bb];B[bb])",
		"no move":    "(;SZ[9]PL[B]AB[aa]AW[bb])",
	} {
		coll, err := sgf.ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := game.SetupPosition(coll[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := firstMove(pos, coll[0]); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestModelPredictsBookMoves trains on Cho Chikun's elementary problems and
// checks by 3-fold cross-validation (each problem predicted by a model that
// never saw it) that the model ranks the book's first move far above
// chance, and better with the life-and-death features than without.
func TestModelPredictsBookMoves(t *testing.T) {
	problems, err := Load(testdata.Path(t, "tsumego", "cho-elementary"))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 900 {
		t.Fatalf("%d problems, want 900", len(problems))
	}
	cfg := features.DefaultConfig()
	cfg.NoLadders = true
	set, err := features.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	top1 := map[bool]float64{}
	for _, noLD := range []bool{false, true} {
		tc := TrainConfig{NoLD: noLD, Folds: 3}
		tc.BT.MaxIterations, tc.BT.Tolerance = 50, 1e-4
		_, meta, err := Train(context.Background(), problems, set, tc)
		if err != nil {
			t.Fatal(err)
		}
		a := meta.CrossValidated
		t.Logf("no-ld %v: cross-validated top-1 %.3f top-3 %.3f over %d (uniform %.3f)", noLD, a.Top1, a.Top3, a.Samples, a.UniformTop1)
		if a.Top1 < 5*a.UniformTop1 {
			t.Errorf("no-ld %v: top-1 %.3f is not far above chance %.3f", noLD, a.Top1, a.UniformTop1)
		}
		top1[noLD] = a.Top1
	}
	if top1[false] <= top1[true] {
		t.Errorf("the life-and-death features do not help: top-1 %.3f with, %.3f without", top1[false], top1[true])
	}
}

// TestSavedRankerGuidesSolver trains a small model, saves and reloads it,
// checks that the reloaded ranker scores moves as the trained model does,
// and proves two 19x19 problems with it as the solver's prior, each
// result agreeing with the file's winner.
func TestSavedRankerGuidesSolver(t *testing.T) {
	problems, set, model, meta := trainSmall(t, 300, 20)
	dir := t.TempDir()
	if err := Save(dir, model, set, meta); err != nil {
		t.Fatal(err)
	}
	ranker, loaded, err := LoadRanker(dir)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.LDFeatures != NumLD || loaded.Problems != 300 {
		t.Errorf("meta after the round trip: %+v", loaded)
	}
	p := problems[0]
	moves := Area(p.Position)
	scores := make([]float64, len(moves))
	if err := ranker.Rank(p.Position, moves, scores); err != nil {
		t.Fatal(err)
	}
	smp, err := NewFeaturizer(set).Samples([]Problem{{Name: p.Name, Position: p.Position, Answer: moves[0]}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range smp[0].Candidates {
		if want := model.Score(c); math.Abs(want-scores[i]) > 1e-9*math.Abs(want) {
			t.Fatalf("move %d: reloaded ranker scores %v, the trained model %v", i, scores[i], want)
		}
	}
	for _, id := range []string{"027", "035"} {
		pr, err := game.LoadProblem(testdata.Path(t, "problems", "cho19-dev", id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		counted := &countingRanker{r: ranker}
		ev := rzs.Learned{Base: rzs.LDB(), Ranker: counted}
		res := rzs.Solve(context.Background(), pr, rzs.Options{Budget: 50000, Evaluator: ev})
		// Learned falls back to the base priors when ranking fails; every
		// move the solver generates (the killer's pass included) must rank.
		if counted.calls == 0 || counted.failed > 0 {
			t.Errorf("%s: %d of %d rankings failed", id, counted.failed, counted.calls)
		}
		if res.Status == rzs.Unknown {
			t.Errorf("%s: unproven in %d nodes", id, res.Nodes)
			continue
		}
		if got := res.Status == rzs.Win; got != (pr.Living() == pr.Winner) {
			t.Errorf("%s: %v for the living side %v, the file's winner is %v", id, res.Status, pr.Living(), pr.Winner)
		}
		t.Logf("%s: %v in %d nodes", id, res.Status, res.Nodes)
	}
}

// trainSmall trains a model on the first n elementary problems, with at
// most iterations MM iterations, and returns the problems (all of them),
// the feature set, the model and its meta.
func trainSmall(t *testing.T, n, iterations int) ([]Problem, *features.Extractor, featmodel.Model, Meta) {
	t.Helper()
	problems, err := Load(testdata.Path(t, "tsumego", "cho-elementary"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := features.New(features.Config{Pattern3Liberties: true, NoLadders: true})
	if err != nil {
		t.Fatal(err)
	}
	tc := TrainConfig{Folds: 2}
	tc.BT.MaxIterations = iterations
	model, meta, err := Train(context.Background(), problems[:n], set, tc)
	if err != nil {
		t.Fatal(err)
	}
	return problems, set, model, meta
}

// countingRanker counts a ranker's calls and failures.
type countingRanker struct {
	r             rzs.MoveRanker
	calls, failed int
}

func (c *countingRanker) Rank(pos *game.Position, moves []game.Point, scores []float64) error {
	c.calls++
	err := c.r.Rank(pos, moves, scores)
	if err != nil {
		c.failed++
	}
	return err
}

// TestCandidatesMatchOneMoveAtATime checks that Candidates, which reads
// the blocks' liberties from the 9-dan features' analysis of the position,
// gives every move the ids that extracting it alone gives (LD.Append
// walks each block afresh), on the 19x19 problems and on positions a few
// random moves into them, where blocks have merged, shrunk and been
// captured.
func TestCandidatesMatchOneMoveAtATime(t *testing.T) {
	set, err := features.New(features.Config{Pattern3Liberties: true, NoLadders: true})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFeaturizer(set)
	var s Scratch
	var mv features.Moves
	noHistory := features.History{Last: game.NoPoint, OwnPrev: game.NoPoint}
	for _, id := range []string{"001", "017", "055", "059", "061", "063"} {
		pr, err := game.LoadProblem(testdata.Path(t, "problems", "cho19-dev", id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		pos := pr.Start.Copy()
		for step := range 12 {
			moves := Area(pos)
			if err := set.ExtractMoves(pos, noHistory, moves, &mv); err != nil {
				t.Fatal(err)
			}
			err := f.Candidates(pos, moves, &s, func(i int, ids []int32) {
				want := f.LD.Append(pos, moves[i], slices.Clone(mv.Features(i)))
				if !slices.Equal(ids, want) {
					t.Errorf("%s step %d move %s: ids %v, alone %v", id, step, pos.PointString(moves[i]), ids, want)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			// The next position: a move spread over the area by the step.
			if len(moves) == 0 || pos.Play(moves[(step*37)%len(moves)]) != nil {
				break
			}
		}
	}
}
