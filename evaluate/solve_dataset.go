package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/rzs"
)

// The solve-results dataset kind: one row per solved L&D problem.
const (
	SolveResultsKind          = "solve-results"
	SolveResultsSchemaVersion = 2
)

// The values of SolveRow.Result: the living side's view, as rzs.Status
// names it.
const (
	ResultWin     = "win"     // the living side is proven to live
	ResultLoss    = "loss"    // the living side is proven to fail
	ResultUnknown = "unknown" // unproven within the budget or time
)

// PassMove is how a pass is written in FirstMove and Answer: the SGF "tt"
// of the problem files, meaning the side to play fails.
const PassMove = "tt"

// SolveRow is one row of a solve-results dataset: a problem, how it was
// solved and what came out, next to the papers' node counts.
type SolveRow struct {
	ID     string
	Set    string // the problem set (directory name)
	Source string // set/file name
	Size   int32
	ToPlay string // "B" or "W"
	Living string // the side whose goal is to live
	Winner string // the file's winner: "B", "W" or "" when it does not say
	Result string // ResultWin, ResultLoss or ResultUnknown
	// FirstMove is the proven winner's first move when the side to play
	// wins, PassMove when the side to play fails, "" when unproven.
	FirstMove string
	Answer    string // the book's first move: SGF point, PassMove or ""
	Nodes     int64
	Seconds   float64
	RZSize    int32 // points of the root's relevance zone (wins only)
	TTHits    int64
	TableHits int64
	Aborted   bool // stopped by the timeout or the memory bound
	// Reason says why an unproven solve stopped early when the solver
	// gives one ("memory bound 4GiB reached").
	Reason string
	// ProvedBy names the settings of the portfolio member whose proof
	// this is (SolveConfig.Portfolio), "" without a portfolio or a proof.
	ProvedBy string
	// Search names the settings that order the search and the judge's
	// safety (SolveConfig.recordedSearch), so that a result says how it
	// was reached.
	Search    string
	Algo      string
	RZ, TT    bool
	Budget    int64
	Evaluator string
	// PaperNodes and RZTPaper are the papers' node counts by method as a
	// JSON object of strings ("-" = not solved), "" when the file has none.
	PaperNodes string
	RZTPaper   string
}

// Solved reports whether the row's result is proven.
func (r *SolveRow) Solved() bool { return r.Result == ResultWin || r.Result == ResultLoss }

// Agrees reports whether a proven result matches the file's winner; known
// is false when the result is unknown or the file names no winner.
func (r *SolveRow) Agrees() (agrees, known bool) {
	if !r.Solved() || r.Winner == "" {
		return false, false
	}
	return (r.Result == ResultWin) == (r.Winner == r.Living), true
}

// Paper decodes PaperNodes (nil when empty or malformed).
func (r *SolveRow) Paper() map[string]string { return decodeCounts(r.PaperNodes) }

func decodeCounts(s string) map[string]string {
	var m map[string]string
	if s == "" || json.Unmarshal([]byte(s), &m) != nil {
		return nil
	}
	return m
}

// SolveRowOf describes a solve of task under cfg.
func SolveRowOf(task SolveTask, res rzs.Result, cfg SolveConfig) SolveRow {
	cfg = cfg.withDefaults()
	pr := task.Problem
	pos := pr.Start
	r := SolveRow{
		ID: pr.ID, Set: task.Set, Source: filepath.ToSlash(filepath.Join(task.Set, filepath.Base(pr.Source))),
		Size: int32(pos.Size()), ToPlay: pos.ToMove().String(), Living: pr.Living().String(),
		Result: res.Status.String(), FirstMove: moveString(pos, res.FirstMove), Answer: moveString(pos, pr.Answer),
		Nodes: int64(res.Nodes), Seconds: res.Seconds, TTHits: int64(res.TTHits), TableHits: int64(res.TableHits),
		Aborted: res.Aborted, Reason: res.Reason, Algo: cfg.Algo, RZ: !cfg.NoRZ, TT: !cfg.NoTT, Budget: int64(cfg.Budget),
		Search: cfg.recordedSearch(), Evaluator: cfg.recordedEvaluator(), PaperNodes: encodeCounts(pr.PaperNodes), RZTPaper: encodeCounts(pr.RZTPaper),
	}
	if res.Status == rzs.Win {
		r.RZSize = int32(res.Zone.Len())
	}
	if pr.Winner == game.Black || pr.Winner == game.White {
		r.Winner = pr.Winner.String()
	}
	return r
}

// moveString writes a move as the problem files do: SGF point, "tt" for a
// pass, "" for none.
func moveString(pos *game.Position, m game.Point) string {
	switch m {
	case game.NoPoint:
		return ""
	case game.Pass:
		return PassMove
	}
	return pos.PointString(m)
}

func encodeCounts(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m) // a map of strings always marshals; keys sorted
	return string(b)
}

// solveColumn is one column of datasets.SolveResultsSchema: how a row's
// field is appended to the column's builder and read back from a record.
type solveColumn struct {
	name string
	put  func(b array.Builder, r *SolveRow)
	get  func(rec arrow.Record, rows []SolveRow) error
}

// valueArray and appender are the parts of Arrow's typed arrays and
// builders that the columns use.
type valueArray[T any] interface {
	arrow.Array
	Value(int) T
}

type appender[T any] interface {
	array.Builder
	Append(T)
}

func typedColumn[T any, A valueArray[T], B appender[T]](name string, field func(*SolveRow) *T) solveColumn {
	return solveColumn{
		name: name,
		put:  func(b array.Builder, r *SolveRow) { b.(B).Append(*field(r)) },
		get: func(rec arrow.Record, rows []SolveRow) error {
			col, err := datasets.Column[A](rec, name)
			if err != nil {
				return err
			}
			for i := range rows {
				*field(&rows[i]) = col.Value(i)
			}
			return nil
		},
	}
}

func strCol(name string, f func(*SolveRow) *string) solveColumn {
	return typedColumn[string, *array.String, *array.StringBuilder](name, f)
}

func i32Col(name string, f func(*SolveRow) *int32) solveColumn {
	return typedColumn[int32, *array.Int32, *array.Int32Builder](name, f)
}

func i64Col(name string, f func(*SolveRow) *int64) solveColumn {
	return typedColumn[int64, *array.Int64, *array.Int64Builder](name, f)
}

func f64Col(name string, f func(*SolveRow) *float64) solveColumn {
	return typedColumn[float64, *array.Float64, *array.Float64Builder](name, f)
}

func boolCol(name string, f func(*SolveRow) *bool) solveColumn {
	return typedColumn[bool, *array.Boolean, *array.BooleanBuilder](name, f)
}

// solveColumns are the writer and the reader, in the schema's column
// order (schemas_test.go in datasets checks the written schema).
var solveColumns = []solveColumn{
	strCol("id", func(r *SolveRow) *string { return &r.ID }),
	strCol("set", func(r *SolveRow) *string { return &r.Set }),
	strCol("source", func(r *SolveRow) *string { return &r.Source }),
	i32Col("size", func(r *SolveRow) *int32 { return &r.Size }),
	strCol("to_play", func(r *SolveRow) *string { return &r.ToPlay }),
	strCol("living", func(r *SolveRow) *string { return &r.Living }),
	strCol("winner", func(r *SolveRow) *string { return &r.Winner }),
	strCol("result", func(r *SolveRow) *string { return &r.Result }),
	strCol("first_move", func(r *SolveRow) *string { return &r.FirstMove }),
	strCol("answer_first_move", func(r *SolveRow) *string { return &r.Answer }),
	i64Col("nodes", func(r *SolveRow) *int64 { return &r.Nodes }),
	f64Col("seconds", func(r *SolveRow) *float64 { return &r.Seconds }),
	i32Col("rz_size", func(r *SolveRow) *int32 { return &r.RZSize }),
	i64Col("tt_hits", func(r *SolveRow) *int64 { return &r.TTHits }),
	i64Col("table_hits", func(r *SolveRow) *int64 { return &r.TableHits }),
	boolCol("aborted", func(r *SolveRow) *bool { return &r.Aborted }),
	strCol("algo", func(r *SolveRow) *string { return &r.Algo }),
	boolCol("rz", func(r *SolveRow) *bool { return &r.RZ }),
	boolCol("tt", func(r *SolveRow) *bool { return &r.TT }),
	i64Col("budget", func(r *SolveRow) *int64 { return &r.Budget }),
	strCol("evaluator", func(r *SolveRow) *string { return &r.Evaluator }),
	strCol("paper_nodes", func(r *SolveRow) *string { return &r.PaperNodes }),
	strCol("rzt_paper", func(r *SolveRow) *string { return &r.RZTPaper }),
	strCol("search", func(r *SolveRow) *string { return &r.Search }),
	strCol("proved_by", func(r *SolveRow) *string { return &r.ProvedBy }),
	strCol("reason", func(r *SolveRow) *string { return &r.Reason }),
}

// WriteSolveResults writes rows as a solve-results dataset into outDir with
// its report section (WriteSolveSection), the manifest last (from m, whose
// Kind and SchemaVersion are set here). The report directory of an earlier
// solve-results dataset in outDir is replaced.
func WriteSolveResults(ctx context.Context, outDir string, rows []SolveRow, m datasets.Manifest) (*datasets.Manifest, error) {
	if old, err := datasets.ReadManifest(outDir); err == nil && old.Kind == SolveResultsKind {
		if err := os.RemoveAll(filepath.Join(outDir, ReportDir)); err != nil {
			return nil, fmt.Errorf("evaluate: solve results: %w", err)
		}
	}
	schema := datasets.SolveResultsSchema()
	w, err := datasets.NewWriter(outDir, schema, datasets.WriterOptions{FilePrefix: "solve"})
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for i := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j, c := range solveColumns {
			c.put(b.Field(j), &rows[i])
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	if err := WriteSolveSection(outDir, m.Stage, rows); err != nil {
		return nil, err
	}
	m.Kind, m.SchemaVersion = SolveResultsKind, SolveResultsSchemaVersion
	return w.Commit(m)
}

// ReadSolveResults reads a solve-results dataset.
func ReadSolveResults(ctx context.Context, dir string) ([]SolveRow, *datasets.Manifest, error) {
	return readRows(ctx, dir, SolveResultsKind, SolveResultsSchemaVersion, appendSolveRows)
}

// appendSolveRows decodes one record of a solve-results dataset.
func appendSolveRows(rows []SolveRow, rec arrow.Record) ([]SolveRow, error) {
	batch := make([]SolveRow, rec.NumRows())
	for _, c := range solveColumns {
		if err := c.get(rec, batch); err != nil {
			return nil, err
		}
	}
	return append(rows, batch...), nil
}
