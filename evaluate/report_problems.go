package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
	"lifezero/game"
)

// The problems dataset kind: one row per L&D problem of a problem set.
const (
	ProblemsKind          = "problems"
	ProblemsSchemaVersion = 1
)

// ProblemRow is one row of a problems dataset: what a problem file says.
type ProblemRow struct {
	ID         string
	Source     string // file name
	Size       int32
	ToPlay     string // "B" or "W"
	Winner     string // "B", "W" or "" when the file does not say
	GoalBlack  string // live, kill, live_any, kill_all
	GoalWhite  string
	KoBlack    string // allow_ko, disallow_ko (or the rule's name)
	KoWhite    string
	Crucial    int32  // number of crucial stones
	Region     int32  // number of points of the allowed region
	FTLD       int32  // the paper's FTL d index; 0 unknown
	Answer     string // book first move as an SGF point, "pass", or ""
	PaperNodes string // the papers' node counts as a JSON object
}

// problemColumns are the writer and the reader, in the order of
// datasets.ProblemsSchema (an int32 column has i32, a string column str).
var problemColumns = []struct {
	name string
	str  func(*ProblemRow) *string
	i32  func(*ProblemRow) *int32
}{
	{name: "id", str: func(r *ProblemRow) *string { return &r.ID }},
	{name: "source", str: func(r *ProblemRow) *string { return &r.Source }},
	{name: "size", i32: func(r *ProblemRow) *int32 { return &r.Size }},
	{name: "to_play", str: func(r *ProblemRow) *string { return &r.ToPlay }},
	{name: "winner", str: func(r *ProblemRow) *string { return &r.Winner }},
	{name: "goal_black", str: func(r *ProblemRow) *string { return &r.GoalBlack }},
	{name: "goal_white", str: func(r *ProblemRow) *string { return &r.GoalWhite }},
	{name: "ko_black", str: func(r *ProblemRow) *string { return &r.KoBlack }},
	{name: "ko_white", str: func(r *ProblemRow) *string { return &r.KoWhite }},
	{name: "crucial_stones", i32: func(r *ProblemRow) *int32 { return &r.Crucial }},
	{name: "region_size", i32: func(r *ProblemRow) *int32 { return &r.Region }},
	{name: "ftl_d", i32: func(r *ProblemRow) *int32 { return &r.FTLD }},
	{name: "answer_first_move", str: func(r *ProblemRow) *string { return &r.Answer }},
	{name: "paper_nodes", str: func(r *ProblemRow) *string { return &r.PaperNodes }},
}

// ProblemRowOf describes a loaded problem.
func ProblemRowOf(pr *game.Problem) ProblemRow {
	pos := pr.Start
	r := ProblemRow{
		ID:        pr.ID,
		Source:    filepath.Base(pr.Source),
		Size:      int32(pos.Size()),
		ToPlay:    pos.ToMove().String(),
		GoalBlack: pr.Goal[game.Black].String(),
		GoalWhite: pr.Goal[game.White].String(),
		KoBlack:   koName(pos.KoRule(game.Black)),
		KoWhite:   koName(pos.KoRule(game.White)),
		Crucial:   int32(pr.Crucial.Len()),
		Region:    int32(pr.Region.Len()),
		FTLD:      int32(pr.FTLD),
	}
	if pr.Winner == game.Black || pr.Winner == game.White {
		r.Winner = pr.Winner.String()
	}
	if pr.Answer != game.NoPoint {
		r.Answer = pos.PointString(pr.Answer)
	}
	if len(pr.PaperNodes) > 0 {
		b, _ := json.Marshal(pr.PaperNodes) // map keys come out sorted
		r.PaperNodes = string(b)
	}
	return r
}

// koName gives a ko rule the problem files' name.
func koName(r game.KoRule) string {
	switch r {
	case game.PositionalSuperko:
		return "allow_ko"
	case game.NoKoCapture:
		return "disallow_ko"
	}
	return r.String()
}

// WriteProblems writes rows as a problems dataset into outDir with its report
// section, the manifest last (from m, whose Kind and SchemaVersion are set
// here).
func WriteProblems(ctx context.Context, outDir string, rows []ProblemRow, m datasets.Manifest) (*datasets.Manifest, error) {
	w, err := datasets.NewWriter(outDir, datasets.ProblemsSchema(), datasets.WriterOptions{FilePrefix: "problems"})
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), datasets.ProblemsSchema())
	defer b.Release()
	for i := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j, c := range problemColumns {
			if c.i32 != nil {
				b.Field(j).(*array.Int32Builder).Append(*c.i32(&rows[i]))
			} else {
				b.Field(j).(*array.StringBuilder).Append(*c.str(&rows[i]))
			}
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	if err := WriteSection(outDir, "Problems", ProblemsMarkdown(rows)); err != nil {
		return nil, err
	}
	m.Kind, m.SchemaVersion = ProblemsKind, ProblemsSchemaVersion
	return w.Commit(m)
}

// ReadProblems reads a problems dataset.
func ReadProblems(ctx context.Context, dir string) ([]ProblemRow, *datasets.Manifest, error) {
	return readRows(ctx, dir, ProblemsKind, ProblemsSchemaVersion, appendProblemRows)
}

// readRows reads every record of a dataset of the given kind and version,
// appending each record's rows with appendRows; errors name the dataset.
func readRows[T any](ctx context.Context, dir, kind string, version int, appendRows func([]T, arrow.Record) ([]T, error)) ([]T, *datasets.Manifest, error) {
	r, err := datasets.OpenKind(dir, kind, version)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	var rows []T
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return rows, r.Manifest(), nil
		}
		if err != nil {
			return nil, nil, err
		}
		if rows, err = appendRows(rows, rec); err != nil {
			return nil, nil, fmt.Errorf("evaluate: %s dataset %s: %w", kind, dir, err)
		}
	}
}

func appendProblemRows(rows []ProblemRow, rec arrow.Record) ([]ProblemRow, error) {
	base := len(rows)
	rows = append(rows, make([]ProblemRow, rec.NumRows())...)
	for _, c := range problemColumns {
		if c.i32 != nil {
			col, err := datasets.Column[*array.Int32](rec, c.name)
			if err != nil {
				return nil, err
			}
			for i := 0; i < col.Len(); i++ {
				*c.i32(&rows[base+i]) = col.Value(i)
			}
			continue
		}
		col, err := datasets.Column[*array.String](rec, c.name)
		if err != nil {
			return nil, err
		}
		for i := 0; i < col.Len(); i++ {
			*c.str(&rows[base+i]) = col.Value(i)
		}
	}
	return rows, nil
}

// ProblemsMarkdown is the report section of a problem set: counts by board
// size and goal, then one table row per problem.
func ProblemsMarkdown(rows []ProblemRow) string {
	var b strings.Builder
	counts := map[string]int{}
	for _, r := range rows {
		counts[fmt.Sprintf("%dx%d, %s", r.Size, r.Size, goalPair(r))]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(&b, "%d problems:", len(rows))
	for _, k := range keys {
		fmt.Fprintf(&b, " %d on %s;", counts[k], k)
	}
	b.WriteString("\n\n")
	table := make([][]string, len(rows))
	for i, r := range rows {
		table[i] = []string{r.ID, fmt.Sprintf("%dx%d", r.Size, r.Size), r.ToPlay, orDash(r.Winner), goalPair(r),
			"B " + r.KoBlack + ", W " + r.KoWhite, strconv.Itoa(int(r.Crucial)), strconv.Itoa(int(r.Region)),
			orDash(intOrEmpty(r.FTLD)), orDash(r.Answer)}
	}
	b.WriteString(MarkdownTable([]string{"id", "board", "to play", "winner", "goals", "ko", "crucial stones",
		"region", "ftl_d", "book move"}, table))
	return b.String()
}

func goalPair(r ProblemRow) string { return "B " + r.GoalBlack + " / W " + r.GoalWhite }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func intOrEmpty(n int32) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(int(n))
}
