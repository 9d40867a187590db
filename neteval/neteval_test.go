package neteval

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"lifezero/game"
	"lifezero/internal/testdata"
	"lifezero/nn"
	"lifezero/rzs"
)

func sharedData(t *testing.T, rel string) string { return testdata.Path(t, rel) }

func randomNet(t *testing.T, board int, seed uint64) *nn.Weights {
	t.Helper()
	c, err := nn.Preset(nn.Preset2x16, board)
	if err != nil {
		t.Fatal(err)
	}
	w, err := nn.NewWeights(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func loadProblem(t *testing.T, set, id string) *game.Problem {
	t.Helper()
	pr, err := game.LoadProblem(filepath.Join(sharedData(t, "problems/"+set), id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func TestPriorsFollowPolicyOverLegalMoves(t *testing.T) {
	pr := loadProblem(t, "killall7x7", "01")
	w := randomNet(t, 7, 5)
	e, err := New(w, FTL)
	if err != nil {
		t.Fatal(err)
	}
	pos := pr.StartPosition()
	moves := append(pos.LegalMoves(nil, &pr.Region), game.Pass)
	priors, _ := e.Evaluate(pos, pr, moves)
	if len(priors) != len(moves) {
		t.Fatalf("%d priors for %d moves", len(priors), len(moves))
	}
	var sum float64
	for _, p := range priors {
		if p < 0 {
			t.Fatalf("negative prior %v", p)
		}
		sum += float64(p)
	}
	if math.Abs(sum-1) > 1e-5 {
		t.Fatalf("priors sum to %v", sum)
	}
	// The priors are the policy's probabilities, rescaled by the mass the
	// policy gives the legal moves.
	raw, err := nn.NewEvaluator(w)
	if err != nil {
		t.Fatal(err)
	}
	planes := make([]float32, w.Config.InputSize())
	if err := w.Config.Encode(pos, pr, planes); err != nil {
		t.Fatal(err)
	}
	policy, _, _, err := raw.Forward(planes, 1)
	if err != nil {
		t.Fatal(err)
	}
	var mass float64
	for _, m := range moves {
		mass += float64(policy[0][nn.MoveIndex(&pos.Board, m)])
	}
	for i, m := range moves {
		want := float64(policy[0][nn.MoveIndex(&pos.Board, m)]) / mass
		if math.Abs(float64(priors[i])-want) > 1e-5 {
			t.Fatalf("move %s: prior %v, want %v", pos.PointString(m), priors[i], want)
		}
	}
}

func TestPriorsWithoutMassAreUniform(t *testing.T) {
	pos, _ := game.NewPosition(7)
	moves := []game.Point{pos.Point(0, 0), pos.Point(3, 3), game.Pass}
	policy := make([]float32, 50)
	policy[10] = 1 // all the mass on a move that is not a candidate
	for _, p := range nn.MovePriors(&pos.Board, policy, moves) {
		if math.Abs(float64(p)-1.0/3) > 1e-6 {
			t.Fatalf("priors %v, want uniform", p)
		}
	}
}

func TestDIndex(t *testing.T) {
	pr := loadProblem(t, "killall7x7", "01") // ftl_d 28, 20 moves played
	w := randomNet(t, 7, 1)
	ftl, _ := New(w, FTL)
	plain, _ := New(w, Value)
	pos := pr.StartPosition()
	if pos.MoveNumber() != 20 {
		t.Fatalf("problem 01 starts at move %d, want 20", pos.MoveNumber())
	}
	tests := []struct {
		name string
		e    *Evaluator
		ftlD int
		play int // moves to play from the start
		want int
	}{
		{"start: ftl_d minus moves played", ftl, 28, 0, 8},
		{"three moves deeper", ftl, 28, 3, 5},
		{"past ftl_d clamps to 1", ftl, 28, 12, 1},
		{"beyond D clamps to D", ftl, 500, 0, w.Config.D},
		{"no ftl_d: value head", ftl, 0, 0, 0},
		{"value mode", plain, 28, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := *pr
			p.FTLD = tt.ftlD
			q := pos.Copy()
			for range tt.play {
				legal := q.LegalMoves(nil, &p.Region)
				if err := q.Play(legal[0]); err != nil {
					t.Fatal(err)
				}
			}
			if got := tt.e.D(q, &p); got != tt.want {
				t.Errorf("D = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestValueModes(t *testing.T) {
	pr := loadProblem(t, "killall7x7", "01") // Black to play, White lives
	w := randomNet(t, 7, 9)
	raw, _ := nn.NewEvaluator(w)
	pos := pr.StartPosition()
	planes := make([]float32, w.Config.InputSize())
	if err := w.Config.Encode(pos, pr, planes); err != nil {
		t.Fatal(err)
	}
	_, value, dwin, err := raw.Forward(planes, 1)
	if err != nil {
		t.Fatal(err)
	}
	moves := pos.LegalMoves(nil, &pr.Region)
	ftl, _ := New(w, FTL)
	if _, v := ftl.Evaluate(pos, pr, moves); math.Abs(float64(v-dwin[0][8-1])) > 1e-6 {
		t.Errorf("FTL value %v, want d-win output 8 = %v", v, dwin[0][7])
	}
	plain, _ := New(w, Value)
	// Black (the killer) is to move: the living side's value is the
	// opposite of the side to move's.
	if _, v := plain.Evaluate(pos, pr, moves); math.Abs(float64(v-(1-value[0])/2)) > 1e-6 {
		t.Errorf("plain value %v, want (1-%v)/2", v, value[0])
	}
}

func TestCheckAndSaveLoad(t *testing.T) {
	w := randomNet(t, 7, 2)
	path := filepath.Join(t.TempDir(), "net.lznn")
	if err := w.Save(path); err != nil {
		t.Fatal(err)
	}
	e, err := Load(path, FTL)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Check(loadProblem(t, "cho19-dev", "001")); err == nil {
		t.Error("a 7x7 network accepted a 19x19 problem")
	}
	if err := e.Check(loadProblem(t, "killall7x7", "02")); err != nil {
		t.Error(err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing"), FTL); err == nil {
		t.Error("loading a missing file succeeded")
	}
	if _, err := ParseMode("komi"); err == nil {
		t.Error("ParseMode accepted an unknown mode")
	}
}

// The solver runs with the network evaluator and stays within its budget.
func TestSolveWithNetwork(t *testing.T) {
	pr := loadProblem(t, "killall7x7", "14")
	e, err := New(randomNet(t, 7, 3), FTL)
	if err != nil {
		t.Fatal(err)
	}
	res := rzs.Solve(context.Background(), pr, rzs.Options{Evaluator: e, Budget: 300})
	if res.Nodes > 300 || res.Nodes == 0 {
		t.Fatalf("solve used %d nodes with a budget of 300", res.Nodes)
	}
}
