package rztstore

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
	"lifezero/rzs"
)

// The pattern database's dataset kind and schema version; its columns are
// datasets.RZPatternsSchema.
const (
	Kind          = "rz-patterns"
	SchemaVersion = 1
)

// Table is what the store reads and fills: a pattern table of package rzs
// (*rzs.TreeTable or *rzs.LinearTable).
type Table interface {
	PatternKey() rzs.PatternKey
	ExportPatterns() []rzs.PatternRecord
	ImportPatterns([]rzs.PatternRecord) error
}

// batchRows is the number of rows per record batch.
const batchRows = 4096

// Save writes the table's entries, preloaded ones included, as a pattern
// database in dir (an empty or dataset directory). m supplies the
// manifest's stage, input hash and meta; the kind, the schema version and
// the meta keys problem, fingerprint and board_size are set here, and the
// input hash defaults to the fingerprint.
func Save(dir string, t Table, m datasets.Manifest) (*datasets.Manifest, error) {
	key := t.PatternKey()
	w, err := datasets.NewWriter(dir, datasets.RZPatternsSchema(), datasets.WriterOptions{})
	if err != nil {
		return nil, fmt.Errorf("rztstore: save patterns: %w", err)
	}
	defer w.Abort()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), datasets.RZPatternsSchema())
	defer b.Release()
	recs := t.ExportPatterns()
	for i := range recs {
		appendRow(b, key, &recs[i])
		if (i+1)%batchRows == 0 || i == len(recs)-1 {
			rec := b.NewRecord()
			err := w.Write(rec)
			rec.Release()
			if err != nil {
				return nil, fmt.Errorf("rztstore: save patterns: %w", err)
			}
		}
	}
	m.Kind, m.SchemaVersion = Kind, SchemaVersion
	meta := map[string]string{}
	for k, v := range m.Meta {
		meta[k] = v
	}
	meta["problem"], meta["fingerprint"] = key.ProblemID, key.Fingerprint
	meta["board_size"] = strconv.Itoa(key.BoardSize)
	m.Meta = meta
	if m.InputHash == "" {
		m.InputHash = key.Fingerprint
	}
	out, err := w.Commit(m)
	if err != nil {
		return nil, fmt.Errorf("rztstore: save patterns: %w", err)
	}
	return out, nil
}

func appendRow(b *array.RecordBuilder, key rzs.PatternKey, r *rzs.PatternRecord) {
	f := b.Fields()
	f[0].(*array.StringBuilder).Append(key.ProblemID)
	f[1].(*array.StringBuilder).Append(key.Fingerprint)
	f[2].(*array.Int32Builder).Append(int32(key.BoardSize))
	f[3].(*array.Int64Builder).Append(int64(r.Stamp))
	f[4].(*array.StringBuilder).Append(r.ToMove.String())
	f[5].(*array.Int16Builder).Append(int16(r.Ko))
	appendPoints(f[6].(*array.ListBuilder), r.Zone)
	f[7].(*array.StringBuilder).Append(r.Contents)
	appendPoints(f[8].(*array.ListBuilder), r.Crucial)
}

// appendPoints appends a list of row-major indices (at most 19*19, so
// int16 holds them).
func appendPoints(lb *array.ListBuilder, pts []int) {
	lb.Append(true)
	vb := lb.ValueBuilder().(*array.Int16Builder)
	for _, p := range pts {
		vb.Append(int16(p))
	}
}

// Load preloads into t the rows of the pattern database in dir whose
// fingerprint and board size are t's, in their order; they get the oldest
// stamps, before every entry of the search. It returns how many rows were
// loaded and how many belong to other problems (skipped). The table must
// be empty (rzs.ErrTableNotEmpty). A malformed row is an error naming the
// dataset and row, and leaves the table empty.
func Load(ctx context.Context, dir string, t Table) (loaded, skipped int, err error) {
	st, err := LoadAll(ctx, []string{dir}, t)
	return st.Loaded, st.Skipped, err
}

// LoadStats counts the rows LoadAll read: loaded into the table, skipped
// (another problem's rules), and dropped as duplicates of earlier rows.
type LoadStats struct {
	Loaded, Skipped, Duplicates int
}

// LoadAll preloads into t the rows of t's rules from every pattern
// database of dirs, in the order of dirs and of their rows, as Load does
// one. Databases saved from other problems under the same rules (the same
// fingerprint: the random kill-all positions beside the papers' 7x7 set)
// are valid here for the reason a table's own entries are valid at every
// position of its search: an entry is a win proven on its zone whatever
// stands outside it. A row equal to an earlier one (zone, contents, mover,
// ko and crucial stones) is dropped and counted as duplicate: two searches
// often prove the same pattern, and a second copy only costs lookups.
func LoadAll(ctx context.Context, dirs []string, t Table) (LoadStats, error) {
	var st LoadStats
	key := t.PatternKey()
	var recs []rzs.PatternRecord
	var origin []rowOrigin // where each of recs came from, for errors
	seen := map[string]bool{}
	for _, dir := range dirs {
		n := len(recs)
		var rows int
		var err error
		if recs, origin, rows, err = readRows(ctx, dir, key, recs, origin); err != nil {
			return LoadStats{}, err
		}
		st.Skipped += rows - (len(recs) - n)
		kept := recs[:n]
		keptOrigin := origin[:n]
		for i := n; i < len(recs); i++ {
			id := recordIdentity(&recs[i])
			if seen[id] {
				st.Duplicates++
				continue
			}
			seen[id] = true
			kept, keptOrigin = append(kept, recs[i]), append(keptOrigin, origin[i])
		}
		recs, origin = kept, keptOrigin
	}
	if err := t.ImportPatterns(recs); err != nil {
		var re *rzs.PatternRecordError
		if errors.As(err, &re) {
			o := origin[re.Index]
			return LoadStats{}, fmt.Errorf("rztstore: load patterns from %s: row %d: %w", o.dir, o.row, re.Err)
		}
		return LoadStats{}, fmt.Errorf("rztstore: load patterns: %w", err)
	}
	st.Loaded = len(recs)
	return st, nil
}

// rowOrigin is the dataset and row a loaded record came from.
type rowOrigin struct {
	dir string
	row int
}

// readRows appends the rows of key's rules in the pattern database in dir
// to recs, and their origins to origin; rows is the database's row count.
func readRows(ctx context.Context, dir string, key rzs.PatternKey, recs []rzs.PatternRecord, origin []rowOrigin) (_ []rzs.PatternRecord, _ []rowOrigin, rows int, _ error) {
	r, err := datasets.OpenKind(dir, Kind, SchemaVersion)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("rztstore: load patterns: %w", err)
	}
	defer r.Close()
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, 0, err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return recs, origin, rows, nil
		}
		if err != nil {
			return nil, nil, 0, fmt.Errorf("rztstore: load patterns from %s: %w", dir, err)
		}
		var at []int
		n := len(recs)
		if recs, at, err = decodeRows(rec, key, rows, recs, at); err != nil {
			return nil, nil, 0, fmt.Errorf("rztstore: load patterns from %s: %w", dir, err)
		}
		for k := range recs[n:] {
			origin = append(origin, rowOrigin{dir: dir, row: at[k]})
		}
		rows += int(rec.NumRows())
	}
}

// recordIdentity is what makes two records the same entry: everything
// but the stamp, as bytes (points and the ko fit in two bytes each; the
// zone's length comes first, so the fields cannot run into each other).
// It was fmt.Sprint of the fields, 40% of a database's load time.
func recordIdentity(r *rzs.PatternRecord) string {
	b := make([]byte, 0, 5+3*len(r.Zone)+2*len(r.Crucial))
	b = append(b, byte(r.ToMove), byte(r.Ko+1), byte((r.Ko+1)>>8), byte(len(r.Zone)), byte(len(r.Zone)>>8))
	for _, p := range r.Zone {
		b = append(b, byte(p), byte(p>>8))
	}
	b = append(b, r.Contents...)
	for _, p := range r.Crucial {
		b = append(b, byte(p), byte(p>>8))
	}
	return string(b)
}

// columns are the decoded columns of a record batch.
type columns struct {
	fingerprint, toMove, contents *array.String
	size                          *array.Int32
	stamp                         *array.Int64
	ko                            *array.Int16
	zone, crucial                 *array.List
}

func columnsOf(rec arrow.Record) (columns, error) {
	var c columns
	var err error
	for _, col := range []struct {
		name string
		dst  **array.String
	}{{"fingerprint", &c.fingerprint}, {"to_move", &c.toMove}, {"contents", &c.contents}} {
		if *col.dst, err = datasets.Column[*array.String](rec, col.name); err != nil {
			return c, err
		}
	}
	if c.size, err = datasets.Column[*array.Int32](rec, "board_size"); err != nil {
		return c, err
	}
	if c.stamp, err = datasets.Column[*array.Int64](rec, "stamp"); err != nil {
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

// decodeRows appends the record's rows of key's problem to recs, and
// their dataset row numbers to rows. first is the dataset row number of
// the record's first row.
func decodeRows(rec arrow.Record, key rzs.PatternKey, first int, recs []rzs.PatternRecord, rows []int) ([]rzs.PatternRecord, []int, error) {
	c, err := columnsOf(rec)
	if err != nil {
		return recs, rows, err
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		if c.fingerprint.Value(i) != key.Fingerprint || int(c.size.Value(i)) != key.BoardSize {
			continue
		}
		r, err := decodeRow(&c, i)
		if err != nil {
			return recs, rows, fmt.Errorf("row %d: %w", first+i, err)
		}
		recs, rows = append(recs, r), append(rows, first+i)
	}
	return recs, rows, nil
}

// decodeRow reads row i; rzs checks the points against the board.
func decodeRow(c *columns, i int) (rzs.PatternRecord, error) {
	r := rzs.PatternRecord{Stamp: uint64(c.stamp.Value(i)), Ko: int(c.ko.Value(i)), Contents: c.contents.Value(i)}
	switch c.toMove.Value(i) {
	case "B":
		r.ToMove = game.Black
	case "W":
		r.ToMove = game.White
	default:
		return r, fmt.Errorf("to_move %q is not B or W", c.toMove.Value(i))
	}
	var err error
	if r.Zone, err = pointList(c.zone, i); err != nil {
		return r, fmt.Errorf("zone: %w", err)
	}
	if r.Crucial, err = pointList(c.crucial, i); err != nil {
		return r, fmt.Errorf("crucial: %w", err)
	}
	return r, nil
}

// pointList reads row i of a list column of row-major indices.
func pointList(col *array.List, i int) ([]int, error) {
	vals, ok := col.ListValues().(*array.Int16)
	if !ok {
		return nil, fmt.Errorf("values are %s, want int16", col.ListValues().DataType())
	}
	start, end := col.ValueOffsets(i)
	out := make([]int, 0, end-start)
	for k := start; k < end; k++ {
		out = append(out, int(vals.Value(int(k))))
	}
	return out, nil
}
