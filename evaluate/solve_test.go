package evaluate

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/rzs"
)

// Three hand-checked 5x5 problems. White's group on the top edge has the
// eye space aa, ba, ca (a straight three, "three") or aa..da (a straight
// four, "four"); moves may only be played there. A straight three lives or
// dies by who plays its middle point ba first; a straight four lives
// whoever starts.
var solveTestProblems = map[string]string{
	"three-w.json": `{"id": "three-w", "sgf": "(;FF[4]SZ[5]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]PL[W])",
		"to_play": "W", "winner": "W", "goal": {"B": "kill", "W": "live"}, "ko": {"B": "allow_ko", "W": "disallow_ko"},
		"crucial_stones": "ab", "region": "aa,ba,ca", "answer_first_move": "ba", "paper_nodes": {"rzs": "12", "no_rzs": "-"}}`,
	"three-b.json": `{"id": "three-b", "sgf": "(;FF[4]SZ[5]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]PL[B])",
		"to_play": "B", "winner": "B", "goal": {"B": "kill", "W": "live"}, "ko": {"B": "allow_ko", "W": "disallow_ko"},
		"crucial_stones": "ab", "region": "aa,ba,ca", "answer_first_move": "ba", "paper_nodes": {"rzs": "40", "no_rzs": "900"}}`,
	"four-b.json": `{"id": "four-b", "sgf": "(;FF[4]SZ[5]AB[ac][bc][cc][dc][ec]AW[ea][ab][bb][cb][db][eb]PL[B])",
		"to_play": "B", "winner": "W", "goal": {"B": "kill", "W": "live"}, "ko": {"B": "allow_ko", "W": "disallow_ko"},
		"crucial_stones": "ab", "region": "aa,ba,ca,da", "answer_first_move": "tt"}`,
}

// want is what the three problems come to: the result from White's (the
// living side's) view and the first move of the side to play.
var solveTestWant = map[string]struct{ result, move string }{
	"three-w": {ResultWin, "ba"},
	"three-b": {ResultLoss, "ba"},
	"four-b":  {ResultWin, PassMove},
}

func solveTestTasks(t *testing.T) []SolveTask {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tiny")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range solveTestProblems {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	probs, err := game.LoadProblemDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var tasks []SolveTask
	for _, pr := range probs {
		tasks = append(tasks, SolveTask{Problem: pr, Set: "tiny"})
	}
	return tasks
}

func TestSolveProblems(t *testing.T) {
	tasks := solveTestTasks(t)
	for _, cfg := range []SolveConfig{
		{Budget: 2000},
		{Budget: 2000, Algo: AlgoDFS},
		{Budget: 2000, NoRZ: true, NoTT: true, Evaluator: EvaluatorUniform, Workers: 3},
		{Budget: 2000, Portfolio: 2, Threads: 2},
	} {
		var got []SolveRow
		err := SolveProblems(context.Background(), tasks, cfg, func(s Solved) error {
			if s.Index != len(got) || s.Task.Problem != tasks[s.Index].Problem {
				t.Errorf("%+v: emitted task %d (%s) at position %d", cfg, s.Index, s.Task.Problem.ID, len(got))
			}
			got = append(got, s.Row)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tasks) {
			t.Fatalf("%+v: %d rows for %d problems", cfg, len(got), len(tasks))
		}
		for _, r := range got {
			want := solveTestWant[r.ID]
			if r.Result != want.result || r.FirstMove != want.move {
				t.Errorf("%+v: %s: %s %q, want %s %q", cfg, r.ID, r.Result, r.FirstMove, want.result, want.move)
			}
			if agrees, known := r.Agrees(); !known || !agrees {
				t.Errorf("%+v: %s: agrees %v (known %v) with winner %s", cfg, r.ID, agrees, known, r.Winner)
			}
			// A portfolio's count is all its members' nodes.
			if most := 2000 * max(cfg.Portfolio, 1); r.Nodes <= 0 || r.Nodes > int64(most) {
				t.Errorf("%+v: %s: %d nodes, want 1..%d", cfg, r.ID, r.Nodes, most)
			}
			if (r.ProvedBy != "") != (cfg.Portfolio > 1) {
				t.Errorf("%+v: %s: proved by %q", cfg, r.ID, r.ProvedBy)
			}
			if (r.Result == ResultWin) != (r.RZSize > 0) {
				t.Errorf("%+v: %s: %s with an RZ of %d points", cfg, r.ID, r.Result, r.RZSize)
			}
			wantAlgo := cmp.Or(cfg.Algo, AlgoMCTS)
			// One search of the mcts form defaults to ldb-nakade; a
			// portfolio or a depth-first form to ldb.
			wantEvaluator := cmp.Or(cfg.Evaluator, EvaluatorLDBNakade)
			if cfg.Portfolio > 1 || cfg.Algo == AlgoDFS {
				wantEvaluator = cmp.Or(cfg.Evaluator, EvaluatorLDB)
			}
			if cfg.Portfolio > 1 {
				// The default second evaluator (these portfolios have
				// fewer than four members, so none drops the discount).
				wantEvaluator += "/" + EvaluatorLDBNoShapes
			}
			if r.Algo != wantAlgo || r.RZ == cfg.NoRZ || r.TT == cfg.NoTT || r.Budget != 2000 ||
				r.Evaluator != wantEvaluator || r.Set != "tiny" || r.Source != "tiny/"+r.ID+".json" {
				t.Errorf("%+v: row settings %+v", cfg, r)
			}
		}
	}
}

// TestSolveRowRecordsSearch checks that a row names the settings the
// search ran with, a setting turned off included: SolveProblems fills the
// defaults in and SolveRowOf fills them in again, and "off" must survive
// both.
func TestSolveRowRecordsSearch(t *testing.T) {
	tasks := solveTestTasks(t)[:1]
	learning := &madeLearners{hashRanker: hashRanker{1}}
	for _, tt := range []struct {
		cfg  SolveConfig
		want string
	}{
		// The default evaluator, ldb-nakade, searches without the FPU
		// reduction; ldb and a portfolio's lead with it.
		{SolveConfig{}, "depth_discount=0.9 fpu_reduction=0 safety=true proof_bonus=0.1"},
		{SolveConfig{Evaluator: EvaluatorLDB}, "depth_discount=0.9 fpu_reduction=0.3 safety=true proof_bonus=0.1"},
		{SolveConfig{Portfolio: 2}, "depth_discount=0.9 fpu_reduction=0.3 safety=true proof_bonus=0.1"},
		{SolveConfig{Evaluator: EvaluatorLDBNakade, FPUReduction: 0.3}, "depth_discount=0.9 fpu_reduction=0.3 safety=true proof_bonus=0.1"},
		// Off must survive both fills where the default is on (ldb).
		{SolveConfig{Evaluator: EvaluatorLDB, FPUReduction: -1, ProofBonus: -1}, "depth_discount=0.9 fpu_reduction=0 safety=true"},
		{SolveConfig{FPUReduction: 0.5, ProofBonus: 0.2, DepthDiscount: 1, NoSafety: true}, "depth_discount=1 fpu_reduction=0.5 safety=false proof_bonus=0.2"},
		{SolveConfig{Algo: AlgoDFPN, FPUReduction: -1}, "safety=true"},
		// What a portfolio's learning adds to its first member's settings.
		{SolveConfig{Portfolio: 2, Online: true, Ranker: learning}, "depth_discount=0.9 fpu_reduction=0.3 safety=true proof_bonus=0.1 online=true"},
		{SolveConfig{Portfolio: 2, Online: true, OnlineShare: true, Ranker: learning}, "depth_discount=0.9 fpu_reduction=0.3 safety=true proof_bonus=0.1 online=true online_share=true"},
		{SolveConfig{Portfolio: 2, OnlineMember: true, Ranker: learning}, "depth_discount=0.9 fpu_reduction=0.3 safety=true proof_bonus=0.1 online_member=true"},
	} {
		tt.cfg.Budget = 200
		if o := tt.cfg.SolverOptions(); (tt.cfg.FPUReduction < 0 && o.FPUReduction != 0) || (tt.cfg.ProofBonus < 0 && o.ProofBonus != 0) {
			t.Errorf("%+v: the solver gets fpu reduction %v, proof bonus %v, want them off", tt.cfg, o.FPUReduction, o.ProofBonus)
		}
		err := SolveProblems(context.Background(), tasks, tt.cfg, func(s Solved) error {
			if s.Row.Search != tt.want {
				t.Errorf("%+v: search %q, want %q", tt.cfg, s.Row.Search, tt.want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestSolveProblemsStops(t *testing.T) {
	tasks := solveTestTasks(t)
	// An emit error stops the run and comes back.
	boom := errors.New("boom")
	n := 0
	err := SolveProblems(context.Background(), tasks, SolveConfig{Budget: 500, Workers: 2}, func(Solved) error {
		n++
		return boom
	})
	if !errors.Is(err, boom) || n != 1 {
		t.Errorf("emit error: err %v after %d emits, want boom after 1", err, n)
	}
	// A cancellation after the first problem keeps what finished, in order.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ids []string
	err = SolveProblems(ctx, tasks, SolveConfig{Budget: 500}, func(s Solved) error {
		ids = append(ids, s.Row.ID)
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || len(ids) == 0 || ids[0] != tasks[0].Problem.ID {
		t.Errorf("cancelled: err %v, emitted %v", err, ids)
	}
	if err := SolveProblems(context.Background(), tasks, SolveConfig{Algo: "bfs"}, nil); err == nil || !strings.Contains(err.Error(), `algo: "bfs"`) {
		t.Errorf("bad algo: %v", err)
	}
}

func TestSolveConfigValidate(t *testing.T) {
	for _, tt := range []struct {
		cfg   SolveConfig
		field string
	}{
		{SolveConfig{}, ""},
		{SolveConfig{Algo: AlgoDFS, Evaluator: EvaluatorUniform, Budget: 1, Workers: 4}, ""},
		{SolveConfig{Algo: "MCTS"}, "algo"},
		{SolveConfig{Evaluator: "net"}, "evaluator"},
		{SolveConfig{Budget: -1}, "budget"},
		{SolveConfig{Workers: -2}, "workers"},
		{SolveConfig{Timeout: -1}, "timeout"},
		{SolveConfig{DepthDiscount: 1, FPUReduction: -1}, ""},
		{SolveConfig{DepthDiscount: 1.5}, "depth_discount"},
		{SolveConfig{DepthDiscount: -0.1}, "depth_discount"},
		{SolveConfig{Playouts: 4}, ""},
		{SolveConfig{Playouts: 4, PlayoutWeight: 1}, ""},
		{SolveConfig{Playouts: -1}, "playouts"},
		{SolveConfig{Playouts: 4, Algo: AlgoDFPN}, "playouts"},
		{SolveConfig{Playouts: 4, PlayoutWeight: 1.5}, "playout_weight"},
		{SolveConfig{PlayoutWeight: 0.3}, "playout_weight"}, // without playouts
		{SolveConfig{Playouts: 4, Portfolio: 5, OnlineMember: true, PlayoutMembers: "4"}, ""},
		{SolveConfig{Playouts: 4, Portfolio: 3, PlayoutMembers: "0, 2"}, ""},
		{SolveConfig{Playouts: 4, Portfolio: 3, PlayoutMembers: "3"}, "playout_members"},
		{SolveConfig{Playouts: 4, Portfolio: 3, PlayoutMembers: "twin"}, "playout_members"},
		{SolveConfig{Playouts: 4, PlayoutMembers: "0"}, "playout_members"},  // no portfolio
		{SolveConfig{Portfolio: 3, PlayoutMembers: "0"}, "playout_members"}, // no playouts
		{SolveConfig{Portfolio: 2, Threads: 2}, ""},
		{SolveConfig{Portfolio: 4}, ""},
		{SolveConfig{Portfolio: -1}, "portfolio"},
		{SolveConfig{Portfolio: 2, Algo: AlgoDFPN}, "portfolio"},
		{SolveConfig{Portfolio: 2, Threads: 3}, "threads"},
		{SolveConfig{Portfolio: 3, Threads: 2}, ""},
		{SolveConfig{Portfolio: 4, Threads: 6}, "threads"},
		{SolveConfig{Portfolio: 2, Batch: 4}, "batch"},
		{SolveConfig{Portfolio: 5}, ""},
		{SolveConfig{Portfolio: 6}, "portfolio"},
		{SolveConfig{Portfolio: 2, PortfolioShare: true}, ""},
		{SolveConfig{PortfolioShare: true}, "portfolio_share"},
		{SolveConfig{Portfolio: 2, PortfolioShare: true, RZT: RZTNone}, "portfolio_share"},
		{SolveConfig{Portfolio: 5, FPUReduction: -1}, "portfolio"},                                   // four distinct searches only
		{SolveConfig{Portfolio: 3, FPUReduction: -1, NoSafety: true, DepthDiscount: 1}, "portfolio"}, // two only
		{SolveConfig{Portfolio: 2, Ranker: hashRanker{1}, PortfolioRanker: hashRanker{2}}, ""},
		{SolveConfig{Portfolio: 10, Ranker: hashRanker{1}, PortfolioRanker: hashRanker{2}}, ""}, // five settings, each with both models
		{SolveConfig{Portfolio: 11, Ranker: hashRanker{1}, PortfolioRanker: hashRanker{2}}, "portfolio"},
		{SolveConfig{Portfolio: 2, PortfolioRanker: hashRanker{2}}, "portfolio_features_model"},
		{SolveConfig{Ranker: hashRanker{1}, PortfolioRanker: hashRanker{2}}, "portfolio_features_model"},
		{SolveConfig{Portfolio: 2, PortfolioEvaluator: EvaluatorLDBNoShapes}, ""},
		{SolveConfig{PortfolioEvaluator: EvaluatorLDBNoShapes}, "portfolio_evaluator"},
		{SolveConfig{Portfolio: 2, PortfolioEvaluator: "net"}, "portfolio_evaluator"},
		{SolveConfig{Online: true}, ""}, // the model is checked once loaded: TestValidateModels
		{SolveConfig{Online: true, Algo: AlgoDFPN}, "online"},
		{SolveConfig{Online: true, OnlineShare: true, Portfolio: 2}, ""},
		{SolveConfig{OnlineShare: true, Portfolio: 2}, "online_share"}, // online is off
		{SolveConfig{Online: true, OnlineShare: true}, "online_share"}, // no portfolio
		{SolveConfig{OnlineMember: true, Portfolio: 2}, ""},
		{SolveConfig{OnlineMember: true, Portfolio: 5}, ""}, // four settings and the twin
		{SolveConfig{OnlineMember: true, Portfolio: 6}, ""}, // five settings and the twin
		{SolveConfig{OnlineMember: true, Portfolio: 7}, "portfolio"},
		{SolveConfig{OnlineMember: true}, "online_member"},                             // no portfolio
		{SolveConfig{OnlineMember: true, Online: true, Portfolio: 2}, "online_member"}, // every member learns already
		{SolveConfig{OnlineMember: true, Portfolio: 4, Ranker: hashRanker{1}, PortfolioRanker: hashRanker{2}}, "online_member"},
		{SolveConfig{OnlineMember: true, Portfolio: 2, PortfolioEvaluator: EvaluatorLDBNoShapes}, "portfolio_evaluator"}, // the twin is the only other member
		{SolveConfig{OnlineMember: true, Portfolio: 4, PortfolioEvaluator: "ldb-noshapes,ldb-nakade"}, ""},
		{SolveConfig{OnlineMember: true, Portfolio: 4, PortfolioEvaluator: "ldb-noshapes,ldb-nakade,ldb"}, "portfolio_evaluator"}, // a name for the twin
	} {
		checkValidate(t, tt.cfg, tt.field, "")
	}
}

// TestOnlineMemberRefusals: a refusal that concerns online_member's twin
// says so, since the counts it gives are not the portfolio's.
func TestOnlineMemberRefusals(t *testing.T) {
	for _, tt := range []struct {
		cfg        SolveConfig
		field, msg string
	}{
		{SolveConfig{OnlineMember: true, Portfolio: 7}, "portfolio", "7 members, the last online_member's twin of the first, need 6: these settings give only 5 distinct searches"},
		{SolveConfig{OnlineMember: true, Portfolio: 2, PortfolioEvaluator: EvaluatorLDBNoShapes}, "portfolio_evaluator", "needs a portfolio of 3 or more with online_member (portfolio is 2, the last of them online_member's twin"},
		{SolveConfig{OnlineMember: true, Portfolio: 4, PortfolioEvaluator: "ldb,ldb,ldb"}, "portfolio_evaluator", "3 names for a portfolio of 4, the last of them online_member's twin of the first, which searches with the first's evaluator: want one for every member after the first with settings of its own, or 2, one each"},
		{SolveConfig{OnlineMember: true, Portfolio: 4, Ranker: hashRanker{1}, PortfolioRanker: hashRanker{2}}, "online_member", "portfolio_features_model pairs the members by model"},
		{SolveConfig{OnlineMember: true, Online: true, Portfolio: 2}, "online_member", "online makes them all learn"},
	} {
		checkValidate(t, tt.cfg, tt.field, tt.msg)
	}
}

// TestValidateModels: online learning is refused without the features
// model it corrects.
func TestValidateModels(t *testing.T) {
	for _, tt := range []struct {
		cfg   SolveConfig
		field string
	}{
		{SolveConfig{}, ""},
		{SolveConfig{Ranker: hashRanker{1}}, ""},
		{SolveConfig{Online: true, Ranker: &madeLearners{hashRanker: hashRanker{1}}}, ""},
		{SolveConfig{Online: true}, "online"},
		{SolveConfig{Online: true, Ranker: hashRanker{1}}, "online"}, // a ranker that cannot learn
		{SolveConfig{OnlineMember: true, Portfolio: 2, Ranker: &madeLearners{hashRanker: hashRanker{1}}}, ""},
		{SolveConfig{OnlineMember: true, Portfolio: 2}, "online_member"},
		{SolveConfig{OnlineMember: true, Portfolio: 2, Ranker: hashRanker{1}}, "online_member"},
	} {
		checkRefusal(t, tt.cfg, tt.cfg.ValidateModels(), tt.field, "features model")
	}
}

// madeLearners is a hashRanker that makes a new learner each time, one
// that learns nothing and remembers the model it was made from.
type madeLearners struct{ hashRanker }

func (m *madeLearners) NewLearner() rzs.ProofLearner { return &madeLearner{m.hashRanker, m} }

type madeLearner struct {
	hashRanker
	from rzs.MoveRanker
}

func (*madeLearner) Learn(*game.Position, game.Point, []game.Point) {}

// checkValidate fails the test unless cfg.Validate accepts cfg (field "")
// or refuses it on field with an error that says msg.
func checkValidate(t *testing.T, cfg SolveConfig, field, msg string) {
	t.Helper()
	checkRefusal(t, cfg, cfg.Validate(), field, msg)
}

// checkRefusal fails the test unless err, a check's verdict on cfg, is
// nil (field "") or a refusal on field that says msg.
func checkRefusal(t *testing.T, cfg SolveConfig, err error, field, msg string) {
	t.Helper()
	var ce *SolveConfigError
	switch {
	case field == "" && err != nil:
		t.Errorf("%+v: %v", cfg, err)
	case field != "" && (!errors.As(err, &ce) || ce.Field != field || !strings.Contains(err.Error(), msg)):
		t.Errorf("%+v: error %v, want one on %s with %q", cfg, err, field, msg)
	}
}

// TestPortfolioEvaluatorList: a list of evaluators is refused, naming
// what is wrong with it, unless it has one built-in name per member after
// the first.
func TestPortfolioEvaluatorList(t *testing.T) {
	for _, tt := range []struct {
		portfolio int
		list      string
		want      string // in the error; "" for none
	}{
		{4, "ldb-noshapes,ldb-noshapes,ldb-nakade", ""},
		{3, "ldb-noshapes,ldb-nakade", ""},
		{3, "ldb-noshapes,ldb-noshapes,ldb-nakade", "3 names for a portfolio of 3"},
		{3, "ldb-noshapes,", `"" is no built-in evaluator`},
		{3, "ldb-noshapes, ldb-nakade", `" ldb-nakade" is no built-in evaluator`},
		{3, "ldb-noshapes,net", `"net" is no built-in evaluator`},
		{1, "ldb-noshapes", "needs a portfolio of 2 or more (portfolio is 1)"},
	} {
		field := ""
		if tt.want != "" {
			field = "portfolio_evaluator"
		}
		checkValidate(t, SolveConfig{Portfolio: tt.portfolio, PortfolioEvaluator: tt.list}, field, tt.want)
	}
}

func TestSolveRowAgrees(t *testing.T) {
	for _, tt := range []struct {
		living, winner, result string
		agrees, known          bool
	}{
		{"W", "W", ResultWin, true, true},
		{"W", "W", ResultLoss, false, true},
		{"W", "B", ResultLoss, true, true},
		{"B", "W", ResultWin, false, true},
		{"W", "W", ResultUnknown, false, false},
		{"W", "", ResultWin, false, false},
	} {
		r := SolveRow{Living: tt.living, Winner: tt.winner, Result: tt.result}
		if a, k := r.Agrees(); a != tt.agrees || k != tt.known {
			t.Errorf("%+v: agrees %v known %v", tt, a, k)
		}
	}
}

func TestSolveResultsRoundTrip(t *testing.T) {
	rows := []SolveRow{
		{ID: "01", Set: "killall7x7", Source: "killall7x7/01.json", Size: 7, ToPlay: "B", Living: "W", Winner: "W",
			Result: ResultWin, FirstMove: PassMove, Nodes: 180231, Seconds: 12.5, RZSize: 21, TTHits: 99, TableHits: 7,
			Algo: AlgoMCTS, RZ: true, TT: true, Budget: 500000, Evaluator: EvaluatorHeuristic,
			PaperNodes: `{"ftl":"76780","ftl_rzs":"325","no_rzs":"-","rzs":"255314"}`, RZTPaper: `{"sims_with_rzt":"277"}`,
			Search: "depth_discount=0.9 safety=true", ProvedBy: "fpu_reduction=0"},
		{ID: "02", Set: "killall7x7", Source: "killall7x7/02.json", Size: 7, ToPlay: "W", Living: "W", Winner: "W",
			Result: ResultUnknown, Nodes: 500000, Seconds: 30.25, Aborted: true, Algo: AlgoMCTS, RZ: true, TT: true,
			Budget: 500000, Evaluator: EvaluatorHeuristic, PaperNodes: `{"ftl":"428239","ftl_rzs":"4958","no_rzs":"-","rzs":"204355"}`,
			Search: "depth_discount=0.9 safety=true", Reason: "memory bound 4GiB reached"},
		{ID: "003", Set: "cho19-dev", Source: "cho19-dev/003.json", Size: 19, ToPlay: "B", Living: "B", Winner: "B",
			Result: ResultLoss, FirstMove: "pr", Answer: "pr", Nodes: 9000, Seconds: 1, Algo: AlgoDFS, Budget: 20000,
			Evaluator: EvaluatorUniform, PaperNodes: `{"elf":"-","elf_rz":"40002","ftl":"-","ftl_rz":"9375","t_exp":"-"}`,
			Search: "dfs"},
		{ID: "x1", Set: "hard/set", Source: "hard/set/x1.sgf", Size: 9, ToPlay: "W", Living: "B", Result: ResultWin,
			FirstMove: "ee", Nodes: 5, Seconds: 0.5, RZSize: 3, Algo: AlgoMCTS, Budget: 100, Evaluator: EvaluatorHeuristic,
			PaperNodes: `{"rzs":"-"}`},
	}
	dir := filepath.Join(t.TempDir(), "solve")
	m, err := WriteSolveResults(context.Background(), dir, rows, datasets.Manifest{Stage: "solve", InputHash: "h"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != SolveResultsKind || m.SchemaVersion != SolveResultsSchemaVersion || m.Rows != 4 {
		t.Errorf("manifest %+v", m)
	}
	got, m2, err := ReadSolveResults(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, rows)
	}
	if m2.InputHash != "h" {
		t.Errorf("input hash %q", m2.InputHash)
	}

	sec, err := ReadSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### killall7x7", "### cho19-dev", "| problems | solved |", "| 2 | 1 | 1 | 0 | 1 | 1 | 0 |",
		"Solved in the papers (same problems): no_rzs 0, rzs 2, ftl 2, ftl_rzs 2.",
		"| paper no_rzs | paper rzs | paper ftl | paper ftl_rzs |", "| paper elf | paper elf_rz | paper ftl | paper ftl_rz | paper t_exp |",
		"| 01 | B | win | yes | tt | - | 180231 | 12.50 | 21 | 99 | fpu_reduction=0 | - | 255314 | 76780 | 325 |",
		"| id | to play | result | agrees | first move | book move | nodes | seconds | RZ size | TT hits | proved by |",
		"Search settings: `depth_discount=0.9 safety=true`.", "Search settings: `dfs`.",
		"| 02 | W | unknown (memory bound 4GiB reached) | - | - | - | 500000 |",
		"| 003 | B | loss | **no** | pr | pr |", "003 (loss, file: B wins)",
		"(solve-nodes-killall7x7.png)", "(solve-solved-killall7x7.png)", "(solve-solved-cho19-dev.png)",
		"### hard/set", "| x1 | W | win | - | ee | - | 5 | 0.50 | 3 |",
		"No problem is solved both by us and in the papers", "(solve-solved-hard_set.png)",
		"Solved 3 of 4 problems; 689236 nodes in 44.2 s (15576 nodes/s)",
	} {
		if !strings.Contains(sec.Markdown, want) {
			t.Errorf("section lacks %q:\n%s", want, sec.Markdown)
		}
	}
	if want := []string{"solve-nodes-cho19-dev.png", "solve-nodes-killall7x7.png", "solve-solved-cho19-dev.png",
		"solve-solved-hard_set.png", "solve-solved-killall7x7.png"}; !reflect.DeepEqual(sec.Images, want) {
		t.Errorf("images %v, want %v", sec.Images, want)
	}

	// Writing again over the dataset replaces it, report included.
	if _, err := WriteSolveResults(context.Background(), dir, rows[2:3], datasets.Manifest{}); err != nil {
		t.Fatal(err)
	}
	if got, _, err := ReadSolveResults(context.Background(), dir); err != nil || len(got) != 1 {
		t.Errorf("rewrite: %d rows, %v", len(got), err)
	}
	if sec, err := ReadSection(dir); err != nil || len(sec.Images) != 2 || strings.Contains(sec.Markdown, "killall7x7") {
		t.Errorf("rewritten section: %v %+v", err, sec)
	}
}

// TestSolveTableResult: the result column says why an unproven solve
// stopped (the solver's reason, else the timeout), and a portfolio's table
// names the member that proved each problem.
func TestSolveTableResult(t *testing.T) {
	for _, tc := range []struct {
		name      string
		row       SolveRow
		portfolio bool
		want      []string
	}{
		{"proven", SolveRow{ID: "a", Result: ResultWin, Nodes: 5}, false,
			[]string{"a", "", "win", "-", "-", "-", "5", "0.00", "0", "0"}},
		{"timeout", SolveRow{ID: "b", Result: ResultUnknown, Aborted: true}, false,
			[]string{"b", "", "unknown (timeout)", "-", "-", "-", "0", "0.00", "-", "0"}},
		{"memory bound", SolveRow{ID: "c", Result: ResultUnknown, Aborted: true, Reason: "memory bound 4GiB reached"}, false,
			[]string{"c", "", "unknown (memory bound 4GiB reached)", "-", "-", "-", "0", "0.00", "-", "0"}},
		{"portfolio proof", SolveRow{ID: "d", Result: ResultWin, ProvedBy: "fpu_reduction=0"}, true,
			[]string{"d", "", "win", "-", "-", "-", "0", "0.00", "0", "0", "fpu_reduction=0"}},
		{"portfolio, unproven", SolveRow{ID: "e", Result: ResultUnknown}, true,
			[]string{"e", "", "unknown", "-", "-", "-", "0", "0.00", "-", "0", "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := solveTableRows([]SolveRow{tc.row}, nil, tc.portfolio)[0]
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("row %q, want %q", got, tc.want)
			}
			if h := solveTableHeader(nil, tc.portfolio); len(h) != len(got) {
				t.Errorf("header has %d columns, the row %d", len(h), len(got))
			}
		})
	}
}

func TestSortPaperMethods(t *testing.T) {
	keys := []string{"zz", "t_exp", "ftl", "elf", "ftl_rz", "aa", "elf_rz"}
	SortPaperMethods(keys)
	if want := []string{"elf", "elf_rz", "ftl", "ftl_rz", "t_exp", "aa", "zz"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("got %v, want %v", keys, want)
	}
	keys = []string{"ftl_rzs", "ftl", "rzs", "no_rzs"}
	SortPaperMethods(keys)
	if want := []string{"no_rzs", "rzs", "ftl", "ftl_rzs"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("got %v, want %v", keys, want)
	}
}

// TestDefaultFPUReduction checks the FPU reduction a config that names
// none searches with: off for one search with ldb-nakade (the default
// evaluator) or a network mixed with it, DefaultFPUReduction for a
// portfolio whatever its lead, for ldb and for a network alone.
func TestDefaultFPUReduction(t *testing.T) {
	net := rzs.Heuristic{}
	for _, tt := range []struct {
		name string
		cfg  SolveConfig
		want float64
	}{
		{"one search, the default evaluator", SolveConfig{}, 0},
		{"one search, ldb-nakade", SolveConfig{Evaluator: EvaluatorLDBNakade}, 0},
		{"one search, ldb", SolveConfig{Evaluator: EvaluatorLDB}, DefaultFPUReduction},
		{"portfolio", SolveConfig{Portfolio: 2}, DefaultFPUReduction},
		{"portfolio led by ldb-nakade", SolveConfig{Portfolio: 2, Evaluator: EvaluatorLDBNakade}, DefaultFPUReduction},
		{"network alone", SolveConfig{Net: net}, DefaultFPUReduction},
		{"network with ldb", SolveConfig{Net: net, NetWith: EvaluatorLDB}, DefaultFPUReduction},
		{"network with ldb-nakade", SolveConfig{Net: net, NetWith: EvaluatorLDBNakade}, 0},
	} {
		if got := tt.cfg.SolverOptions().FPUReduction; got != tt.want {
			t.Errorf("%s: FPU reduction %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Playouts reach the value of every member they name (all when they name
// none), whatever evaluator the member names, the twin's too, and no
// other member's.
func TestPlayoutsInTheirMembers(t *testing.T) {
	for _, tt := range []struct {
		playouts int
		members  string
		want     []bool
	}{
		{0, "", []bool{false, false, false, false}},
		{4, "", []bool{true, true, true, true}},
		{4, "3", []bool{false, false, false, true}},
		{4, "0,2", []bool{true, false, true, false}},
	} {
		c := SolveConfig{Portfolio: 4, OnlineMember: true, Playouts: tt.playouts, PlayoutMembers: tt.members,
			PortfolioEvaluator: "ldb-noshapes,heuristic", Ranker: hashRanker{1}}.withDefaults()
		members, err := c.portfolioMembers(c.options())
		if err != nil {
			t.Fatal(err)
		}
		for k, m := range members {
			po, ok := m.Evaluator.(rzs.Learned).Base.(rzs.Playouts)
			if ok != tt.want[k] || (ok && (po.N != tt.playouts || po.Weight != DefaultPlayoutWeight)) {
				t.Errorf("playouts %d on %q, member %d: base %#v", tt.playouts, tt.members, k, m.Evaluator)
			}
		}
	}
}
