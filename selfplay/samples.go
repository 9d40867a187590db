package selfplay

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/nn"
)

// The dataset kind of self-play samples and its schema version.
const (
	SamplesKind          = "selfplay-samples"
	SamplesSchemaVersion = 1
)

// Sample columns (datasets.SelfplaySamplesSchema).
const (
	colGame   = "game"    // int32: the game's index in the run
	colMove   = "move"    // int32: the position's move number
	colToMove = "to_move" // int8: 1 Black, 2 White
	colPlanes = "planes"  // fixed_size_list<float32>[InputSize]: nn.Config.Encode
	colPolicy = "policy"  // fixed_size_list<float32>[N²+1]: visit counts, normalised
	colValue  = "value"   // float32: plain result for the side to move, ±1
	colDWin   = "dwin"    // fixed_size_list<float32>[D]: 1 = lived within d moves
	colDMask  = "dmask"   // fixed_size_list<float32>[D]: 1 = dwin known
)

// SamplesSchema returns the schema of the samples of a network config.
func SamplesSchema(c nn.Config) *arrow.Schema {
	return datasets.SelfplaySamplesSchema(c.InputSize(), c.PolicySize(), c.D)
}

// samplesRecord builds the record of the samples of games, their targets
// computed from each game's outcome. The caller releases it.
func samplesRecord(c nn.Config, games []*Game) arrow.Record {
	b := array.NewRecordBuilder(memory.NewGoAllocator(), SamplesSchema(c))
	defer b.Release()
	floats := func(i int, v []float32) {
		lb := b.Field(i).(*array.FixedSizeListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Float32Builder).AppendValues(v, nil)
	}
	for _, g := range games {
		for _, s := range g.samples {
			value, dwin, mask := FTLTargets(g.Outcome, s.move, s.toMove, c.D)
			b.Field(0).(*array.Int32Builder).Append(int32(g.Index))
			b.Field(1).(*array.Int32Builder).Append(int32(s.move))
			b.Field(2).(*array.Int8Builder).Append(int8(s.toMove))
			floats(3, s.planes)
			floats(4, s.policy)
			b.Field(5).(*array.Float32Builder).Append(value)
			floats(6, dwin)
			floats(7, mask)
		}
	}
	return b.NewRecord()
}

// Samples are training samples held in memory, sample-major, in the layout
// of nn.Batch.
type Samples struct {
	InputSize, PolicySize, D int
	N                        int
	Planes                   []float32 // N × InputSize
	Policy                   []float32 // N × PolicySize
	Value                    []float32 // N
	DWin, DMask              []float32 // N × D
	Game, Move               []int32   // N
	ToMove                   []game.Color
}

// ReadSamples reads a self-play samples dataset (verifying it) into memory.
func ReadSamples(ctx context.Context, dir string) (*Samples, *datasets.Manifest, error) {
	r, err := datasets.OpenKind(dir, SamplesKind, SamplesSchemaVersion)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	s := &Samples{}
	if sch := r.Schema(); sch != nil {
		if err := s.sizesFrom(sch); err != nil {
			return nil, nil, fmt.Errorf("selfplay: samples %s: %w", dir, err)
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if err := s.append(rec); err != nil {
			return nil, nil, fmt.Errorf("selfplay: samples %s: %w", dir, err)
		}
	}
	return s, r.Manifest(), nil
}

func (s *Samples) sizesFrom(sch *arrow.Schema) error {
	size := func(name string) (int, error) {
		idx := sch.FieldIndices(name)
		if len(idx) != 1 {
			return 0, fmt.Errorf("schema has %d columns %q, want 1", len(idx), name)
		}
		t, ok := sch.Field(idx[0]).Type.(*arrow.FixedSizeListType)
		if !ok {
			return 0, fmt.Errorf("column %q is %s, want a fixed_size_list", name, sch.Field(idx[0]).Type)
		}
		return int(t.Len()), nil
	}
	var err error
	if s.InputSize, err = size(colPlanes); err != nil {
		return err
	}
	if s.PolicySize, err = size(colPolicy); err != nil {
		return err
	}
	if s.D, err = size(colDWin); err != nil {
		return err
	}
	dm, err := size(colDMask)
	if err == nil && dm != s.D {
		err = fmt.Errorf("column %q holds %d values, %q %d", colDMask, dm, colDWin, s.D)
	}
	return err
}

// append adds a record's rows.
func (s *Samples) append(rec arrow.Record) error {
	games, err := datasets.Column[*array.Int32](rec, colGame)
	if err != nil {
		return err
	}
	moves, err := datasets.Column[*array.Int32](rec, colMove)
	if err != nil {
		return err
	}
	toMove, err := datasets.Column[*array.Int8](rec, colToMove)
	if err != nil {
		return err
	}
	values, err := datasets.Column[*array.Float32](rec, colValue)
	if err != nil {
		return err
	}
	n := int(rec.NumRows())
	for _, c := range []struct {
		name string
		size int
		dst  *[]float32
	}{{colPlanes, s.InputSize, &s.Planes}, {colPolicy, s.PolicySize, &s.Policy}, {colDWin, s.D, &s.DWin}, {colDMask, s.D, &s.DMask}} {
		if err := appendList(rec, c.name, c.size, n, c.dst); err != nil {
			return err
		}
	}
	for i := range n {
		s.Game = append(s.Game, games.Value(i))
		s.Move = append(s.Move, moves.Value(i))
		s.ToMove = append(s.ToMove, game.Color(toMove.Value(i)))
		s.Value = append(s.Value, values.Value(i))
	}
	s.N += n
	return nil
}

// appendList appends the n rows of a fixed_size_list<float32> column of
// width size to dst.
func appendList(rec arrow.Record, name string, size, n int, dst *[]float32) error {
	col, err := datasets.Column[*array.FixedSizeList](rec, name)
	if err != nil {
		return err
	}
	vals, ok := col.ListValues().(*array.Float32)
	if !ok {
		return fmt.Errorf("column %q holds %s, want float32", name, col.ListValues().DataType())
	}
	if w := int(col.DataType().(*arrow.FixedSizeListType).Len()); w != size {
		return fmt.Errorf("column %q holds %d values per row, want %d", name, w, size)
	}
	raw := vals.Float32Values()
	for i := range n {
		if col.IsNull(i) {
			return fmt.Errorf("column %q row %d is null", name, i)
		}
		lo, hi := col.ValueOffsets(i)
		*dst = append(*dst, raw[lo:hi]...)
	}
	return nil
}
