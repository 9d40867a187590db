package rzs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
	"lifezero/game"
)

// The pattern database: a dataset of kind "rz-patterns" with one row per
// table entry, oldest first. Points are stored board-independently as
// row-major indices y*size+x. A row is only valid under the rules it was
// proven under, so each carries the fingerprint of its problem (board
// size, goals, ko rules, region, crucial stones; see ProblemFingerprint),
// and LoadPatterns preloads only the rows whose fingerprint is the
// table's.
const (
	PatternsKind          = "rz-patterns"
	PatternsSchemaVersion = 1
)

// PatternsSchema is the Arrow schema of a pattern database (version 1).
// contents holds one character per zone point, in the order of zone: 'B',
// 'W' or '.' (empty). ko is -1 when there is no ko point. stamp is the
// entry's insertion index in the run that proved it.
func PatternsSchema() *arrow.Schema {
	points := arrow.ListOf(arrow.PrimitiveTypes.Int16)
	return arrow.NewSchema([]arrow.Field{
		{Name: "problem_id", Type: arrow.BinaryTypes.String},
		{Name: "fingerprint", Type: arrow.BinaryTypes.String},
		{Name: "board_size", Type: arrow.PrimitiveTypes.Int32},
		{Name: "stamp", Type: arrow.PrimitiveTypes.Int64},
		{Name: "to_move", Type: arrow.BinaryTypes.String},
		{Name: "ko", Type: arrow.PrimitiveTypes.Int16},
		{Name: "zone", Type: points},
		{Name: "contents", Type: arrow.BinaryTypes.String},
		{Name: "crucial", Type: points},
	}, nil)
}

// patternBatchRows is the number of rows per record batch.
const patternBatchRows = 4096

// SavePatterns writes the table's entries, preloaded ones included, as a
// pattern database in dir (an empty or dataset directory). m supplies the
// manifest's stage, input hash and meta; the kind, the schema version and
// the meta keys problem, fingerprint and board_size are set here.
func (s *patternStore) SavePatterns(dir string, m datasets.Manifest) (*datasets.Manifest, error) {
	w, err := datasets.NewWriter(dir, PatternsSchema(), datasets.WriterOptions{})
	if err != nil {
		return nil, fmt.Errorf("rzs: save patterns: %w", err)
	}
	defer w.Abort()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), PatternsSchema())
	defer b.Release()
	for i := range s.entries {
		s.appendRow(b, &s.entries[i])
		if (i+1)%patternBatchRows == 0 || i == len(s.entries)-1 {
			rec := b.NewRecord()
			err := w.Write(rec)
			rec.Release()
			if err != nil {
				return nil, fmt.Errorf("rzs: save patterns: %w", err)
			}
		}
	}
	m.Kind, m.SchemaVersion = PatternsKind, PatternsSchemaVersion
	meta := map[string]string{}
	for k, v := range m.Meta {
		meta[k] = v
	}
	meta["problem"], meta["fingerprint"] = s.problem.id, s.problem.fingerprint
	meta["board_size"] = strconv.Itoa(s.problem.size)
	m.Meta = meta
	if m.InputHash == "" {
		m.InputHash = s.problem.fingerprint
	}
	out, err := w.Commit(m)
	if err != nil {
		return nil, fmt.Errorf("rzs: save patterns: %w", err)
	}
	return out, nil
}

func (s *patternStore) appendRow(b *array.RecordBuilder, e *patternEntry) {
	board := s.problem.board
	f := b.Fields()
	f[0].(*array.StringBuilder).Append(s.problem.id)
	f[1].(*array.StringBuilder).Append(s.problem.fingerprint)
	f[2].(*array.Int32Builder).Append(int32(s.problem.size))
	f[3].(*array.Int64Builder).Append(int64(e.stamp))
	f[4].(*array.StringBuilder).Append(e.toMove.String())
	ko := int16(-1)
	if e.ko >= 0 {
		ko = int16(rowMajor(board, e.ko))
	}
	f[5].(*array.Int16Builder).Append(ko)
	contents := make([]byte, 0, e.zone.Len())
	appendPoints(f[6].(*array.ListBuilder), board, &e.zone, func(p game.Point) {
		contents = append(contents, e.contentAt(p).String()[0])
	})
	f[7].(*array.StringBuilder).Append(string(contents))
	appendPoints(f[8].(*array.ListBuilder), board, &e.crucial, func(game.Point) {})
}

// appendPoints appends set as a list of row-major indices, calling each
// for every point in order.
func appendPoints(lb *array.ListBuilder, board *game.Board, set *game.PointSet, each func(game.Point)) {
	lb.Append(true)
	vb := lb.ValueBuilder().(*array.Int16Builder)
	set.ForEach(func(p game.Point) {
		vb.Append(int16(rowMajor(board, p)))
		each(p)
	})
}

// ErrTableNotEmpty is returned when patterns are loaded into a table that
// already holds entries: preloaded entries must be the oldest.
var ErrTableNotEmpty = errors.New("rzs: pattern table not empty; load patterns before the search")

// LoadPatterns preloads the rows of the pattern database in dir whose
// problem fingerprint is the table's, in their order; they get the oldest
// stamps, before every entry of the search. It returns how many rows were
// loaded and how many belong to other problems (skipped). The table must
// be empty. A malformed row is an error naming the dataset and row, and
// leaves the table empty.
func (s *patternStore) LoadPatterns(ctx context.Context, dir string) (loaded, skipped int, err error) {
	if len(s.entries) > 0 {
		return 0, 0, ErrTableNotEmpty
	}
	r, err := datasets.OpenKind(dir, PatternsKind, PatternsSchemaVersion)
	if err != nil {
		return 0, 0, fmt.Errorf("rzs: load patterns: %w", err)
	}
	defer r.Close()
	row := 0
	for {
		if err := ctx.Err(); err != nil {
			s.entries = s.entries[:0]
			return 0, 0, err
		}
		rec, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			s.entries = s.entries[:0]
			return 0, 0, fmt.Errorf("rzs: load patterns from %s: %w", dir, err)
		}
		n, err := s.decodeRows(rec, row)
		if err != nil {
			s.entries = s.entries[:0]
			return 0, 0, fmt.Errorf("rzs: load patterns from %s: %w", dir, err)
		}
		row += int(rec.NumRows())
		skipped += int(rec.NumRows()) - n
	}
	s.preloaded = len(s.entries)
	for i := range s.entries {
		s.idx.add(int32(i))
	}
	if len(s.entries) >= firstRebuild {
		s.idx.rebuild()
		s.nextPhase = nextRebuildAfter(len(s.entries))
	}
	return len(s.entries), skipped, nil
}

// patternColumns are the decoded columns of a record batch.
type patternColumns struct {
	id, fingerprint, toMove, contents *array.String
	size                              *array.Int32
	ko                                *array.Int16
	zone, crucial                     *array.List
}

func columnsOf(rec arrow.Record) (patternColumns, error) {
	var c patternColumns
	var err error
	for _, col := range []struct {
		name string
		dst  **array.String
	}{{"problem_id", &c.id}, {"fingerprint", &c.fingerprint}, {"to_move", &c.toMove}, {"contents", &c.contents}} {
		if *col.dst, err = datasets.Column[*array.String](rec, col.name); err != nil {
			return c, err
		}
	}
	if c.size, err = datasets.Column[*array.Int32](rec, "board_size"); err != nil {
		return c, err
	}
	if c.ko, err = datasets.Column[*array.Int16](rec, "ko"); err != nil {
		return c, err
	}
	if c.zone, err = datasets.Column[*array.List](rec, "zone"); err != nil {
		return c, err
	}
	c.crucial, err = datasets.Column[*array.List](rec, "crucial")
	return c, err
}

// decodeRows appends the record's rows of this table's problem and returns
// how many it took. first is the dataset row number of the record's first
// row, for errors.
func (s *patternStore) decodeRows(rec arrow.Record, first int) (int, error) {
	c, err := columnsOf(rec)
	if err != nil {
		return 0, err
	}
	taken := 0
	for i := 0; i < int(rec.NumRows()); i++ {
		if c.fingerprint.Value(i) != s.problem.fingerprint || int(c.size.Value(i)) != s.problem.size {
			continue
		}
		e, err := s.decodeRow(&c, i)
		if err != nil {
			return 0, fmt.Errorf("row %d: %w", first+i, err)
		}
		e.stamp = uint64(len(s.entries) + 1)
		s.entries = append(s.entries, e)
		taken++
	}
	return taken, nil
}

func (s *patternStore) decodeRow(c *patternColumns, i int) (patternEntry, error) {
	var e patternEntry
	switch c.toMove.Value(i) {
	case "B":
		e.toMove = game.Black
	case "W":
		e.toMove = game.White
	default:
		return e, fmt.Errorf("to_move %q is not B or W", c.toMove.Value(i))
	}
	e.ko = game.NoPoint
	if k := int(c.ko.Value(i)); k != -1 {
		p, err := s.pointAt(k)
		if err != nil {
			return e, fmt.Errorf("ko: %w", err)
		}
		e.ko = p
	}
	zone, err := s.pointList(c.zone, i)
	if err != nil {
		return e, fmt.Errorf("zone: %w", err)
	}
	contents := c.contents.Value(i)
	if len(contents) != len(zone) {
		return e, fmt.Errorf("contents has %d characters for %d zone points", len(contents), len(zone))
	}
	for k, p := range zone {
		if e.zone.Has(p) {
			return e, fmt.Errorf("zone: point %d repeated", rowMajor(s.problem.board, p))
		}
		e.zone.Add(p)
		switch contents[k] {
		case 'B':
			e.black.Add(p)
		case 'W':
			e.white.Add(p)
		case '.':
		default:
			return e, fmt.Errorf("contents: %q at %d is not B, W or .", contents[k], k)
		}
	}
	crucial, err := s.pointList(c.crucial, i)
	if err != nil {
		return e, fmt.Errorf("crucial: %w", err)
	}
	for _, p := range crucial {
		if !e.zone.Has(p) {
			return e, fmt.Errorf("crucial point %d is not in the zone", rowMajor(s.problem.board, p))
		}
		e.crucial.Add(p)
	}
	return e, nil
}

// pointList reads row i of a list column of row-major indices.
func (s *patternStore) pointList(col *array.List, i int) ([]game.Point, error) {
	vals, ok := col.ListValues().(*array.Int16)
	if !ok {
		return nil, fmt.Errorf("values are %s, want int16", col.ListValues().DataType())
	}
	start, end := col.ValueOffsets(i)
	out := make([]game.Point, 0, end-start)
	for k := start; k < end; k++ {
		p, err := s.pointAt(int(vals.Value(int(k))))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// pointAt converts a row-major index to a point of the table's board.
func (s *patternStore) pointAt(k int) (game.Point, error) {
	n := s.problem.size
	if k < 0 || k >= n*n {
		return game.NoPoint, fmt.Errorf("point index %d is off a %dx%d board", k, n, n)
	}
	return s.problem.board.Point(k%n, k/n), nil
}
