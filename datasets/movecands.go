package datasets

import (
	"context"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// The movecands dataset kind: one row per sampled position of a game record,
// holding every candidate move of the side to move (the legal moves, then the
// pass) with its active feature ids, and which candidate was played. The
// feature ids are those of one feature set, which the producer records in the
// manifest's Meta; this package does not interpret them.
//
// One row per position (rather than one per candidate) keeps a position's
// candidates together, as the feature models consume them, and stores each
// position's metadata once: the candidates are a list<int16> column and
// their features a list<list<int32>> column, parallel to it.
const (
	MoveCandsKind          = "movecands"
	MoveCandsSchemaVersion = 1
)

// PassMove is the candidate code of the pass in MoveCands.Moves.
const PassMove int16 = -1

// Colours in MoveCands.ToMove (the values of lifezero/game's Black and White).
const (
	ToMoveBlack int8 = 1
	ToMoveWhite int8 = 2
)

// DefaultMoveCandsRowsPerFile is the number of positions per data file when
// none is given: about 10 to 40 MB per file on 19x19.
const DefaultMoveCandsRowsPerFile = 10_000

// moveCandsBatchRows is the number of positions per record batch (a few MB
// of feature ids on 19x19).
const moveCandsBatchRows = 256

// MoveCands is one row of a movecands dataset: one position and its
// candidate moves.
type MoveCands struct {
	GameID     string // the game's id in its games dataset
	Date       string // the game's SGF date
	MoveNumber int32  // moves played before this position (0: the empty board)
	BoardSize  int32
	ToMove     int8  // ToMoveBlack or ToMoveWhite
	Played     int32 // index in Moves and Features of the move played
	// Moves are the candidates: x + y·BoardSize for a point (x, y from the
	// top left corner, as SGF counts them), PassMove for the pass.
	Moves []int16
	// Features[i] are the feature ids active for Moves[i].
	Features [][]int32
}

// Check reports what is wrong with a row, or nil.
func (r *MoveCands) Check() error {
	switch {
	case len(r.Moves) != len(r.Features):
		return fmt.Errorf("%d moves but %d feature lists", len(r.Moves), len(r.Features))
	case len(r.Moves) == 0:
		return fmt.Errorf("no candidate moves")
	case r.Played < 0 || int(r.Played) >= len(r.Moves):
		return fmt.Errorf("played index %d outside the %d candidates", r.Played, len(r.Moves))
	case r.BoardSize < 1 || r.BoardSize > 127:
		return fmt.Errorf("board size %d", r.BoardSize)
	case r.ToMove != ToMoveBlack && r.ToMove != ToMoveWhite:
		return fmt.Errorf("to_move %d: want %d (black) or %d (white)", r.ToMove, ToMoveBlack, ToMoveWhite)
	case r.MoveNumber < 0:
		return fmt.Errorf("negative move number %d", r.MoveNumber)
	}
	cells := int(r.BoardSize) * int(r.BoardSize)
	for i, m := range r.Moves {
		if m != PassMove && (m < 0 || int(m) >= cells) {
			return fmt.Errorf("candidate %d: move code %d is not a point of a %dx%d board or the pass", i, m, r.BoardSize, r.BoardSize)
		}
	}
	return nil
}

// MoveCandsBuilder accumulates rows into Arrow record batches.
type MoveCandsBuilder struct {
	b        *array.RecordBuilder
	gameID   *array.StringBuilder
	date     *array.StringBuilder
	moveNum  *array.Int32Builder
	size     *array.Int8Builder
	toMove   *array.Int8Builder
	played   *array.Int32Builder
	moves    *array.ListBuilder
	moveVals *array.Int16Builder
	feats    *array.ListBuilder
	cands    *array.ListBuilder
	ids      *array.Int32Builder
	n        int
}

// NewMoveCandsBuilder returns a builder for movecands records. Release it
// when done.
func NewMoveCandsBuilder() *MoveCandsBuilder {
	b := array.NewRecordBuilder(memory.NewGoAllocator(), MoveCandsSchema())
	mb := &MoveCandsBuilder{b: b}
	f := b.Fields()
	mb.gameID = f[0].(*array.StringBuilder)
	mb.date = f[1].(*array.StringBuilder)
	mb.moveNum = f[2].(*array.Int32Builder)
	mb.size = f[3].(*array.Int8Builder)
	mb.toMove = f[4].(*array.Int8Builder)
	mb.played = f[5].(*array.Int32Builder)
	mb.moves = f[6].(*array.ListBuilder)
	mb.moveVals = mb.moves.ValueBuilder().(*array.Int16Builder)
	mb.feats = f[7].(*array.ListBuilder)
	mb.cands = mb.feats.ValueBuilder().(*array.ListBuilder)
	mb.ids = mb.cands.ValueBuilder().(*array.Int32Builder)
	return mb
}

// Append adds one row after checking it (see MoveCands.Check).
func (mb *MoveCandsBuilder) Append(r *MoveCands) error {
	if err := r.Check(); err != nil {
		return fmt.Errorf("datasets: movecands row of game %s, move %d: %w", r.GameID, r.MoveNumber, err)
	}
	mb.gameID.Append(r.GameID)
	mb.date.Append(r.Date)
	mb.moveNum.Append(r.MoveNumber)
	mb.size.Append(int8(r.BoardSize))
	mb.toMove.Append(r.ToMove)
	mb.played.Append(r.Played)
	mb.moves.Append(true)
	mb.moveVals.AppendValues(r.Moves, nil)
	mb.feats.Append(true)
	for _, ids := range r.Features {
		mb.cands.Append(true)
		mb.ids.AppendValues(ids, nil)
	}
	mb.n++
	return nil
}

// Len is the number of rows appended since the last NewRecord.
func (mb *MoveCandsBuilder) Len() int { return mb.n }

// NewRecord returns the rows appended so far as a record (the caller
// releases it) and resets the builder.
func (mb *MoveCandsBuilder) NewRecord() arrow.Record {
	mb.n = 0
	return mb.b.NewRecord()
}

// Release frees the builder.
func (mb *MoveCandsBuilder) Release() { mb.b.Release() }

// MoveCandsWriter writes a movecands dataset row by row.
type MoveCandsWriter struct {
	w *Writer
	b *MoveCandsBuilder
}

// NewMoveCandsWriter prepares dir for a movecands dataset (see NewWriter).
// MaxRowsPerFile 0 means DefaultMoveCandsRowsPerFile.
func NewMoveCandsWriter(dir string, opts WriterOptions) (*MoveCandsWriter, error) {
	if opts.MaxRowsPerFile == 0 {
		opts.MaxRowsPerFile = DefaultMoveCandsRowsPerFile
	}
	w, err := NewWriter(dir, MoveCandsSchema(), opts)
	if err != nil {
		return nil, err
	}
	return &MoveCandsWriter{w: w, b: NewMoveCandsBuilder()}, nil
}

// Append adds one row; full record batches go to disk as they fill.
func (w *MoveCandsWriter) Append(r *MoveCands) error {
	if err := w.b.Append(r); err != nil {
		return err
	}
	if w.b.Len() >= moveCandsBatchRows {
		return w.flush()
	}
	return nil
}

func (w *MoveCandsWriter) flush() error {
	if w.b.Len() == 0 {
		return nil
	}
	rec := w.b.NewRecord()
	defer rec.Release()
	return w.w.Write(rec)
}

// Rows is the number of rows appended so far.
func (w *MoveCandsWriter) Rows() int64 { return w.w.Rows() + int64(w.b.Len()) }

// Commit writes the last rows and the manifest (kind and schema version are
// set here; m supplies the stage, input hash and meta).
func (w *MoveCandsWriter) Commit(m Manifest) (*Manifest, error) {
	if err := w.flush(); err != nil {
		return nil, err
	}
	w.b.Release()
	m.Kind, m.SchemaVersion = MoveCandsKind, MoveCandsSchemaVersion
	return w.w.Commit(m)
}

// Abort drops the file being written; without a manifest there is no
// dataset. It is a no-op after Commit.
func (w *MoveCandsWriter) Abort() { w.w.Abort() }

// MoveCandsFromRecord decodes the rows of a movecands record batch and calls
// fn with each, in order. Every row is freshly allocated (fn may keep it) and
// checked (see MoveCands.Check).
func MoveCandsFromRecord(rec arrow.Record, fn func(*MoveCands) error) error {
	cols, err := moveCandsColumns(rec)
	if err != nil {
		return err
	}
	moveVals, ok := cols.moves.ListValues().(*array.Int16)
	if !ok {
		return fmt.Errorf("datasets: column moves holds %s, want int16", cols.moves.ListValues().DataType())
	}
	cands, ok := cols.feats.ListValues().(*array.List)
	if !ok {
		return fmt.Errorf("datasets: column features holds %s, want list<int32>", cols.feats.ListValues().DataType())
	}
	ids, ok := cands.ListValues().(*array.Int32)
	if !ok {
		return fmt.Errorf("datasets: column features holds lists of %s, want int32", cands.ListValues().DataType())
	}
	allMoves, allIDs := moveVals.Int16Values(), ids.Int32Values()
	for i := range int(rec.NumRows()) {
		r := &MoveCands{
			GameID: cols.gameID.Value(i), Date: cols.date.Value(i), MoveNumber: cols.moveNum.Value(i),
			BoardSize: int32(cols.size.Value(i)), ToMove: cols.toMove.Value(i), Played: cols.played.Value(i),
		}
		ms, me := cols.moves.ValueOffsets(i)
		r.Moves = append([]int16(nil), allMoves[ms:me]...)
		cs, ce := cols.feats.ValueOffsets(i)
		r.Features = make([][]int32, ce-cs)
		if ce > cs {
			first, _ := cands.ValueOffsets(int(cs))
			_, last := cands.ValueOffsets(int(ce - 1))
			flat := make([]int32, last-first)
			copy(flat, allIDs[first:last])
			for c := cs; c < ce; c++ {
				s, e := cands.ValueOffsets(int(c))
				r.Features[c-cs] = flat[s-first : e-first : e-first]
			}
		}
		if err := r.Check(); err != nil {
			return fmt.Errorf("datasets: movecands row %d (game %s, move %d): %w", i, r.GameID, r.MoveNumber, err)
		}
		if err := fn(r); err != nil {
			return callbackError{err}
		}
	}
	return nil
}

// callbackError carries an error of the caller's fn through the decoding, so
// that only decoding errors get the file's name added.
type callbackError struct{ err error }

func (e callbackError) Error() string { return e.err.Error() }
func (e callbackError) Unwrap() error { return e.err }

type moveCandsCols struct {
	gameID, date    *array.String
	moveNum, played *array.Int32
	size, toMove    *array.Int8
	moves, feats    *array.List
}

func moveCandsColumns(rec arrow.Record) (c moveCandsCols, err error) {
	get := func(name string, dst any) {
		if err != nil {
			return
		}
		switch d := dst.(type) {
		case **array.String:
			*d, err = Column[*array.String](rec, name)
		case **array.Int32:
			*d, err = Column[*array.Int32](rec, name)
		case **array.Int8:
			*d, err = Column[*array.Int8](rec, name)
		case **array.List:
			*d, err = Column[*array.List](rec, name)
		}
	}
	get("game_id", &c.gameID)
	get("date", &c.date)
	get("move_number", &c.moveNum)
	get("board_size", &c.size)
	get("to_move", &c.toMove)
	get("played", &c.played)
	get("moves", &c.moves)
	get("features", &c.feats)
	return c, err
}

// ForEachMoveCands calls fn with every row of the movecands dataset in dir,
// in order (see MoveCandsFromRecord). It checks the dataset's kind and schema
// version, and stops at the first error or when ctx is done.
func ForEachMoveCands(ctx context.Context, dir string, fn func(*MoveCands) error) (*Manifest, error) {
	r, err := OpenKind(dir, MoveCandsKind, MoveCandsSchemaVersion)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	err = r.forEach(ctx, func(rec arrow.Record) error {
		return decodeMoveCands(rec, r.m.Files[r.file].Name, dir, fn)
	})
	if err != nil {
		return nil, err
	}
	return r.m, nil
}

// ForEachMoveCandsFile calls fn with every row of one data file of the
// movecands dataset in dir: m.Files[file], where m is the dataset's manifest
// as ReadManifest returned it. Unlike ForEachMoveCands it verifies only that
// file (size, SHA-256 and row count against its entry), so visiting a
// dataset's files one at a time, in any order, reads each file once. It
// checks m's kind and schema version, and stops at the first error or when
// ctx is done.
func ForEachMoveCandsFile(ctx context.Context, dir string, m *Manifest, file int, fn func(*MoveCands) error) error {
	if err := checkKind(dir, m, MoveCandsKind, MoveCandsSchemaVersion); err != nil {
		return err
	}
	if file < 0 || file >= len(m.Files) {
		return fmt.Errorf("datasets: %s: no data file %d (the manifest lists %d)", dir, file, len(m.Files))
	}
	// A Reader over a manifest listing only that file checks its rows
	// against the entry as it reads.
	one := *m
	one.Files = m.Files[file : file+1]
	r := &Reader{dir: dir, m: &one, file: -1}
	if err := r.openNext(); err != nil {
		return err
	}
	defer r.Close()
	return r.forEach(ctx, func(rec arrow.Record) error {
		return decodeMoveCands(rec, one.Files[0].Name, dir, fn)
	})
}

// decodeMoveCands is MoveCandsFromRecord that names the dataset and file in
// decoding errors and passes fn's own errors through unchanged.
func decodeMoveCands(rec arrow.Record, file, dir string, fn func(*MoveCands) error) error {
	err := MoveCandsFromRecord(rec, fn)
	if cb, ok := err.(callbackError); ok {
		return cb.err
	}
	if err != nil {
		return fmt.Errorf("%s (file %s): %w", dir, file, err)
	}
	return nil
}
