package rzs

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"lifezero/game"
)

// pointLearners is a LearnerSource whose learners score a move by the
// verdicts on its point so far (+1 won, -1 lost), so that what a search
// learns reorders its later priors. It counts the learners made and the
// verdicts they got.
type pointLearners struct {
	made, verdicts atomic.Int64
}

func (p *pointLearners) Rank(pos *game.Position, moves []game.Point, scores []float64) error {
	clear(scores[:len(moves)])
	return nil
}

func (p *pointLearners) NewLearner() ProofLearner {
	p.made.Add(1)
	return &pointLearner{src: p}
}

type pointLearner struct {
	src   *pointLearners
	mu    sync.Mutex
	score map[game.Point]float64
}

func (l *pointLearner) Rank(pos *game.Position, moves []game.Point, scores []float64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, m := range moves {
		scores[i] = l.score[m]
	}
	return nil
}

func (l *pointLearner) Learn(pos *game.Position, won game.Point, lost []game.Point) {
	l.src.verdicts.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.score == nil {
		l.score = map[game.Point]float64{}
	}
	l.score[won]++
	for _, m := range lost {
		if m == won {
			panic("a move both won and lost")
		}
		l.score[m]--
	}
}

// TestOnlineLearnerIsFedVerdicts checks the plumbing of Options.Online on
// the 19x19 problems: each search (each portfolio member too) gets a fresh
// learner only when asked, the learner hears verdicts, and the result
// agrees with the file's winner. The soundness form mcts-online checks it
// against the exhaustive solver.
func TestOnlineLearnerIsFedVerdicts(t *testing.T) {
	pr := sharedProblem(t, "cho19-dev", "027")
	for _, c := range []struct {
		name    string
		online  bool
		members int
	}{
		{"off", false, 1},
		{"on", true, 1},
		{"portfolio", true, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := &pointLearners{}
			opts := Options{Budget: 30000, Evaluator: Learned{Base: LDB(), Ranker: src}, Online: c.online, Safety: true, DepthDiscount: 0.9}
			var res Result
			if c.members > 1 {
				res = solvePortfolioOf(c.members)(context.Background(), pr, opts)
			} else {
				res = Solve(context.Background(), pr, opts)
			}
			if res.Status == Unknown {
				t.Fatalf("unproven in %d nodes", res.Nodes)
			}
			if got := res.Status == Win; got != (pr.Living() == pr.Winner) {
				t.Fatalf("%v for the living side, the file's winner is %v", res.Status, pr.Winner)
			}
			made, verdicts := src.made.Load(), src.verdicts.Load()
			switch {
			case !c.online && (made != 0 || verdicts != 0):
				t.Errorf("off: %d learners made, %d verdicts", made, verdicts)
			case c.online && made != int64(c.members):
				t.Errorf("%d learners made for %d searches", made, c.members)
			case c.online && verdicts == 0:
				t.Errorf("no verdict learnt in %d nodes", res.Nodes)
			}
			t.Logf("%v in %d nodes; %d learners, %d verdicts", res.Status, res.Nodes, made, verdicts)
		})
	}
}
