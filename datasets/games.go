package datasets

import (
	"context"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// The games dataset kind: one row per game record.
const (
	GamesKind          = "games"
	GamesSchemaVersion = 1
)

// Game is one row of a games dataset.
type Game struct {
	GameID    string  // content hash of the record (see ImportRecords)
	Source    string  // input file (relative to the input dir) + "#" + index in its collection
	Date      string  // SGF DT
	Black     string  // SGF PB
	White     string  // SGF PW
	BlackRank string  // SGF BR
	WhiteRank string  // SGF WR
	Komi      float64 // SGF KM, 0 when absent
	Result    string  // SGF RE
	BoardSize int32   // SGF SZ, 19 when absent
	Handicap  int32   // SGF HA, 0 when absent
	Moves     string  // main line moves as "B[pd];W[dp];...", passes kept as in the file
	NumMoves  int32
}

// GameBuilder accumulates games into Arrow record batches.
type GameBuilder struct {
	b *array.RecordBuilder
	n int
}

// NewGameBuilder returns a builder for games records. Release it when done.
func NewGameBuilder() *GameBuilder {
	return &GameBuilder{b: array.NewRecordBuilder(memory.NewGoAllocator(), GamesSchema())}
}

// Append adds one game.
func (gb *GameBuilder) Append(g Game) {
	f := gb.b.Fields()
	for i, s := range []string{g.GameID, g.Source, g.Date, g.Black, g.White, g.BlackRank, g.WhiteRank} {
		f[i].(*array.StringBuilder).Append(s)
	}
	f[7].(*array.Float64Builder).Append(g.Komi)
	f[8].(*array.StringBuilder).Append(g.Result)
	f[9].(*array.Int32Builder).Append(g.BoardSize)
	f[10].(*array.Int32Builder).Append(g.Handicap)
	f[11].(*array.StringBuilder).Append(g.Moves)
	f[12].(*array.Int32Builder).Append(g.NumMoves)
	gb.n++
}

// Len is the number of games appended since the last NewRecord.
func (gb *GameBuilder) Len() int { return gb.n }

// NewRecord returns the games appended so far as a record (the caller
// releases it) and resets the builder.
func (gb *GameBuilder) NewRecord() arrow.Record {
	gb.n = 0
	return gb.b.NewRecord()
}

// Release frees the builder.
func (gb *GameBuilder) Release() { gb.b.Release() }

// GamesFromRecord decodes a games record batch.
func GamesFromRecord(rec arrow.Record) ([]Game, error) {
	var strs [9]*array.String
	for i, name := range []string{"game_id", "source", "date", "black", "white", "black_rank", "white_rank", "result", "moves"} {
		col, err := Column[*array.String](rec, name)
		if err != nil {
			return nil, err
		}
		strs[i] = col
	}
	komi, err := Column[*array.Float64](rec, "komi")
	if err != nil {
		return nil, err
	}
	var ints [3]*array.Int32
	for i, name := range []string{"board_size", "handicap", "num_moves"} {
		if ints[i], err = Column[*array.Int32](rec, name); err != nil {
			return nil, err
		}
	}
	games := make([]Game, rec.NumRows())
	for i := range games {
		games[i] = Game{
			GameID: strs[0].Value(i), Source: strs[1].Value(i), Date: strs[2].Value(i),
			Black: strs[3].Value(i), White: strs[4].Value(i),
			BlackRank: strs[5].Value(i), WhiteRank: strs[6].Value(i),
			Komi: komi.Value(i), Result: strs[7].Value(i),
			BoardSize: ints[0].Value(i), Handicap: ints[1].Value(i),
			Moves: strs[8].Value(i), NumMoves: ints[2].Value(i),
		}
	}
	return games, nil
}

// ForEachGame calls fn with every game of the games dataset in dir, in
// order. It checks the dataset's kind and schema version.
func ForEachGame(ctx context.Context, dir string, fn func(Game) error) (*Manifest, error) {
	r, err := OpenKind(dir, GamesKind, GamesSchemaVersion)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	err = r.forEach(ctx, func(rec arrow.Record) error {
		games, err := GamesFromRecord(rec)
		if err != nil {
			return fmt.Errorf("datasets: games dataset %s: %w", dir, err)
		}
		for _, g := range games {
			if err := fn(g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.m, nil
}

// ReadGames reads the whole games dataset in dir.
func ReadGames(ctx context.Context, dir string) ([]Game, *Manifest, error) {
	var games []Game
	m, err := ForEachGame(ctx, dir, func(g Game) error {
		games = append(games, g)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return games, m, nil
}

// WriteGames writes games as a games dataset in dir. m supplies the
// manifest's stage, input hash and meta; its kind and schema version are
// set here.
func WriteGames(dir string, games []Game, m Manifest, opts WriterOptions) (*Manifest, error) {
	w, err := NewWriter(dir, GamesSchema(), opts)
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	gb := NewGameBuilder()
	defer gb.Release()
	for i, g := range games {
		gb.Append(g)
		if gb.Len() == gameBatchRows || i == len(games)-1 {
			if err := writeGameBatch(w, gb); err != nil {
				return nil, err
			}
		}
	}
	m.Kind, m.SchemaVersion = GamesKind, GamesSchemaVersion
	return w.Commit(m)
}

// gameBatchRows is the number of games per record batch.
const gameBatchRows = 4096

func writeGameBatch(w *Writer, gb *GameBuilder) error {
	rec := gb.NewRecord()
	defer rec.Release()
	return w.Write(rec)
}
