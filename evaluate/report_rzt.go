package evaluate

import (
	"context"
	"fmt"
	"time"

	"lifezero/game"
	"lifezero/rzs"
)

// The pattern-table benchmark of paper 000: each problem solved without
// the RZ pattern table and with it (Tables III and IV), the table's
// traffic replayed at the same time through the four settings of its
// Fig. 4 (LR-NT, LR-TS, TR-NT, TR-TS) to compare their traversal costs.

// RZTResultsKind is the dataset kind of the rzt stage (rzt.json).
const RZTResultsKind = "rzt-results"

// rztKinds are the settings of paper 000's Fig. 4, the solving table first.
var rztKinds = []struct {
	name       string
	tree, noTS bool
}{{"TR-TS", true, false}, {"TR-NT", true, true}, {"LR-TS", false, false}, {"LR-NT", false, true}}

// RZTRow is one problem solved without and with the pattern table.
type RZTRow struct {
	ID  string `json:"id"`
	Set string `json:"set"`
	// Without and With are the two solves (With's seconds leave out the
	// time the other three tables took).
	Without RZTSolve `json:"without"`
	With    RZTSolve `json:"with"`
	// Tables are the statistics of TR-TS (the table that solved), TR-NT,
	// LR-TS and LR-NT, which saw the same insertions and lookups.
	Tables []rzs.TableStats `json:"tables"`
	// Paper holds paper 000's figures for the problem (rzt_paper).
	Paper map[string]string `json:"paper,omitempty"`
}

// RZTSolve is one solve's outcome.
type RZTSolve struct {
	Result  string  `json:"result"`
	Nodes   int64   `json:"nodes"`
	Seconds float64 `json:"seconds"`
}

// RZTProblems solves every task twice (the mcts form with cfg's evaluator
// and budget, one thread), without and with the table, and emits a row per
// task in order.
func RZTProblems(ctx context.Context, tasks []SolveTask, cfg SolveConfig, emit func(RZTRow) error) error {
	cfg.Algo, cfg.Threads, cfg.RZT, cfg.Workers = AlgoMCTS, 1, RZTNone, 1
	if err := cfg.validateLoaded(); err != nil {
		return fmt.Errorf("evaluate: rzt: %w", err)
	}
	cfg = cfg.withDefaults()
	defer setSolverGC()()
	for _, t := range tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := RZTRow{ID: t.Problem.ID, Set: t.Set, Paper: t.Problem.RZTPaper}
		res := rzs.Solve(ctx, t.Problem, cfg.options())
		if ctx.Err() != nil {
			return ctx.Err()
		}
		row.Without = RZTSolve{Result: res.Status.String(), Nodes: int64(res.Nodes), Seconds: res.Seconds}
		tee := newTeeTable(t.Problem)
		opts := cfg.options()
		opts.Table = tee
		res = rzs.Solve(ctx, t.Problem, opts)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		row.With = RZTSolve{Result: res.Status.String(), Nodes: int64(res.Nodes), Seconds: max(0, res.Seconds-tee.shadowTime.Seconds())}
		for _, tb := range tee.tables {
			st := tb.Stats()
			st.Growth = nil // the rebuild phases are not reported here
			row.Tables = append(row.Tables, st)
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// rztTable is what the tee needs of a table.
type rztTable interface {
	rzs.PatternTable
	Stats() rzs.TableStats
}

// teeTable is the TR-TS table the solver uses, with every lookup and
// insertion repeated on the other three settings. All four hold the same
// entries in the same order, so their clocks agree and the solver's
// timestamps are valid for each; they hit on the same lookups.
type teeTable struct {
	tables     []rztTable // tables[0] answers
	shadowTime time.Duration
}

func newTeeTable(pr *game.Problem) *teeTable {
	t := &teeTable{}
	for _, k := range rztKinds {
		opts := rzs.TableOptions{NoTimestamps: k.noTS}
		if k.tree {
			t.tables = append(t.tables, rzs.NewTreeTable(pr, opts))
		} else {
			t.tables = append(t.tables, rzs.NewLinearTable(pr, opts))
		}
	}
	return t
}

func (t *teeTable) Lookup(pos *game.Position, standing *game.PointSet, since uint64) (game.PointSet, bool, uint64) {
	zone, ok, now := t.tables[0].Lookup(pos, standing, since)
	start := time.Now()
	for _, s := range t.tables[1:] {
		s.Lookup(pos, standing, since)
	}
	t.shadowTime += time.Since(start)
	return zone, ok, now
}

func (t *teeTable) Insert(pos *game.Position, standing *game.PointSet, zone game.PointSet) {
	t.tables[0].Insert(pos, standing, zone)
	start := time.Now()
	for _, s := range t.tables[1:] {
		s.Insert(pos, standing, zone)
	}
	t.shadowTime += time.Since(start)
}
