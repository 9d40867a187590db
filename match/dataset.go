package match

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
)

// The match-results dataset kind, OUT/results/: one row per game, in
// datasets.MatchResultsSchema.
const (
	ResultsKind          = "match-results"
	ResultsSchemaVersion = 1
	ResultsDir           = "results"
)

// writeDataset writes the games of sum as the match-results dataset in
// dir; the manifest's meta holds the engines, the settings and the
// summary.
func writeDataset(dir string, sum *Summary, st settings) error {
	b := array.NewRecordBuilder(memory.NewGoAllocator(), datasets.MatchResultsSchema())
	defer b.Release()
	f := b.Fields()
	for _, r := range sum.Games {
		f[0].(*array.Int32Builder).Append(int32(r.Game))
		for i, s := range []string{r.Black, r.White, r.AColour, r.Winner} {
			f[1+i].(*array.StringBuilder).Append(s)
		}
		f[5].(*array.Float64Builder).Append(r.Score)
		for i, s := range []string{r.RE, r.End, r.ScoredBy} {
			f[6+i].(*array.StringBuilder).Append(s)
		}
		f[9].(*array.Int32Builder).Append(int32(r.Moves))
		f[10].(*array.Float64Builder).Append(r.Seconds)
		f[11].(*array.StringBuilder).Append(r.SGF)
	}
	rec := b.NewRecord()
	defer rec.Release()
	w, err := datasets.NewWriter(dir, rec.Schema(), datasets.WriterOptions{})
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		w.Abort()
		return err
	}
	s := sum.Stats
	_, err = w.Commit(datasets.Manifest{Kind: ResultsKind, SchemaVersion: ResultsSchemaVersion, Meta: map[string]string{
		"a": st.A, "b": st.B, "size": strconv.Itoa(st.Size), "komi": strconv.FormatFloat(st.Komi, 'f', -1, 64),
		"handicap": strconv.Itoa(st.Handicap), "max_moves": strconv.Itoa(st.MaxMoves),
		"a_wins": strconv.Itoa(s.Wins), "a_losses": strconv.Itoa(s.Losses), "draws": strconv.Itoa(s.Draws),
		"a_score": fmt.Sprintf("%.4f", s.Score), "a_score_ci95": fmt.Sprintf("%.4f-%.4f", s.Low, s.High),
		"a_elo": FormatElo(float64(s.Elo)), "a_elo_ci95": FormatElo(float64(s.EloLow)) + " to " + FormatElo(float64(s.EloHigh)),
	}})
	return err
}

// ReadResults reads the games of a match-results dataset.
func ReadResults(ctx context.Context, dir string) ([]Result, error) {
	r, err := datasets.OpenKind(dir, ResultsKind, ResultsSchemaVersion)
	if err != nil {
		return nil, err
	}
	_ = r.Close()
	var out []Result
	_, err = datasets.ForEach(ctx, dir, func(rec arrow.Record) error {
		ints := map[string]*array.Int32{}
		for _, name := range []string{"game", "moves"} {
			c, err := datasets.Column[*array.Int32](rec, name)
			if err != nil {
				return err
			}
			ints[name] = c
		}
		floats := map[string]*array.Float64{}
		for _, name := range []string{"score", "seconds"} {
			c, err := datasets.Column[*array.Float64](rec, name)
			if err != nil {
				return err
			}
			floats[name] = c
		}
		strs := map[string]*array.String{}
		for _, name := range []string{"black", "white", "a_colour", "winner", "re", "end", "scored_by", "sgf"} {
			c, err := datasets.Column[*array.String](rec, name)
			if err != nil {
				return err
			}
			strs[name] = c
		}
		for i := range int(rec.NumRows()) {
			out = append(out, Result{
				Game: int(ints["game"].Value(i)), Black: strs["black"].Value(i), White: strs["white"].Value(i),
				AColour: strs["a_colour"].Value(i), Winner: strs["winner"].Value(i), Score: floats["score"].Value(i),
				RE: strs["re"].Value(i), End: strs["end"].Value(i), ScoredBy: strs["scored_by"].Value(i),
				Moves: int(ints["moves"].Value(i)), Seconds: floats["seconds"].Value(i), SGF: strs["sgf"].Value(i),
			})
		}
		return nil
	})
	return out, err
}
