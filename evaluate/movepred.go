package evaluate

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
	"lifezero/movepred"
)

// The movepred results dataset kind: one row per player evaluated on move
// prediction (a movepred.Result), in datasets.MovePredResultsSchema.
const (
	MovePredKind          = "movepred-results"
	MovePredSchemaVersion = 1
)

// WriteMovePredResults writes results as a movepred results dataset in dir.
// m supplies the stage, input hash and meta; kind and schema version are set
// here.
func WriteMovePredResults(dir string, results []movepred.Result, m datasets.Manifest) (*datasets.Manifest, error) {
	w, err := datasets.NewWriter(dir, datasets.MovePredResultsSchema(), datasets.WriterOptions{})
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), datasets.MovePredResultsSchema())
	defer b.Release()
	for _, r := range results {
		appendResult(b, r)
	}
	rec := b.NewRecord()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	m.Kind, m.SchemaVersion = MovePredKind, MovePredSchemaVersion
	return w.Commit(m)
}

func appendResult(b *array.RecordBuilder, r movepred.Result) {
	f := b.Fields()
	f[0].(*array.StringBuilder).Append(r.Player)
	f[1].(*array.Int64Builder).Append(int64(r.Positions))
	f[2].(*array.Int64Builder).Append(int64(r.LegalMoves))
	f[3].(*array.Float64Builder).Append(r.Top1)
	f[4].(*array.Float64Builder).Append(r.Top5)
	appendList(f[5], r.TopK)
	f[6].(*array.Float64Builder).Append(r.MeanRank)
	f[7].(*array.Float64Builder).Append(r.MeanLogLikelihood)
	var (
		from, to         []int32
		n                []int64
		top1, top5, logl []float64
	)
	for _, p := range r.Phases {
		from, to, n = append(from, int32(p.From)), append(to, int32(p.To)), append(n, int64(p.Positions))
		top1, top5, logl = append(top1, p.Top1), append(top5, p.Top5), append(logl, p.MeanLogLikelihood)
	}
	appendList(f[8], from)
	appendList(f[9], to)
	appendList(f[10], n)
	appendList(f[11], top1)
	appendList(f[12], top5)
	appendList(f[13], logl)
	var (
		ids                      []int32
		legal, played, predicted []float64
	)
	for _, ff := range r.Features {
		ids, legal = append(ids, ff.Feature), append(legal, ff.Legal)
		played, predicted = append(played, ff.Played), append(predicted, ff.Predicted)
	}
	appendList(f[14], ids)
	appendList(f[15], legal)
	appendList(f[16], played)
	appendList(f[17], predicted)
}

// appendList appends one list value to a list builder of int32, int64 or
// float64 values.
func appendList[T int32 | int64 | float64](b array.Builder, values []T) {
	lb := b.(*array.ListBuilder)
	lb.Append(true)
	switch vb := lb.ValueBuilder().(type) {
	case *array.Int32Builder:
		vb.AppendValues(any(values).([]int32), nil)
	case *array.Int64Builder:
		vb.AppendValues(any(values).([]int64), nil)
	case *array.Float64Builder:
		vb.AppendValues(any(values).([]float64), nil)
	}
}

// ReadMovePredResults reads the movepred results dataset in dir.
func ReadMovePredResults(ctx context.Context, dir string) ([]movepred.Result, *datasets.Manifest, error) {
	r, err := datasets.OpenKind(dir, MovePredKind, MovePredSchemaVersion)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	var results []movepred.Result
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
		if results, err = appendResults(results, rec); err != nil {
			return nil, nil, fmt.Errorf("evaluate: movepred results %s: %w", dir, err)
		}
	}
	return results, r.Manifest(), nil
}

// appendResults decodes the rows of a results record.
func appendResults(results []movepred.Result, rec arrow.Record) ([]movepred.Result, error) {
	player, err := datasets.Column[*array.String](rec, "player")
	if err != nil {
		return nil, err
	}
	var ints [2]*array.Int64
	for i, name := range []string{"positions", "legal_moves"} {
		if ints[i], err = datasets.Column[*array.Int64](rec, name); err != nil {
			return nil, err
		}
	}
	var floats [4]*array.Float64
	for i, name := range []string{"top1", "top5", "mean_rank", "mean_log_likelihood"} {
		if floats[i], err = datasets.Column[*array.Float64](rec, name); err != nil {
			return nil, err
		}
	}
	lists := map[string]*array.List{}
	for _, name := range []string{"top_k", "phase_from", "phase_to", "phase_positions", "phase_top1", "phase_top5",
		"phase_log_likelihood", "feature", "feature_legal", "feature_played", "feature_predicted"} {
		if lists[name], err = datasets.Column[*array.List](rec, name); err != nil {
			return nil, err
		}
	}
	for i := range int(rec.NumRows()) {
		res := movepred.Result{
			Player: player.Value(i), Positions: int(ints[0].Value(i)), LegalMoves: int(ints[1].Value(i)),
			Top1: floats[0].Value(i), Top5: floats[1].Value(i), MeanRank: floats[2].Value(i), MeanLogLikelihood: floats[3].Value(i),
		}
		var (
			topK, top1, top5, logl, legal, played, pred []float64
			from, to, ids                               []int32
			n                                           []int64
		)
		for _, c := range []struct {
			name string
			dst  any
		}{{"top_k", &topK}, {"phase_from", &from}, {"phase_to", &to}, {"phase_positions", &n}, {"phase_top1", &top1},
			{"phase_top5", &top5}, {"phase_log_likelihood", &logl}, {"feature", &ids}, {"feature_legal", &legal},
			{"feature_played", &played}, {"feature_predicted", &pred}} {
			if err := listValues(lists[c.name], i, c.dst); err != nil {
				return nil, fmt.Errorf("row %d, column %s: %w", i, c.name, err)
			}
		}
		res.TopK = topK
		if len(to) != len(from) || len(n) != len(from) || len(top1) != len(from) || len(top5) != len(from) || len(logl) != len(from) {
			return nil, fmt.Errorf("row %d: phase columns of different lengths", i)
		}
		for p := range from {
			res.Phases = append(res.Phases, movepred.Phase{From: int(from[p]), To: int(to[p]), Positions: int(n[p]),
				Top1: top1[p], Top5: top5[p], MeanLogLikelihood: logl[p]})
		}
		if len(legal) != len(ids) || len(played) != len(ids) || len(pred) != len(ids) {
			return nil, fmt.Errorf("row %d: feature columns of different lengths", i)
		}
		for j, id := range ids {
			res.Features = append(res.Features, movepred.FeatureFrequency{Feature: id, Legal: legal[j], Played: played[j], Predicted: pred[j]})
		}
		results = append(results, res)
	}
	return results, nil
}

// listValues copies row i of a list column into *dst ([]int32, []int64 or
// []float64, matching the column's values).
func listValues(col *array.List, i int, dst any) error {
	s, e := col.ValueOffsets(i)
	switch d := dst.(type) {
	case *[]int32:
		v, ok := col.ListValues().(*array.Int32)
		if !ok {
			return fmt.Errorf("values are %s, want int32", col.ListValues().DataType())
		}
		*d = append([]int32(nil), v.Int32Values()[s:e]...)
	case *[]int64:
		v, ok := col.ListValues().(*array.Int64)
		if !ok {
			return fmt.Errorf("values are %s, want int64", col.ListValues().DataType())
		}
		*d = append([]int64(nil), v.Int64Values()[s:e]...)
	case *[]float64:
		v, ok := col.ListValues().(*array.Float64)
		if !ok {
			return fmt.Errorf("values are %s, want float64", col.ListValues().DataType())
		}
		*d = append([]float64(nil), v.Float64Values()[s:e]...)
	}
	return nil
}
