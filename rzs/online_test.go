package rzs

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"lifezero/game"
)

// pointLearners is a LearnerSource whose learners score a move by the
// verdicts on its point so far (+1 won, -1 lost; a tenth of that, at most
// 1 either way), so that what a search learns reorders its later priors.
// It counts the learners made, the verdicts they got, and the rankings
// made by itself and by its learners.
type pointLearners struct {
	made, verdicts, ranked, learnerRanked atomic.Int64
}

func (p *pointLearners) Rank(pos *game.Position, moves []game.Point, scores []float64) error {
	p.ranked.Add(1)
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
	l.src.learnerRanked.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, m := range moves {
		// A gentle reordering: the test is of the plumbing, and a
		// threaded search must still prove its problem in the budget.
		scores[i] = max(-1, min(1, l.score[m]/10))
	}
	return nil
}

func (l *pointLearner) Learn(pos *game.Position, winner game.Point, others []game.Point) {
	l.src.verdicts.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.score == nil {
		l.score = map[game.Point]float64{}
	}
	l.score[winner]++
	for _, m := range others {
		if m == winner {
			panic("a move both won and lost")
		}
		l.score[m]--
	}
}

// TestOnlineLearnerIsFedVerdicts checks the plumbing of Options.Online on
// the 19x19 problems: each search (each portfolio member too) gets a fresh
// learner only when asked, or else the one it is given (Options.Learner,
// one for all members), and ranks with it instead of the ranker it came
// from, the learner hears verdicts (from two threads too), and the result
// agrees with the file's winner. The soundness forms mcts-online and
// mcts-portfolio-online-shared check it against the exhaustive solver.
func TestOnlineLearnerIsFedVerdicts(t *testing.T) {
	pr := sharedProblem(t, "cho19-dev", "027")
	for _, c := range []struct {
		name    string
		online  bool
		members int
		threads int
		shared  bool
	}{
		{"off", false, 1, 1, false},
		{"on", true, 1, 1, false},
		{"threads", true, 1, 2, false},
		{"portfolio", true, 3, 1, false},
		{"portfolio-shared", true, 3, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := &pointLearners{}
			opts := Options{Budget: 300000, Evaluator: Learned{Base: LDB(), Ranker: src}, Online: c.online, Safety: true, DepthDiscount: 0.9, Threads: c.threads}
			learners := int64(c.members)
			if c.shared {
				opts.Learner, learners = src.NewLearner(), 1
			}
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
			ranked, learnerRanked := src.ranked.Load(), src.learnerRanked.Load()
			switch {
			case !c.online && (made != 0 || verdicts != 0 || ranked == 0):
				t.Errorf("off: %d learners made, %d verdicts, %d rankings", made, verdicts, ranked)
			case c.online && made != learners:
				t.Errorf("%d learners made for %d searches, want %d", made, c.members, learners)
			case c.online && verdicts == 0:
				t.Errorf("no verdict learnt in %d nodes", res.Nodes)
			case c.online && (ranked != 0 || learnerRanked == 0):
				t.Errorf("the searches ranked %d times by the source, %d by their learners", ranked, learnerRanked)
			}
			t.Logf("%v in %d nodes; %d learners, %d verdicts", res.Status, res.Nodes, made, verdicts)
		})
	}
}
