package evaluate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"lifezero/game"
	"lifezero/rzs"
)

// hashRanker scores moves by a hash of the position, the move and its salt:
// two salts are two rankers that order the search differently, and neither
// may change what the solver proves.
type hashRanker struct{ salt uint64 }

func (h hashRanker) Rank(pos *game.Position, moves []game.Point, scores []float64) error {
	for i, m := range moves {
		x := (pos.Hash() ^ uint64(m)*0x9e3779b97f4a7c15 ^ h.salt*0x94d049bb133111eb) * 0xbf58476d1ce4e5b9
		scores[i] = 4 * float64(x>>40) / float64(1<<24)
	}
	return nil
}

// memberSettings is what tells two portfolio members' searches apart
// besides their evaluators.
func memberSettings(o rzs.Options) [4]float64 {
	safety := 0.0
	if o.Safety {
		safety = 1
	}
	return [4]float64{o.DepthDiscount, o.FPUReduction, o.ProofBonus, safety}
}

func TestPortfolioMembersAlternateModels(t *testing.T) {
	first, second := hashRanker{1}, hashRanker{2}
	for _, n := range []int{2, 3, 4, 10} {
		cfg := SolveConfig{Portfolio: n, Ranker: first, PortfolioRanker: second}.withDefaults()
		base := cfg.options()
		members, err := cfg.portfolioMembers(base)
		if err != nil {
			t.Fatalf("portfolio %d: %v", n, err)
		}
		settings, err := rzs.PortfolioMembers(base, (n+1)/2)
		if err != nil {
			t.Fatal(err)
		}
		if len(members) != n {
			t.Fatalf("portfolio %d: %d members", n, len(members))
		}
		for k, m := range members {
			learned, ok := m.Evaluator.(rzs.Learned)
			want := rzs.MoveRanker(first)
			if k%2 == 1 {
				want = second
			}
			if !ok || learned.Ranker != want || learned.Base != cfg.baseEvaluator() {
				t.Errorf("portfolio %d: member %d searches with %#v, want the base reweighted by %v", n, k, m.Evaluator, want)
			}
			if memberSettings(m) != memberSettings(settings[k/2]) {
				t.Errorf("portfolio %d: member %d has settings %v, want setting %d's %v", n, k, memberSettings(m), k/2, memberSettings(settings[k/2]))
			}
		}
	}
	// One model and one evaluator: the members are rzs.PortfolioMembers'
	// own.
	cfg := SolveConfig{Portfolio: 3, Ranker: first, PortfolioEvaluator: EvaluatorLDB}.withDefaults()
	members, err := cfg.portfolioMembers(cfg.options())
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(members); k++ {
		if memberSettings(members[k]) == memberSettings(members[k-1]) || members[k].Evaluator != members[0].Evaluator {
			t.Errorf("one model: member %d is %v with %#v", k, memberSettings(members[k]), members[k].Evaluator)
		}
	}
}

// TestSolvePortfolioTwoModels solves the hand-checked problems with a
// portfolio whose members alternate between two rankers: every result is
// the problem's, and a proof names the model of the member that found it.
func TestSolvePortfolioTwoModels(t *testing.T) {
	cfg := SolveConfig{Budget: 2000, Portfolio: 4, Threads: 4, Ranker: hashRanker{1}, RankerName: "first-model",
		PortfolioRanker: hashRanker{2}, PortfolioRankerName: "second-model"}
	err := SolveProblems(context.Background(), solveTestTasks(t), cfg, func(s Solved) error {
		r := s.Row
		if want := solveTestWant[r.ID]; r.Result != want.result || r.FirstMove != want.move {
			t.Errorf("%s: %s %q, want %s %q", r.ID, r.Result, r.FirstMove, want.result, want.move)
		}
		if !strings.HasSuffix(r.ProvedBy, " ranker=first-model") && !strings.HasSuffix(r.ProvedBy, " ranker=second-model") {
			t.Errorf("%s: proved by %q, which names no model", r.ID, r.ProvedBy)
		}
		if r.Evaluator != "ldb+first-model/second-model" {
			t.Errorf("%s: evaluator recorded as %q", r.ID, r.Evaluator)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPortfolioEvaluator: with a second evaluator, every member after the
// first searches with it (or with its own, from a list, by member index;
// by default ldb-noshapes, and ldb-nakade for the members that drop the
// first's depth discount), reweighted by the member's model, under
// rzs.PortfolioMembers' own settings; the first keeps the evaluator, and
// the results record all.
func TestPortfolioEvaluator(t *testing.T) {
	first, second := hashRanker{1}, hashRanker{2}
	noshapes := []string{EvaluatorLDB, EvaluatorLDBNoShapes, EvaluatorLDBNoShapes, EvaluatorLDBNoShapes}
	// The default of four: member 3 drops the depth discount and searches
	// with the one search's evaluator.
	undiscounted := []string{EvaluatorLDB, EvaluatorLDBNoShapes, EvaluatorLDBNoShapes, EvaluatorLDBNakade}
	alternate := func(k int) rzs.MoveRanker {
		if k%2 == 1 {
			return second
		}
		return first
	}
	for _, tc := range []struct {
		name       string
		cfg        SolveConfig
		evaluators []string // member k's evaluator
		ranker     func(k int) rzs.MoveRanker
		record     string
	}{
		{"no model", SolveConfig{Portfolio: 3, PortfolioEvaluator: EvaluatorLDBNoShapes},
			noshapes[:3], func(int) rzs.MoveRanker { return nil }, "ldb/ldb-noshapes"},
		{"the default", SolveConfig{Portfolio: 2, Ranker: first, RankerName: "m"},
			noshapes[:2], func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes+m"},
		{"the default, four members", SolveConfig{Portfolio: 4, Ranker: first, RankerName: "m"},
			undiscounted, func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes,ldb-noshapes,ldb-nakade+m"},
		{"the default, three members", SolveConfig{Portfolio: 3, Ranker: first, RankerName: "m"},
			noshapes[:3], func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes+m"},
		{"the default, five members", SolveConfig{Portfolio: 5, Ranker: first, RankerName: "m"},
			[]string{EvaluatorLDB, EvaluatorLDBNoShapes, EvaluatorLDBNoShapes, EvaluatorLDBNakade, EvaluatorLDBNakade},
			func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes,ldb-noshapes,ldb-nakade,ldb-nakade+m"},
		// The FPU reduction off: its member is skipped, and members 2 and
		// 3 drop the discount.
		{"the default, the reduction off", SolveConfig{Portfolio: 4, FPUReduction: -1, Ranker: first, RankerName: "m"},
			[]string{EvaluatorLDB, EvaluatorLDBNoShapes, EvaluatorLDBNakade, EvaluatorLDBNakade},
			func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes,ldb-nakade,ldb-nakade+m"},
		// Safety and the proof bonus off: member 2 is the one without the
		// discount, and takes its evaluator.
		{"the default, keyed to the settings", SolveConfig{Portfolio: 3, NoSafety: true, ProofBonus: -1, Ranker: first, RankerName: "m"},
			[]string{EvaluatorLDB, EvaluatorLDBNoShapes, EvaluatorLDBNakade}, func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes,ldb-nakade+m"},
		// No discount to drop: every member has the first's.
		{"the default, the discount off", SolveConfig{Portfolio: 3, DepthDiscount: 1, Ranker: first, RankerName: "m"},
			noshapes[:3], func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes+m"},
		{"one model", SolveConfig{Portfolio: 3, PortfolioEvaluator: EvaluatorLDBNoShapes, Ranker: first, RankerName: "m"},
			noshapes[:3], func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes+m"},
		{"one name, four members", SolveConfig{Portfolio: 4, PortfolioEvaluator: EvaluatorLDBNoShapes, Ranker: first, RankerName: "m"},
			noshapes, func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes+m"},
		{"two models", SolveConfig{Portfolio: 4, PortfolioEvaluator: EvaluatorLDBNoShapes, Ranker: first, PortfolioRanker: second, RankerName: "m", PortfolioRankerName: "n"},
			noshapes, alternate, "ldb/ldb-noshapes+m/n"},
		{"a list", SolveConfig{Portfolio: 4, PortfolioEvaluator: "ldb-noshapes,ldb-noshapes,ldb-nakade", Ranker: first, RankerName: "m"},
			undiscounted, func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes,ldb-noshapes,ldb-nakade+m"},
		{"a list, two models", SolveConfig{Portfolio: 4, PortfolioEvaluator: "ldb-nakade,ldb-noshapes,ld", Ranker: first, PortfolioRanker: second, RankerName: "m", PortfolioRankerName: "n"},
			[]string{EvaluatorLDB, EvaluatorLDBNakade, EvaluatorLDBNoShapes, EvaluatorLD}, alternate, "ldb/ldb-nakade,ldb-noshapes,ld+m/n"},
		// The learning twin of the first member searches as the first
		// does, and the others are the four members' defaults.
		{"an online member, five members", SolveConfig{Portfolio: 5, OnlineMember: true, Ranker: first, RankerName: "m"},
			append(slices.Clone(undiscounted), EvaluatorLDB), func(int) rzs.MoveRanker { return first }, "ldb/ldb-noshapes,ldb-noshapes,ldb-nakade+m"},
		{"an online member, two members", SolveConfig{Portfolio: 2, OnlineMember: true, Ranker: first, RankerName: "m"},
			[]string{EvaluatorLDB, EvaluatorLDB}, func(int) rzs.MoveRanker { return first }, "ldb+m"},
		{"an online member, one name", SolveConfig{Portfolio: 3, OnlineMember: true, PortfolioEvaluator: "ldb-nakade", Ranker: first, RankerName: "m"},
			[]string{EvaluatorLDB, EvaluatorLDBNakade, EvaluatorLDB}, func(int) rzs.MoveRanker { return first }, "ldb/ldb-nakade+m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg.withDefaults()
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			base := cfg.options()
			members, err := cfg.portfolioMembers(base)
			if err != nil {
				t.Fatal(err)
			}
			settings, err := rzs.PortfolioMembers(base, cfg.portfolioSettings())
			if err != nil {
				t.Fatal(err)
			}
			if len(members) != len(tc.evaluators) {
				t.Fatalf("%d members, want %d", len(members), len(tc.evaluators))
			}
			for k, m := range members {
				if got := cfg.memberEvaluatorName(k); got != tc.evaluators[k] {
					t.Errorf("member %d's evaluator is named %q, want %q", k, got, tc.evaluators[k])
				}
				want := withRanker(builtinEvaluator(tc.evaluators[k]), tc.ranker(k))
				if m.Evaluator != want {
					t.Errorf("member %d searches with %#v, want %#v", k, m.Evaluator, want)
				}
				j := k
				if cfg.PortfolioRanker != nil {
					j = k / 2
				}
				twin := tc.cfg.OnlineMember && k == len(members)-1
				if twin {
					j = 0
				}
				if m.Online != twin {
					t.Errorf("member %d learns online: %t, want %t", k, m.Online, twin)
				}
				if memberSettings(m) != memberSettings(settings[j]) {
					t.Errorf("member %d has settings %v, want setting %d's %v", k, memberSettings(m), j, memberSettings(settings[j]))
				}
			}
			if got := cfg.recordedEvaluator(); got != tc.record {
				t.Errorf("recorded evaluator %q, want %q", got, tc.record)
			}
		})
	}
}

// TestOnlineShareLearner: with online_share the members that rank by one
// model get one learner made from it, the members of a second model
// another; without it each member is left to make its own (no Learner),
// and only members of a learning model share.
func TestOnlineShareLearner(t *testing.T) {
	first, second := &madeLearners{hashRanker: hashRanker{1}}, &madeLearners{hashRanker: hashRanker{2}}
	for _, tc := range []struct {
		name string
		cfg  SolveConfig
		want []int // the learner each member is given, by the order made; -1 none
	}{
		{"own learners", SolveConfig{Portfolio: 4, Online: true, Ranker: first}, []int{-1, -1, -1, -1}},
		{"shared", SolveConfig{Portfolio: 4, Online: true, OnlineShare: true, Ranker: first}, []int{0, 0, 0, 0}},
		{"two models", SolveConfig{Portfolio: 4, Online: true, OnlineShare: true, Ranker: first, PortfolioRanker: second}, []int{0, 1, 0, 1}},
		{"a second model that cannot learn", SolveConfig{Portfolio: 4, Online: true, OnlineShare: true, Ranker: first, PortfolioRanker: hashRanker{2}}, []int{0, -1, 0, -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg.withDefaults()
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			members, err := cfg.portfolioMembers(cfg.options())
			if err != nil {
				t.Fatal(err)
			}
			var made []rzs.ProofLearner
			for k, m := range members {
				got := slices.Index(made, m.Learner)
				if m.Learner != nil && got < 0 {
					made, got = append(made, m.Learner), len(made)
				}
				if got != tc.want[k] {
					t.Errorf("member %d has learner %d, want %d", k, got, tc.want[k])
				}
				if l, ok := m.Learner.(*madeLearner); ok && l.from != cfg.memberRanker(k) {
					t.Errorf("member %d ranks by %v with a learner of %v", k, cfg.memberRanker(k), l.from)
				}
				if got := strings.Contains(searchSettings(AlgoMCTS, m), "online_share=true"); got != (tc.want[k] >= 0) {
					t.Errorf("member %d's settings %q, want online_share recorded: %t", k, searchSettings(AlgoMCTS, m), tc.want[k] >= 0)
				}
			}
		})
	}
}
