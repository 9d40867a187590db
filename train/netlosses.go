package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
)

// The network dataset that a training stage writes: the weights file and
// the loss curve. Its manifest lists both files; NetworkFile is not Arrow,
// so read the dataset with ReadNetwork and ReadLosses, not datasets.Open.
const (
	NetworkKind          = "network"
	NetworkSchemaVersion = 1
	NetworkFile          = "network.lznn"
	LossesName           = "losses" // losses.arrow, in datasets.NetworkLossesSchema
)

// WriteLosses writes the loss curve as <dir>/losses.arrow and returns its
// manifest entry.
func WriteLosses(dir string, losses []LossPoint) (datasets.FileEntry, error) {
	schema := datasets.NetworkLossesSchema()
	f, err := datasets.CreateFile(dir, LossesName, schema)
	if err != nil {
		return datasets.FileEntry{}, fmt.Errorf("train: %w", err)
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for _, l := range losses {
		b.Field(0).(*array.Int64Builder).Append(int64(l.Step))
		for i, v := range []float64{l.LR, l.Policy, l.Value, l.DWin, l.Total} {
			b.Field(i + 1).(*array.Float64Builder).Append(v)
		}
	}
	rec := b.NewRecord()
	err = f.Write(rec)
	rec.Release()
	if err != nil {
		f.Abort()
		return datasets.FileEntry{}, fmt.Errorf("train: %w", err)
	}
	e, err := f.Close()
	if err != nil {
		return datasets.FileEntry{}, fmt.Errorf("train: %w", err)
	}
	return e, nil
}

// ReadLosses reads the loss curve of a network dataset (verifying the
// file against the manifest).
func ReadLosses(ctx context.Context, dir string) ([]LossPoint, error) {
	m, err := datasets.Verify(dir)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if m.Kind != NetworkKind {
		return nil, fmt.Errorf("train: %s is a %q dataset, want %q", dir, m.Kind, NetworkKind)
	}
	var entry *datasets.FileEntry
	for i := range m.Files {
		if m.Files[i].Name == LossesName+datasets.FileExt {
			entry = &m.Files[i]
		}
	}
	if entry == nil {
		return nil, fmt.Errorf("train: %s lists no %s%s", dir, LossesName, datasets.FileExt)
	}
	r, err := datasets.OpenFile(dir, *entry, datasets.NetworkLossesSchema())
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	defer r.Close()
	var out []LossPoint
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		steps := rec.Column(0).(*array.Int64)
		cols := make([]*array.Float64, 5)
		for i := range cols {
			cols[i] = rec.Column(i + 1).(*array.Float64)
		}
		for i := range int(rec.NumRows()) {
			out = append(out, LossPoint{Step: int(steps.Value(i)), LR: cols[0].Value(i), Policy: cols[1].Value(i),
				Value: cols[2].Value(i), DWin: cols[3].Value(i), Total: cols[4].Value(i)})
		}
	}
}

// NetworkPath verifies the network dataset in dir and returns the path of
// its weights file (for nn.Load or neteval.Load) and its manifest.
func NetworkPath(dir string) (string, *datasets.Manifest, error) {
	m, err := datasets.Verify(dir)
	if err != nil {
		return "", nil, fmt.Errorf("train: %w", err)
	}
	if m.Kind != NetworkKind || m.SchemaVersion != NetworkSchemaVersion {
		return "", nil, fmt.Errorf("train: %s is a %q dataset version %d, want %q version %d", dir, m.Kind, m.SchemaVersion, NetworkKind, NetworkSchemaVersion)
	}
	for _, f := range m.Files {
		if f.Name == NetworkFile {
			return filepath.Join(dir, f.Name), m, nil
		}
	}
	return "", nil, fmt.Errorf("train: network dataset %s lists no %s", dir, NetworkFile)
}
